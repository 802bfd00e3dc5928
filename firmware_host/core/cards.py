"""Card tables (which tag or printed code is which card face) and the enrolment state machine. Pure.

A card face is a string naming what is printed on the card in its game's own notation (Das perfekte
Wort: `"B/7"` — see `games.perfektes_wort.data.LetterCard`; Quiddler: `"QU"`). Several physical cards may share a face
(Quiddler has ten A cards), so a game's faces are a list with repeats; one card may carry two codes (a
printed code on each side), both mapping to the same face.

Enrolment walks the faces still to enrol: the selected face is shown, the table turns the encoder (or
types the face) to pick another, and the next scanned card gets the selected face. A code that is already
enrolled is refused with the face it has; `done` when every face has a card; `table()` gives the result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from firmware_host.core.i18n import pick

_TEXT = {
    "de": {
        "progress": "{done} von {total}",
        "duplicate": "Diese Karte ist schon eingelesen: {face}.",
        "complete": "Alle Karten sind eingelesen.",
        "no-such-face": "Keine Karte „{face}“ mehr offen.",
        "empty-code": "Leerer Code.",
        "nothing-to-undo": "Noch keine Karte eingelesen.",
        "unknown-card": "Unbekannte Karte ({code}).",
    },
    "en": {
        "progress": "{done} of {total}",
        "duplicate": "This card is already enrolled: {face}.",
        "complete": "All cards are enrolled.",
        "no-such-face": "No card “{face}” left to enrol.",
        "empty-code": "Empty code.",
        "nothing-to-undo": "No card enrolled yet.",
        "unknown-card": "Unknown card ({code}).",
    },
}


@dataclass(frozen=True, slots=True)
class KnownCard:
    code: str
    face: str


@dataclass(frozen=True, slots=True)
class UnknownCard:
    """A scanned code that is not in the table: the core shows `text(lang)` and beeps; nothing changes."""

    code: str

    def text(self, lang: str) -> str:
        return pick(_TEXT, lang, "unknown-card", code=self.code)


@dataclass(frozen=True, slots=True)
class CardTable:
    """`faces` maps code → face for one game. Treat it as read-only."""

    game: str
    faces: Mapping[str, str] = field(default_factory=dict)

    def lookup(self, code: str) -> KnownCard | UnknownCard:
        face = self.faces.get(code.strip())
        return UnknownCard(code) if face is None else KnownCard(code.strip(), face)

    def __len__(self) -> int:
        return len(self.faces)


# Printed codes (labels for scanners): Code 39-safe, `<game prefix><card number, 3 digits><side>`.
CODE_PREFIXES = {"perfektes-wort": "PW", "quiddler": "QD", "perfect-words": "PX", "knack-das-wort": "KW"}
# Cards read on both faces by scanners fixed over the piles: Das perfekte Wort's letter and number sides.
TWO_SIDED = {"perfektes-wort": ("L", "N")}


@dataclass(frozen=True, slots=True)
class PrintedCode:
    """One label: `code` goes on side `side` ("" for single-sided games) of the card with `face`."""

    code: str
    face: str
    side: str
    number: int  # 1-based position of the card in the face list


def printed_codes(game: str, faces: Iterable[str]) -> list[PrintedCode]:
    """The label codes for a game's cards, in face-list order; every side of a card gets its own code."""
    prefix = CODE_PREFIXES.get(game, "WT")
    sides = TWO_SIDED.get(game, ("",))
    return [
        PrintedCode(f"{prefix}{number:03d}{side}", face, side, number)
        for number, face in enumerate(faces, start=1)
        for side in sides
    ]


def printed_table(game: str, faces: Iterable[str]) -> CardTable:
    """The card table of labels made by `printed_codes`: no enrolment needed for printed codes."""
    return CardTable(game, {label.code: label.face for label in printed_codes(game, faces)})


class Refusal(StrEnum):
    DUPLICATE = "duplicate"
    COMPLETE = "complete"
    NO_SUCH_FACE = "no-such-face"
    EMPTY_CODE = "empty-code"
    NOTHING_TO_UNDO = "nothing-to-undo"


@dataclass(frozen=True, slots=True)
class Assigned:
    """A card was enrolled (or, after `undo`, un-enrolled: `undone`)."""

    code: str
    face: str
    undone: bool = False


@dataclass(frozen=True, slots=True)
class Refused:
    reason: Refusal
    code: str = ""
    face: str = ""

    def text(self, lang: str) -> str:
        return pick(_TEXT, lang, self.reason.value, code=self.code, face=self.face)


@dataclass(frozen=True, slots=True)
class Selected:
    face: str


Feedback = Assigned | Refused | Selected


