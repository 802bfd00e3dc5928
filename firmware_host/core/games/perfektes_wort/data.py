"""The game's data as values: sheet sides, letter cards and points-card faces (rulings R1, R2).

The same mapping shapes are read from the TOML data files (by `firmware_host.games.perfektes_wort.data_files`) and
from a record's setup line, so both are validated here, once. Validation raises `DataError` whose key
names the offending place (e.g. ``rows[3]``, ``arrows[1].to``).

A sheet row is written as a pattern string, one character per cell: ``.`` an empty cell, a letter a
grey letter printed in that cell. Cells and rows are numbered from 1; cell 1 is the green starting cell.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from firmware_host.core.record import RecordLine
from firmware_host.core.text_input import LABEL, WORD, TextRefused, clean, shortened

from .errors import DataError
from .words import LETTERS, VOWELS, normalize

ROUNDS = 9
BONUS_FIELDS = 12
EMPTY_CELL = "."
MAX_VOWEL_VALUE = 99
MAX_CELLS = 16  # a sheet row's cells: at least ROUNDS, and no more than this
# The back of a letter card: the maximum word length. The rulebook gives no range ("Sie entspricht der Zahl
# vom Ablagestapel"): any length a row can hold is a card (the row's own cells are checked by the rules,
# `rules._check_card`); the appliance's own deck uses 5–9 (ruling R2).
CARD_LENGTHS = range(1, MAX_CELLS + 1)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell of the sheet: row (= round) and position in the row, both from 1."""

    row: int
    cell: int

    def __str__(self) -> str:
        return f"{self.row}/{self.cell}"


@dataclass(frozen=True, slots=True)
class Arrow:
    """A Profi arrow: printed in cell `source`, pointing at the (initially empty) cell `target`."""

    source: Cell
    target: Cell


@dataclass(frozen=True, slots=True)
class Sheet:
    """One side of the score pad: its rows (pattern strings), arrows and the 12 bonus fields."""

    side: str
    title: str
    rows: tuple[str, ...]
    arrows: tuple[Arrow, ...]
    bonus_fields: tuple[str, ...]

    def grey(self, row: int) -> dict[int, str]:
        """The grey letters of `row` by cell."""
        return {i: ch for i, ch in enumerate(self.rows[row - 1], start=1) if ch != EMPTY_CELL}

    def cells(self, row: int) -> int:
        return len(self.rows[row - 1])

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "title": self.title,
            "rows": list(self.rows),
            "arrows": [
                {"from": [a.source.row, a.source.cell], "to": [a.target.row, a.target.cell]}
                for a in self.arrows
            ],
            "bonus": list(self.bonus_fields),
        }


@dataclass(frozen=True, slots=True)
class LetterCard:
    """A letter card: the starting letter on its front, the maximum length on its back. `code` is how a
    record and the data files write it ("B7"), `face` how the card tables do ("B/7", `core.cards`)."""

    letter: str
    length: int

    @property
    def code(self) -> str:
        return f"{self.letter}{self.length}"

    @property
    def face(self) -> str:
        return f"{self.letter}/{self.length}"

    def __str__(self) -> str:
        return self.face


