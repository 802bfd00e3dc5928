"""The one normalisation of text at the edge: every channel (typed, scanned, picked, a record, a config) goes
through `clean` before the core uses the text.

`clean(text, field)` returns the text in Unicode NFC, with surrounding space removed and every inner run
of spaces (any Unicode space separator) folded into one " ". It refuses, with a `TextRefused` that
explains itself in the table's language:
- control and format characters (Unicode Cc, Cf, Cs, Zl, Zp: line breaks, tabs, U+0085, U+2028, U+2029,
  zero-width and direction marks, lone surrogates), named by code point;
- text longer than the field's bound (`Field.limit`, counted in characters after normalisation).
Empty text is not refused here: whether a field may be empty is the caller's rule.

`clean` is idempotent: `clean(clean(t, f), f) == clean(t, f)`. `visible(text)` quotes a text so that a
difference a reader could not see is shown (a space at either end as ␣, any other invisible character by
its code point). Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import Table, pick


@dataclass(frozen=True, slots=True)
class Field:
    """A kind of text and its bound: `limit` characters at most, after normalisation."""

    name: str
    limit: int


# The bounds (docs/record-format.md "Text"): one per kind of text, the same on the OLED, in a record and
# in the config.
NAME = Field("name", 16)  # a player's name: fits a list row on the 128-px panel beside its value
WORD = Field("word", 32)  # one word, term, bonus field, card or end name (the table page takes 32)
NUMBER = Field("number", 12)  # a typed number: points, a duration "1:30", a count, a seed
CODE = Field("code", 64)  # a card's code as a reader or the keyboard gives it (the scanner's line bound)
LINE = Field("line", 120)  # any typed line (words and cards of a lay, clue tiles of a line)
LABEL = Field("label", 200)  # a record's free text: house rules, a line's label, a wall-clock mark

FIELDS = (NAME, WORD, NUMBER, CODE, LINE, LABEL)

# Record event fields say which kind of text they hold (`record_codec` reads the kind from the annotation).
Name = Annotated[str, NAME]
Word = Annotated[str, WORD]
Code = Annotated[str, CODE]
Label = Annotated[str, LABEL]
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
SHOWN_LIMIT = 24  # characters of a refused text shown in its message
_EARLY_FACTOR = 4  # a text longer than 4 × the bound is refused before it is normalised (NFC never
# shrinks a text by more than this)

_CONTROL_NAMES = {
    0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED",
    0x0B: "LINE TABULATION", 0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE",
    0x1C: "INFORMATION SEPARATOR FOUR", 0x1D: "INFORMATION SEPARATOR THREE", 0x1E: "INFORMATION SEPARATOR TWO",
    0x1F: "INFORMATION SEPARATOR ONE", 0x7F: "DELETE", 0x85: "NEXT LINE",
}

TEXTS: Table = {
    "de": {
        "control": "Steuerzeichen {char} nicht erlaubt: {text}",
        "too_long": "zu lang für {field} (höchstens {limit} Zeichen): {text}",
        "field.name": "einen Namen",
        "field.word": "ein Wort",
        "field.number": "eine Zahl",
        "field.code": "einen Kartencode",
        "field.line": "eine Zeile",
        "field.label": "einen Vermerk",
    },
    "en": {
        "control": "control character {char} not allowed: {text}",
        "too_long": "too long for {field} (at most {limit} characters): {text}",
        "field.name": "a name",
        "field.word": "a word",
        "field.number": "a number",
        "field.code": "a card code",
        "field.line": "a line",
        "field.label": "a label",
    },
}


class TextRefused(RuleError):
    """Text refused at the edge: `code` is "control" or "too_long"; `text(lang)` says why."""

    TEXTS: ClassVar[Table] = TEXTS

    def text(self, lang: str) -> str:
        fields = dict(self.fields)
        if "field" in fields:
            fields["field"] = pick(TEXTS, lang, f"field.{fields['field']}")
        return pick(TEXTS, lang, self.code, **fields)


def clean(text: str, field: Field = LINE) -> str:
    """`text` normalised (NFC, trimmed, inner spaces folded); raises `TextRefused` for a control or format
    character, or for more than `field.limit` characters."""
    if len(text) > _EARLY_FACTOR * field.limit:
        raise TextRefused("too_long", text=visible(text), n=len(text), limit=field.limit, field=field.name)
    composed = unicodedata.normalize("NFC", text)
    for char in composed:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise TextRefused("control", text=visible(composed), char=char_name(char))
    folded = unicodedata.normalize("NFC", " ".join(composed.split()))
    if len(folded) > field.limit:
        raise TextRefused("too_long", text=visible(folded), n=len(folded), limit=field.limit, field=field.name)
    return folded


def at_edge(text: str, field: Field = LINE) -> str:
    """What an input edge (a keyboard, a script) passes on: `text` normalised; or, when `clean` refuses it,
    the text as it came cut to 4 × the bound + 1 characters, so the core refuses it for the same reason
    and nothing longer is journaled."""
    try:
        return clean(text, field)
    except TextRefused:
        return text[: _EARLY_FACTOR * field.limit + 1]


def refusal(text: str, field: Field = LINE) -> TextRefused | None:
    """Why `clean` would refuse `text`, or None."""
    try:
        clean(text, field)
    except TextRefused as exc:
        return exc
    return None


def char_name(char: str) -> str:
    """A character as "U+000A LINE FEED" (its code point and, where Unicode has one, its name)."""
    code = ord(char)
    name = _CONTROL_NAMES.get(code) or unicodedata.name(char, "")
    return f"U+{code:04X}" + (f" {name}" if name else "")


def visible(text: str, limit: int = SHOWN_LIMIT) -> str:
    """`text` in „…“ quotes, its first `limit` characters (then "…"), a space at either end shown as ␣ and
    any other invisible character (control, format, separator, a combining mark on no letter) as
    ⟨U+XXXX⟩."""
    cut = text[:limit]
    shown = []
    for i, char in enumerate(cut):
        category = unicodedata.category(char)
        if char == " " and (i == 0 or i == len(text) - 1):
            shown.append("␣")
        elif (
            category in REFUSED_CATEGORIES
            or (category.startswith("Z") and char != " ")
            or (category.startswith("M") and (i == 0 or cut[i - 1] == " "))  # a mark on no letter
        ):
            shown.append(f"⟨U+{ord(char):04X}⟩")
        else:
            shown.append(char)
    return "„" + "".join(shown) + ("…" if len(text) > limit else "") + "“"


# The characters a normalised text never holds, as a JSON Schema (ECMA 262) class: the C0 and C1 controls,
# U+2028/U+2029, and the format characters in use (soft hyphen, zero-width and direction marks, BOM).
_NO_CONTROLS = (
    "^[^\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e"
    "\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb]*$"
)


def text_schema(field: Field) -> dict[str, Any]:
    """A reference to the JSON Schema of a text of `field`'s kind (`text_schemas` defines it)."""
    return {"$ref": f"#/$defs/text.{field.name}"}


