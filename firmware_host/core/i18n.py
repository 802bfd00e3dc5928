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


# The word lists by the names a table knows them by: Debian's packages by their language; any other list
# (a file of one's own, a test's) by its own name. A list filtered by a lexicon ("wngerman+Ding") is still it.
WORD_LISTS: Table = {
    "de": {"wngerman": "Deutsch", "wamerican": "Englisch", "wbritish": "Englisch"},
    "en": {"wngerman": "German", "wamerican": "English", "wbritish": "English"},
}


def word_list(lang: str, source: str) -> str:
    """The word list `source` (as the reveal names it: "wngerman", "wngerman+Ding", a file's name) in the
    players' words: "Deutsch", "Englisch" in German; a list that is no package keeps its name."""
    package = source.partition("+")[0]
    return pick(WORD_LISTS, lang, package) if package in WORD_LISTS[DEFAULT_LANGUAGE] else source