@dataclass(frozen=True, slots=True)
class Enrolment:
    """An enrolment session for `game`. `pending`: faces still without a card, in deck order."""

    game: str
    pending: tuple[str, ...]
    enrolled: tuple[tuple[str, str], ...] = ()  # (code, face) in the order scanned
    cursor: int = 0  # index into pending of the selected face

    @classmethod
    def start(cls, game: str, faces: Iterable[str]) -> Enrolment:
        return cls(game=game, pending=tuple(faces))

    @property
    def total(self) -> int:
        return len(self.pending) + len(self.enrolled)

    @property
    def count(self) -> int:
        return len(self.enrolled)

    @property
    def done(self) -> bool:
        return not self.pending

    @property
    def selected(self) -> str | None:
        return self.pending[self.cursor] if self.pending else None

    def progress(self, lang: str) -> str:
        """"17 von 24"."""
        return pick(_TEXT, lang, "progress", done=self.count, total=self.total)

    def turn(self, steps: int) -> tuple[Enrolment, Feedback]:
        """Move the selection among the distinct pending faces (encoder detents; wraps around)."""
        if not self.pending:
            return self, Refused(Refusal.COMPLETE)
        distinct = list(dict.fromkeys(self.pending))
        at = distinct.index(self.pending[self.cursor])
        face = distinct[(at + steps) % len(distinct)]
        return self._replace_cursor(self.pending.index(face)), Selected(face)

    def choose(self, face: str, other: Callable[[str], str | None] | None = None) -> tuple[Enrolment, Feedback]:
        """Select a face by name (typed on the keyboard; case and blanks ignored). A face none of the
        pending cards has that `other` takes (a physical deck's own card: its face, else None) is added as
        one more card to enrol and selected."""
        wanted = face.strip().casefold()
        for index, candidate in enumerate(self.pending):
            if candidate.casefold() == wanted:
                return self._replace_cursor(index), Selected(candidate)
        extra = other(face) if other is not None else None
        if extra is not None:
            return replace(self, pending=(*self.pending, extra), cursor=len(self.pending)), Selected(extra)
        return self, Refused(Refusal.NO_SUCH_FACE, face=face.strip())

    def scan(self, code: str) -> tuple[Enrolment, Feedback]:
        """Give the selected face to the scanned card."""
        code = code.strip()
        if not code:
            return self, Refused(Refusal.EMPTY_CODE)
        for known, face in self.enrolled:
            if known == code:
                return self, Refused(Refusal.DUPLICATE, code=code, face=face)
        if not self.pending:
            return self, Refused(Refusal.COMPLETE, code=code)
        face = self.pending[self.cursor]
        pending = self.pending[: self.cursor] + self.pending[self.cursor + 1 :]
        cursor = min(self.cursor, max(len(pending) - 1, 0))
        # Stay on the same face while copies of it are left, else move on to the next face in order.
        if face in pending:
            cursor = pending.index(face)
        state = Enrolment(self.game, pending, (*self.enrolled, (code, face)), cursor)
        return state, Assigned(code, face)

    def undo(self) -> tuple[Enrolment, Feedback]:
        """Take back the last enrolled card; its face becomes selected again."""
        if not self.enrolled:
            return self, Refused(Refusal.NOTHING_TO_UNDO)
        code, face = self.enrolled[-1]
        state = Enrolment(self.game, (face, *self.pending), self.enrolled[:-1], 0)
        return state, Assigned(code, face, undone=True)

    def table(self) -> CardTable:
        return CardTable(self.game, dict(self.enrolled))

    def _replace_cursor(self, cursor: int) -> Enrolment:
        return Enrolment(self.game, self.pending, self.enrolled, cursor)


# --- card tables as kept items (`effects.Keep`, `events.Kept`) -------------------------------------

CARDTABLE_VERSION = 1
KEPT_PREFIX = "cards/"


def kept_name(game: str) -> str:
    """The name a game's enrolled table is kept under: `cards/<game>`."""
    return f"{KEPT_PREFIX}{game}"


def table_data(table: CardTable) -> dict[str, object]:
    """The kept (and on-disk) form: {"cardtable": 1, "game": ..., "cards": {code: face}}."""
    return {"cardtable": CARDTABLE_VERSION, "game": table.game, "cards": dict(table.faces)}


def table_from_data(data: object) -> CardTable:
    """The card table `table_data` wrote. Raises ValueError naming the key that is wrong."""
    if not isinstance(data, dict):
        raise ValueError("must hold a table with keys cardtable, game, cards")
    if data.get("cardtable") != CARDTABLE_VERSION:
        raise ValueError(f"cardtable: version {data.get('cardtable')!r} is not {CARDTABLE_VERSION}")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise ValueError("game: must be a game id such as perfektes-wort")
    cards = data.get("cards")
    if not isinstance(cards, dict):
        raise ValueError("cards: must map each code to its card face")
    for code, face in cards.items():
        if not code.strip() or not isinstance(face, str) or not face.strip():
            raise ValueError(f"cards.{code}: code and face must be non-empty texts, got {face!r}")
    return CardTable(game, {code.strip(): face.strip() for code, face in cards.items()})


def kept_tables(kept: Mapping[str, object]) -> dict[str, Mapping[str, str]]:
    """The enrolled tables among the kept items: game id -> {code: face} (a malformed item is left out)."""
    tables: dict[str, Mapping[str, str]] = {}
    for name, data in kept.items():
        if name.startswith(KEPT_PREFIX):
            try:
                table = table_from_data(data)
            except ValueError:
                continue
            if kept_name(table.game) == name:
                tables[table.game] = table.faces
    return tables
