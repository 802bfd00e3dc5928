"""The letter picker: a typed line entered with the buttons and the encoder, for any `TextField`.

The picker shows the line so far and a window of the letter ring around its cursor. Turn (or NEXT, and
a long NEXT back) moves the cursor through the ring: A–Z, Ä Ö Ü ß, the digits, a space and delete
(`DELETE`; a field of card notation has its brackets too, a number field only digits, a minus and
delete). START (or the encoder's push) adds the letter under the cursor, BACK takes the last one off, a
long START (or a long push) submits the line. The cursor stays where it was, so the next letter is
counted from the last one. A name comes out with each word capitalised ("ANNA" → "Anna"), any
other line as picked.

The app (`core.app`) opens a picker for the field on screen, routes the buttons to it and hands the
submitted line to the screen as a `TextEntry` (`text_field.typed`). Pure values, like all of the core.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.core.i18n import pick
from firmware_host.core.screens import ListItem, ListScreen
from firmware_host.core.text_field import TextField

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜß"
DIGITS = "0123456789"
SPACE = " "
DELETE = "⌫"
SHOWN = {SPACE: "␣"}  # how a ring symbol is drawn when it is no letter
WINDOW = 3  # ring symbols shown on each side of the cursor
TAIL = 16  # the last characters of a long line that the picker shows

TEXT = {
    "de": {
        "hint_empty": "Drehen/NEXT · START +",
        "hint": "BACK ⌫, lang START ok",
        "full": "Voll: höchstens {limit} Zeichen",
        "empty": "(leer)",
    },
    "en": {
        "hint_empty": "Turn/NEXT · START add",
        "hint": "BACK del, hold START ok",
        "full": "Full: at most {limit} characters",
        "empty": "(empty)",
    },
}


def ring(field: TextField) -> str:
    """The symbols the cursor runs through for `field`; delete is one step back from the first."""
    if field.kind == "number":
        return DIGITS + ":-" + DELETE  # a count, points, a time ("1:30")
    if field.kind == "cards":
        return LETTERS + "()" + SPACE + DELETE
    return LETTERS + DIGITS + SPACE + DELETE


@dataclass(frozen=True, slots=True)
class Picker:
    """The line being picked for `field`: the symbols added so far and the cursor in `ring(field)`."""

    field: TextField
    text: str = ""
    cursor: int = 0
    full: bool = False  # the last add was refused: the line is as long as the field takes

    @property
    def symbols(self) -> str:
        return ring(self.field)

    @property
    def under_cursor(self) -> str:
        return self.symbols[self.cursor]

    def moved(self, steps: int) -> Picker:
        return replace(self, cursor=(self.cursor + steps) % len(self.symbols), full=False)

    def added(self) -> Picker:
        """The symbol under the cursor added (delete: the last symbol taken off); a line as long as the
        field takes stays as it is, marked `full`."""
        symbol = self.under_cursor
        if symbol == DELETE:
            return self.deleted()
        if len(self.text) >= self.field.max_len:
            return replace(self, full=True)
        return replace(self, text=self.text + symbol, full=False)

    def deleted(self) -> Picker:
        return replace(self, text=self.text[:-1], full=False)

    def line(self) -> str:
        """The line as it is submitted: a name's words capitalised, anything else as picked."""
        if self.field.kind == "name":
            return " ".join(word.capitalize() for word in self.text.split(" "))
        return self.text

    def screen(self, lang: str, typed: str = "", footer: str = "") -> ListScreen:
        """The field's prompt and note, the line (or the keyboard's pending line `typed`) with a cursor
        mark as the highlighted row, the ring around the cursor, and the footer: a message, or the hint
        for the next step (on an empty line how to add a letter, then how to take one off and send)."""
        shown = typed or self.line()
        if len(shown) > TAIL:
            shown = "…" + shown[-TAIL + 1 :]
        symbols = self.symbols
        around = [symbols[(self.cursor + offset) % len(symbols)] for offset in range(-WINDOW, WINDOW + 1)]
        window = " ".join(f"[{_shown(s)}]" if i == WINDOW else _shown(s) for i, s in enumerate(around))
        if self.full and not footer:
            footer = pick(TEXT, lang, "full", limit=self.field.max_len)
        rows = (
            *((ListItem(self.field.note),) if self.field.note else ()),
            ListItem(f"{shown}▏" if shown else f"▏{pick(TEXT, lang, 'empty')}"),
            ListItem(window),
        )
        hint = pick(TEXT, lang, "hint" if self.text else "hint_empty")  # what fits the panel: the next step
        return ListScreen(self.field.label, rows, len(rows) - 2, footer or hint)


def _shown(symbol: str) -> str:
    return SHOWN.get(symbol, symbol)
