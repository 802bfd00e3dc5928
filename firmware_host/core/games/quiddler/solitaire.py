"""Quiddler solitaire: 8 piles of 5 face-down cards with one face-up card on each (48 cards).

Layout: the whole deck is shuffled with `random.Random(seed)`; pile p (0–7) gets shuffled cards
6p … 6p+5, bottom to top, and its top card (the last) is face up. A move takes a word from the visible
cards, given as the piles in the word's order (each pile at most once: only its top card is visible);
the next card of each used pile is turned up. Refill rule: while a pile is empty and another pile still
has a face-down card, the top face-down card of the pile with the most cards (the lowest pile number on a
tie) is laid face up on the empty place, the lowest-numbered empty pile first. Then 8 cards are visible
again, or every card left is visible. The game is won when all 48 cards have gone into words. Whether
a word is allowed is the table's call, as in the card game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .deck import STANDARD_DECK, Deck
from .errors import ShortWordError, SolitaireError

PILES = 8
PILE_CARDS = 6  # 5 face down + 1 face up
LAYOUT_CARDS = PILES * PILE_CARDS


@dataclass(frozen=True, slots=True)
class Solitaire:
    """Piles bottom to top (the last card is the face-up one) and the words taken so far."""

    piles: tuple[tuple[str, ...], ...]
    words: tuple[tuple[str, ...], ...] = ()

    @property
    def visible(self) -> tuple[str | None, ...]:
        """The face-up card of each pile, None for an empty pile."""
        return tuple(pile[-1] if pile else None for pile in self.piles)

    @property
    def cards_left(self) -> int:
        return sum(len(pile) for pile in self.piles)

    @property
    def won(self) -> bool:
        return self.cards_left == 0


def new_solitaire(seed: int | str, deck: Deck = STANDARD_DECK) -> Solitaire:
    """The layout for `seed`: the same seed always gives the same piles."""
    cards = deck.cards()
    random.Random(seed).shuffle(cards)
    return Solitaire(tuple(tuple(cards[p * PILE_CARDS : (p + 1) * PILE_CARDS]) for p in range(PILES)))


def take_word(state: Solitaire, piles: Sequence[int]) -> Solitaire:
    """Take the word made of the top cards of `piles` (in word order), turn up and refill as documented."""
    order = list(piles)
    if len(order) < 2:
        raise ShortWordError("solo_short", count=len(order))
    for pile in order:
        if not 0 <= pile < PILES:
            raise SolitaireError("no_pile", pile=pile, last=PILES - 1)
        if not state.piles[pile]:
            raise SolitaireError("empty_pile", pile=pile)
        if order.count(pile) > 1:
            raise SolitaireError("pile_twice", pile=pile)
    word = tuple(state.piles[pile][-1] for pile in order)
    taken = [list(pile[:-1]) if index in order else list(pile) for index, pile in enumerate(state.piles)]
    _refill(taken)
    return Solitaire(tuple(tuple(pile) for pile in taken), (*state.words, word))


def _refill(piles: list[list[str]]) -> None:
    for target in range(PILES):
        if piles[target]:
            continue
        source = max(range(PILES), key=lambda p: (len(piles[p]), -p))
        if len(piles[source]) < 2:
            return  # no face-down card left anywhere
        piles[target] = [piles[source].pop(-2)]
