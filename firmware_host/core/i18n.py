"""Text lookup for the UI languages. German is the default; English is selectable.

Each module keeps its own table `{"de": {key: text}, "en": {key: text}}` and calls `pick`.
"""

from collections.abc import Mapping

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


MINUS = "\u2212"  # the minus sign every screen uses (never the hyphen)


def signed(number: int) -> str:
    """A points change as the screens show it: "+5", "+0", "−3" (the minus sign)."""
    return f"{MINUS}{-number}" if number < 0 else f"+{number}"