def text_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of a normalised text of each kind, by "text.<kind>": at most the kind's bound of
    characters, none of the common control and format characters (`clean` refuses every one of
    Unicode's; the pattern lists the common ones)."""
    return {
        f"text.{field.name}": {
            "type": "string",
            "description": f"a normalised text (NFC, no surrounding space), at most {field.limit} characters",
            "maxLength": field.limit,
            "pattern": _NO_CONTROLS,
        }
        for field in FIELDS
    }


def _plain(char: str) -> bool:
    """A character a reader sees as itself: not a control, format, separator or combining mark."""
    return char == " " or unicodedata.category(char)[0] not in "CZM"


def quoted(text: str) -> str:
    """`text` as `repr` shows it ('GEL1') when every character is plainly visible and no space ends it;
    else `visible(text)` („U⟨U+0308⟩“-style), so that an invisible difference shows."""
    if all(_plain(c) for c in text) and text == text.strip() and len(text) <= SHOWN_LIMIT:
        return repr(text)
    return visible(text)


def quoted_chars(chars: str) -> str:
    """Characters as a message names them: 'x' for a plainly visible one, else its code point and name
    ("U+0308 COMBINING DIAERESIS")."""
    return ", ".join(repr(c) if _plain(c) and c != " " else char_name(c) for c in chars)


def shortened(value: Any, limit: int = 40) -> str:
    """`repr(value)` cut to `limit` characters (ending in "…"), a list or a mapping only named: a value
    quoted in a message, never echoed whole."""
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"a table of {len(value)} keys"
    text = repr(value[: limit + 1] if isinstance(value, str) else value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
