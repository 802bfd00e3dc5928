"""The one error a rules core raises for an entry the rules do not allow.

`RuleError(code, ref=0, **fields)`: a game's subclass sets `TEXTS` (an i18n table keyed by code) and
`text(lang)` explains the broken rule in the table's language; without a text for the code, the code is
the message itself. `message` (and `str(error)`) is the English text; `ref` is the record line blamed
(0: none yet). Fields that are themselves `RuleError`s are explained in the same language.
"""

from __future__ import annotations

from typing import ClassVar

from firmware_host.core.i18n import DEFAULT_LANGUAGE, Table, pick


class RuleError(Exception):
    TEXTS: ClassVar[Table] = {}

    def __init__(self, code: str, ref: int = 0, **fields: object) -> None:
        self.code = code
        self.fields = fields
        self.ref = ref
        self.message = self.text("en")
        super().__init__(self.message)

    def text(self, lang: str) -> str:
        if self.code not in self.TEXTS.get(DEFAULT_LANGUAGE, {}):
            return self.code
        shown = {k: v.text(lang) if isinstance(v, RuleError) else v for k, v in self.fields.items()}
        return pick(self.TEXTS, lang, self.code, **shown)

    def at(self, ref: int) -> RuleError:
        """The same error, blamed on record line `ref`."""
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        Exception.__init__(copy, self.message)
        copy.ref = ref
        return copy
