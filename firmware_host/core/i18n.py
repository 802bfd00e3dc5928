"""Text lookup for the UI languages. German is the default; English is selectable.

Each module keeps its own table `{"de": {key: text}, "en": {key: text}}` and calls `pick`.
"""

from collections.abc import Mapping
from typing import Protocol

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"

Table = Mapping[str, Mapping[str, str]]


def pick(table: Table, lang: str, key: str, **fields: object) -> str:
    """The text for `key` in `lang` (falling back to German), formatted with `fields`."""
    texts = table.get(lang) or table[DEFAULT_LANGUAGE]
    text = texts.get(key)
    if text is None:
        text = table[DEFAULT_LANGUAGE][key]
    return text.format(**fields) if fields else text


class Texts(Protocol):
    """A module's `t(lang, key, **fields)`: the text of its table for `key` in `lang` (see `pick`)."""

    def __call__(self, lang: str, key: str, **fields: object) -> str: ...


def texts(table: Table) -> Texts:
    """The text lookup of `table`, bound once: `t = texts(TEXT)` at the bottom of a module."""

    def t(lang: str, key: str, **fields: object) -> str:
        return pick(table, lang, key, **fields)

    return t


MINUS = "\u2212"  # the minus sign every screen uses (never the hyphen)


def signed(number: int) -> str:
    """A points change as the screens show it: "+5", "+0", "−3" (the minus sign)."""
    return f"{MINUS}{-number}" if number < 0 else f"+{number}"
