"""The Quiddler deck as a value: every card face with its copies and printed value.

A face is one card: a single letter, or a double-letter card (QU IN ER CL TH) that is ONE card worth its
printed value and counts as two letters. The standard deck is the rulebook's 118 cards; the appliance
ships the same table as data (`firmware_host/data/quiddler/cards.toml`) so a different print can be
described there. `deck_from_table` is the single validation both paths use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from firmware_host.core.games.kit import CardDeck

from .errors import DeckError, UnknownCardError, Word
from .ids import GAME_ID

DECK_SIZE = 118
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card face: its letters, how many copies the deck has, its printed value."""

    face: str
    copies: int
    value: int

    @property
    def letters(self) -> int:
        return len(self.face)


@dataclass(frozen=True, slots=True)
class Deck:
    """A validated deck: card faces in the table's order. Build it with `deck_from_table`."""

    specs: tuple[CardSpec, ...]

    def spec(self, face: str) -> CardSpec:
        """The card `face`; raises `UnknownCardError` if the deck has no such card."""
        for spec in self.specs:
            if spec.face == face:
                return spec
        raise UnknownCardError("unknown_card", face=face)

    def has(self, face: str) -> bool:
        return any(spec.face == face for spec in self.specs)

    def value(self, face: str) -> int:
        return self.spec(face).value

    def copies(self, face: str) -> int:
        return self.spec(face).copies

    @property
    def multi_letter_faces(self) -> tuple[str, ...]:
        return tuple(spec.face for spec in self.specs if len(spec.face) > 1)

    @property
    def size(self) -> int:
        return sum(spec.copies for spec in self.specs)

    def cards(self) -> list[str]:
        """Every physical card, copies repeated, in the table's order (the unshuffled deck)."""
        return [spec.face for spec in self.specs for _ in range(spec.copies)]

    def to_table(self) -> dict[str, list[int]]:
        """The deck as `{face: [copies, value]}`, the form `deck_from_table` reads."""
        return {spec.face: [spec.copies, spec.value] for spec in self.specs}


def deck_from_table(table: Mapping[str, object]) -> Deck:
    """Validate `{face: [copies, value]}` or `{face: {"copies": n, "value": v}}` into a `Deck`.

    Rules: a face is one or two letters A–Z (upper case); copies and value are whole numbers ≥ 1;
    the copies add up to 118. Every problem is reported at once in one `DeckError`, naming the face.
    """
    problems: list[Word] = []
    specs: list[CardSpec] = []
    for face, entry in table.items():
        copies: object
        value: object
        if isinstance(entry, Mapping):
            copies, value = entry.get("copies"), entry.get("value")
        elif isinstance(entry, list | tuple) and len(entry) == 2:
            copies, value = entry
        else:
            problems.append(Word("deck_entry", face=face))
            continue
        if not (1 <= len(face) <= 2 and all(ch in ALPHABET for ch in face)):
            problems.append(Word("deck_face", face=face))
        if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
            problems.append(Word("deck_copies", face=face, copies=copies))
            copies = 0
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            problems.append(Word("deck_value", face=face, value=value))
            value = 0
        assert isinstance(copies, int) and isinstance(value, int)
        specs.append(CardSpec(face, copies, value))
    total = sum(spec.copies for spec in specs)
    if not problems and total != DECK_SIZE:
        problems.append(Word("deck_total", total=total, size=DECK_SIZE))
    if problems:
        raise DeckError(tuple(problems))
    return Deck(tuple(specs))


def _standard_table() -> dict[str, list[int]]:
    copies = {
        "A": 10, "B": 2, "C": 2, "D": 4, "E": 12, "F": 2, "G": 4, "H": 2, "I": 8, "J": 2, "K": 2, "L": 4,
        "M": 2, "N": 6, "O": 8, "P": 2, "Q": 2, "R": 6, "S": 4, "T": 6, "U": 6, "V": 2, "W": 2, "X": 2,
        "Y": 4, "Z": 2, "QU": 2, "IN": 2, "ER": 2, "CL": 2, "TH": 2,
    }  # fmt: skip
    by_value = {
        2: "A E I O", 3: "L S T", 4: "U Y", 5: "D M N R", 6: "F G P", 7: "H ER IN", 8: "B C K",
        9: "QU TH", 10: "W CL", 11: "V", 12: "X", 13: "J", 14: "Z", 15: "Q",
    }  # fmt: skip
    values = {face: value for value, faces in by_value.items() for face in faces.split()}
    return {face: [count, values[face]] for face, count in copies.items()}


# The rulebook's deck (RULES.md §2): copies from "Häufigkeit der Buchstaben", values as printed.
STANDARD_DECK = deck_from_table(_standard_table())


@cache
def card_decks() -> tuple[CardDeck, ...]:
    """The standard deck as the Deck mode and the card enrolment offer it (`GameKit.decks`)."""
    return (CardDeck(GAME_ID, {"de": "Quiddler", "en": "Quiddler"}, tuple(STANDARD_DECK.cards())),)