@dataclass(frozen=True, slots=True)
class PointsFace:
    """One side of a points card: an id such as "3b" and the value of each vowel."""

    face: str
    values: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything the appliance ships for the game: sheet sides by name, the deck, the points faces."""

    sheets: Mapping[str, Sheet]
    deck: tuple[LetterCard, ...]
    faces: tuple[PointsFace, ...]

    def face(self, face: str) -> PointsFace:
        for item in self.faces:
            if item.face == face:
                return item
        raise DataError("faces", "data_no_face", face=face, known=", ".join(f.face for f in self.faces))


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where}{key}", "must be a non-empty text")
    return _label(value, f"{where}{key}")


def _label(value: str, key: str) -> str:
    try:
        return clean(value, LABEL)
    except TextRefused as exc:
        raise DataError(key, exc.message) from None


def _cell(value: Any, key: str) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise DataError(key, "must be [row, cell], two whole numbers")
    return Cell(int(value[0]), int(value[1]))


def _bonus_fields(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or len(value) != BONUS_FIELDS:
        raise DataError(key, f"must be a list of {BONUS_FIELDS} bonus fields")
    fields: list[str] = []
    for i, item in enumerate(value, start=1):
        if not isinstance(item, str) or not item.strip():
            raise DataError(f"{key}[{i}]", "must be a non-empty text")
        if len(item) > WORD.limit:
            raise DataError(f"{key}[{i}]", f"{shortened(item)} is longer than {WORD.limit} characters")
        field = normalize(item)
        if any(ch not in LETTERS for ch in field):
            raise DataError(f"{key}[{i}]", f"{item!r} holds characters that are not letters of the game")
        if field in fields:
            raise DataError(f"{key}[{i}]", f"{field} appears twice")
        fields.append(field)
    return tuple(fields)


def sheet_from_mapping(data: Mapping[str, Any]) -> Sheet:
    """Validate and build a sheet side from its mapping (TOML file or a record's setup)."""
    side = _text(data, "side", "")
    title = _text(data, "title", "") if data.get("title") else side
    raw_rows = data.get("rows")
    if not isinstance(raw_rows, list | tuple) or len(raw_rows) != ROUNDS:
        raise DataError("rows", f"must be a list of {ROUNDS} row patterns (one per round)")
    rows: list[str] = []
    for i, raw in enumerate(raw_rows, start=1):
        if not isinstance(raw, str):
            raise DataError(f"rows[{i}]", "must be a text, one character per cell ('.' = empty)")
        if len(raw.strip()) > MAX_CELLS:
            raise DataError(f"rows[{i}]", f"has {len(raw.strip())} cells; a row has at most {MAX_CELLS}")
        row = "".join(EMPTY_CELL if ch == EMPTY_CELL else normalize(ch) for ch in raw.strip())
        if len(row) < ROUNDS:
            raise DataError(f"rows[{i}]", f"has {len(row)} cells; a row needs at least {ROUNDS}")
        wrong = [ch for ch in row if ch != EMPTY_CELL and ch not in LETTERS]
        if wrong:
            raise DataError(f"rows[{i}]", f"{wrong[0]!r} is neither '.' nor a letter of the game")
        if row[0] != EMPTY_CELL:
            raise DataError(f"rows[{i}]", "cell 1 is the starting-letter cell and holds no grey letter")
        rows.append(row)
    raw_arrows = data.get("arrows", [])
    if not isinstance(raw_arrows, list | tuple):
        raise DataError("arrows", "must be a list of {from = [row, cell], to = [row, cell]}")
    arrows: list[Arrow] = []
    used: set[Cell] = set()
    for i, raw in enumerate(raw_arrows, start=1):
        if not isinstance(raw, Mapping):
            raise DataError(f"arrows[{i}]", "must be a table with 'from' and 'to'")
        source = _cell(raw.get("from"), f"arrows[{i}].from")
        target = _cell(raw.get("to"), f"arrows[{i}].to")
        for name, cell in (("from", source), ("to", target)):
            key = f"arrows[{i}].{name}"
            if not 1 <= cell.row <= ROUNDS or not 1 <= cell.cell <= len(rows[cell.row - 1]):
                raise DataError(key, f"cell {cell} is not on the sheet")
            if cell.cell == 1:
                raise DataError(key, "cell 1 is the starting-letter cell")
            if rows[cell.row - 1][cell.cell - 1] != EMPTY_CELL:
                raise DataError(key, f"cell {cell} holds a grey letter; arrows need empty cells")
            if cell in used:
                raise DataError(key, f"cell {cell} is already part of another arrow")
        if source == target:
            raise DataError(f"arrows[{i}]", "an arrow must point at another cell")
        used.update((source, target))
        arrows.append(Arrow(source, target))
    bonus = _bonus_fields(data.get("bonus"), "bonus")
    return Sheet(side, title, tuple(rows), tuple(arrows), bonus)


_CARD = re.compile(r"^([A-ZÄÖÜ])([0-9]{1,2})$")


def card_from_code(code: Any, key: str) -> LetterCard:
    """A letter card from its code: the letter then the length (1–16, `CARD_LENGTHS`), e.g. "F8"."""
    match = _CARD.match(normalize(code)) if isinstance(code, str) and len(code) <= WORD.limit else None
    if match is None:
        raise DataError(key, "data_not_a_card", card=_shown(code))
    length = int(match.group(2))
    if length not in CARD_LENGTHS:
        low, high = CARD_LENGTHS[0], CARD_LENGTHS[-1]
        raise DataError(key, "data_card_length", card=_shown(code), low=low, high=high, length=length)
    return LetterCard(match.group(1), length)


def _shown(code: Any) -> str:
    """A card code as a message quotes it (the catalogue's quotes around it); anything else only named."""
    return code[:WORD.limit] if isinstance(code, str) else shortened(code)


def deck_from_codes(codes: Any, key: str = "cards", minimum: int = ROUNDS + 1) -> tuple[LetterCard, ...]:
    """A deck (or a deck order) from card codes; at least `minimum` cards (9 rounds need 10)."""
    if not isinstance(codes, list | tuple) or len(codes) < minimum:
        raise DataError(key, "data_deck_list", minimum=minimum)
    return tuple(card_from_code(code, f"{key}[{i}]") for i, code in enumerate(codes, start=1))


def vowels_from_mapping(
    data: Any, key: str = "vowels", low: int = 0, high: int = MAX_VOWEL_VALUE
) -> dict[str, int]:
    """Vowel values {A, E, I, O, U} from a mapping, each a whole number in low..high."""
    if not isinstance(data, Mapping):
        raise DataError(key, "must map each vowel A E I O U to its points")
    extra = sorted(set(map(str, data)) - set(VOWELS))
    if extra:
        raise DataError(f"{key}.{extra[0]}", "is not a vowel (only A E I O U; Ä Ö Ü are not vowels)")
    values: dict[str, int] = {}
    for vowel in VOWELS:
        value = data.get(vowel)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise DataError(f"{key}.{vowel}", f"must be a whole number from {low} to {high}")
        values[vowel] = value
    return values


def faces_from_list(items: Any, key: str = "faces") -> tuple[PointsFace, ...]:
    """Points-card faces: a list of {face = "1a", A = 2, E = 3, I = 4, O = 5, U = 3} (printed values 2–5)."""
    if not isinstance(items, list | tuple) or not items:
        raise DataError(key, "must be a list of points-card faces")
    faces: list[PointsFace] = []
    for i, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            raise DataError(f"{key}[{i}]", "must be a table with 'face' and A E I O U")
        name = _text(item, "face", f"{key}[{i}].")
        if any(f.face == name for f in faces):
            raise DataError(f"{key}[{i}].face", f"{name!r} appears twice")
        values = vowels_from_mapping({k: v for k, v in item.items() if k != "face"}, f"{key}[{i}]", 2, 5)
        faces.append(PointsFace(name, values))
    return tuple(faces)


# --- the setup's and the card line's fields in a record (`record_codec.entry(read=, write=)`) ----------


def _on_line(line: RecordLine, build: Callable[[], T], prefix: str = "") -> T:
    """`build()`, its `DataError` turned into the line's `RecordError`."""
    try:
        return build()
    except DataError as exc:
        raise line.error(f"{prefix}{exc.message}", exc, prefix) from None


def read_sheet(line: RecordLine, key: str) -> Sheet:
    """The sheet side embedded in a setup line (so a record stays scorable)."""
    data = line.data.get(key)
    if not isinstance(data, dict):
        raise line.error(f"'{key}' must be the sheet side as an object (side, rows, arrows, bonus)")
    return _on_line(line, lambda: sheet_from_mapping(data), f"{key}.")


def read_vowels(line: RecordLine, key: str) -> dict[str, int]:
    return _on_line(line, lambda: vowels_from_mapping(line.data.get(key), key))


def read_deck(line: RecordLine, key: str) -> tuple[LetterCard, ...]:
    """The deck order known at the start (a record's `card` lines add the rest, so it may be short)."""
    return _on_line(line, lambda: deck_from_codes(line.data.get(key), key, minimum=0))


def read_card(line: RecordLine, key: str) -> LetterCard:
    return _on_line(line, lambda: card_from_code(line.text(key), key))


CARD_SCHEMA = {
    "type": "string",
    "pattern": "^[A-ZÄÖÜ]([1-9]|1[0-6])$",  # CARD_LENGTHS
    "description": "a letter card: its starting letter, then its maximum word length 1–16, at most the cells "
    "of its round's row (e.g. \"F8\"; the appliance's own deck uses 5–9)",
}
DECK_SCHEMA = {"type": "array", "items": CARD_SCHEMA, "description": "the deck order known at the start"}
VOWELS_SCHEMA = {
    "type": "object",
    "properties": {v: {"type": "integer", "minimum": 0, "maximum": MAX_VOWEL_VALUE} for v in VOWELS},
    "required": list(VOWELS),
    "additionalProperties": False,
}
_CELL_SCHEMA = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
SHEET_SCHEMA = {
    "type": "object",
    "description": "the sheet side, whole: rows as patterns ('.' an empty cell, a letter a grey one)",
    "properties": {
        "side": {"type": "string", "minLength": 1, "maxLength": LABEL.limit},
        "title": {"type": "string", "maxLength": LABEL.limit},
        "rows": {
            "type": "array",
            "items": {"type": "string", "minLength": ROUNDS, "maxLength": MAX_CELLS},
            "minItems": ROUNDS,
            "maxItems": ROUNDS,
        },
        "arrows": {
            "type": "array",
            "items": {"type": "object", "properties": {"from": _CELL_SCHEMA, "to": _CELL_SCHEMA},
                      "required": ["from", "to"]},
        },
        "bonus": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": WORD.limit},
            "minItems": BONUS_FIELDS,
            "maxItems": BONUS_FIELDS,
        },
    },
    "required": ["side", "rows", "bonus"],
}


def write_deck(deck: tuple[LetterCard, ...]) -> list[str]:
    return [card.code for card in deck]


def write_card(card: LetterCard) -> str:
    return card.code
