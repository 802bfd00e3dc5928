"""The physical card decks, as the enrolment mode and the Deck mode use them.

A face is written in its game's notation (`core.cards`): Das perfekte Wort's letter cards as
`"LETTER/NUMBER"` (`"B/7"`), Quiddler's cards as their
letters (`"QU"`). Which decks there are is each game kit's `decks` (`core.games.registry`); Perfect Words
and Knack das Wort have no card data yet, so they offer none.
"""

from __future__ import annotations

from collections.abc import Mapping

from firmware_host.core.cards import CardTable, KnownCard, UnknownCard, printed_table
from firmware_host.core.games.kit import CardDeck


def card_lookup(deck: CardDeck, cards: Mapping[str, Mapping[str, str]], code: str) -> KnownCard | UnknownCard:
    """A scanned code's face: from the enrolled table of the game, else from the printed labels' codes
    (`cards.printed_codes`, which need no enrolment)."""
    enrolled = CardTable(deck.game, cards.get(deck.game, {})).lookup(code)
    if isinstance(enrolled, KnownCard):
        return enrolled
    return printed_table(deck.game, deck.faces).lookup(code)
