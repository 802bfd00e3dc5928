"""The round's call from the piles of letter cards (RULES.md §1), for the Deck mode (`core.table.deck_mode`).

After card r is flipped onto the discard pile number side up, the draw pile shows the letter of card r+1
and the discard pile the number of card r: round r plays words starting with that letter, at most that
long. Pure; a missing card is a `deck.DeckRefusal`, never an exception.
"""

from __future__ import annotations

from firmware_host.core.deck import Deck, DeckRefusal, RefusalReason
from firmware_host.core.games.kit import RoundCall

from .data import LetterCard

__all__ = ["RoundCall", "letter_card", "perfektes_wort_call", "piles_call", "round_call"]


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


def piles_call(draw_top: str | None, discard_top: str | None, turned: int) -> RoundCall | DeckRefusal | None:
    """The call of piles of faces such as "B/7" (`kit.CardDeck.call`): no round before a card is turned,
    the last card when the draw pile is empty; None when a top face is not a letter card."""
    if discard_top is None:
        return DeckRefusal(RefusalReason.NO_ROUND)
    if draw_top is None:
        return DeckRefusal(RefusalReason.LAST_CARD)
    draw, discard = letter_card(draw_top), letter_card(discard_top)
    if draw is None or discard is None:
        return None
    return round_call(draw, discard, turned)


def letter_card(face: str) -> LetterCard | None:
    """The letter card a face such as "B/7" names; None when it is not one."""
    letter, slash, number = face.partition("/")
    if not slash or len(letter.strip()) != 1 or not number.strip().isdigit():
        return None
    return LetterCard(letter.strip().upper(), int(number))
