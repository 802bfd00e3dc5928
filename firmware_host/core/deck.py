"""The appliance's own card deck (the button deck): a seeded shuffle, a draw pile and a discard pile.

Pure: the seed is chosen by the shell and recorded in the game record; `random.Random(seed)` makes the
same seed give the same order on every machine, so a game replays exactly. Every operation returns a new
`Deck`, or a `DeckRefusal` explaining why it cannot be done (empty pile, nothing to undo) — never raises.
Das perfekte Wort's round call from the piles is `games.perfektes_wort.round_call`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from firmware_host.core.i18n import pick

Face = TypeVar("Face", bound=Hashable)

_TEXT = {
    "de": {
        "empty": "Der Nachziehstapel ist leer.",
        "nothing-to-undo": "Es wurde noch keine Karte aufgedeckt.",
        "no-round": "Noch keine Runde: erst eine Karte aufdecken.",
        "last-card": "Der Nachziehstapel ist leer: kein Anfangsbuchstabe.",
    },
    "en": {
        "empty": "The draw pile is empty.",
        "nothing-to-undo": "No card has been turned yet.",
        "no-round": "No round yet: turn a card first.",
        "last-card": "The draw pile is empty: no starting letter.",
    },
}


class RefusalReason(StrEnum):
    EMPTY = "empty"
    NOTHING_TO_UNDO = "nothing-to-undo"
    NO_ROUND = "no-round"
    LAST_CARD = "last-card"


@dataclass(frozen=True, slots=True)
class DeckRefusal:
    """Why a deck operation was refused; `text(lang)` is the message for the screen."""

    reason: RefusalReason

    def text(self, lang: str) -> str:
        return pick(_TEXT, lang, self.reason.value)


@dataclass(frozen=True, slots=True)
class Deck(Generic[Face]):
    """`draw` is the draw pile top first; `discard` is the discard pile bottom first (last = top)."""

    seed: int
    draw: tuple[Face, ...]
    discard: tuple[Face, ...] = ()

    @classmethod
    def shuffled(cls, faces: Iterable[Face], seed: int) -> Deck[Face]:
        """A fresh deck of `faces` shuffled by `random.Random(seed)`: same faces and seed, same order."""
        cards = list(faces)
        random.Random(seed).shuffle(cards)
        return cls(seed=seed, draw=tuple(cards))

    @property
    def draw_top(self) -> Face | None:
        return self.draw[0] if self.draw else None

    @property
    def discard_top(self) -> Face | None:
        return self.discard[-1] if self.discard else None

    @property
    def left(self) -> int:
        """Cards left on the draw pile."""
        return len(self.draw)

    @property
    def turned(self) -> int:
        """Cards on the discard pile."""
        return len(self.discard)

    def next(self) -> Deck[Face] | DeckRefusal:
        """NEXT: turn the top card of the draw pile onto the discard pile."""
        if not self.draw:
            return DeckRefusal(RefusalReason.EMPTY)
        return Deck(self.seed, self.draw[1:], (*self.discard, self.draw[0]))

    def undo(self) -> Deck[Face] | DeckRefusal:
        """Put the top card of the discard pile back on top of the draw pile."""
        if not self.discard:
            return DeckRefusal(RefusalReason.NOTHING_TO_UNDO)
        return Deck(self.seed, (self.discard[-1], *self.draw), self.discard[:-1])


class Pile(StrEnum):
    DRAW = "draw"
    DISCARD = "discard"


@dataclass(frozen=True, slots=True)
class TablePiles(Generic[Face]):
    """Physical cards: the faces the readers last reported on top of each pile.

    A reader with a fixed pile (config role draw/discard) calls `show(pile, face)`; a single tap reader
    (role choose) calls `show(piles.chosen, face)`, and a button flips `chosen` with `toggle()`.
    A face shown on the discard pile that differs from its previous top counts as one more turned card.
    """

    draw_top: Face | None = None
    discard_top: Face | None = None
    turned: int = 0
    chosen: Pile = Pile.DRAW

    def show(self, pile: Pile, face: Face) -> TablePiles[Face]:
        if pile is Pile.DRAW:
            return TablePiles(face, self.discard_top, self.turned, self.chosen)
        turned = self.turned + (face != self.discard_top)
        return TablePiles(self.draw_top, face, turned, self.chosen)

    def toggle(self) -> TablePiles[Face]:
        other = Pile.DISCARD if self.chosen is Pile.DRAW else Pile.DRAW
        return TablePiles(self.draw_top, self.discard_top, self.turned, other)
