"""Das perfekte Wort's physical deck, as the Deck mode and the card enrolment offer it (`GameKit.decks`)."""

from __future__ import annotations

from functools import cache

from firmware_host.core.games.kit import CardDeck

from .defaults import DEFAULT_DATA
from .ids import GAME_ID, TITLE
from .round_call import piles_call


@cache
def card_decks() -> tuple[CardDeck, ...]:
    """The appliance's own 24 letter cards (ruling R2), their faces in the card-table notation "B/5"; their
    piles call the round."""
    return (CardDeck(GAME_ID, TITLE, tuple(card.face for card in DEFAULT_DATA.deck), piles_call),)
