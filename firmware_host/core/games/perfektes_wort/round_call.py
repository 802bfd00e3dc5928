"""The round's call from the piles of letter cards (RULES.md §1), for the Deck mode (`core.table.deck_mode`).

After card r is flipped onto the discard pile number side up, the draw pile shows the letter of card r+1
and the discard pile the number of card r: round r plays words starting with that letter, at most that
long. Pure; a missing card is a `deck.DeckRefusal`, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.core.deck import Deck, DeckRefusal, RefusalReason

from .data import LetterCard


@dataclass(frozen=True, slots=True)
class RoundCall:
    """What the table plays in round `round`: words starting with `letter`, at most `max_length` long."""

    round: int
    letter: str
    max_length: int


def round_call(draw_top: LetterCard, discard_top: LetterCard, round_number: int) -> RoundCall:
    """The call from what the piles show: the letter on the draw pile, the length on the discard pile."""
    return RoundCall(round=round_number, letter=draw_top.letter, max_length=discard_top.length)


def perfektes_wort_call(deck: Deck[LetterCard]) -> RoundCall | DeckRefusal:
    """The current round of Das perfekte Wort: round r after r cards were turned."""
    if deck.discard_top is None:
        return DeckRefusal(RefusalReason.NO_ROUND)
    if deck.draw_top is None:
        return DeckRefusal(RefusalReason.LAST_CARD)
    return round_call(deck.draw_top, deck.discard_top, deck.turned)
