"""Das perfekte Wort's physical deck, as the Deck mode and the card enrolment offer it (`GameKit.decks`)."""

from __future__ import annotations

from functools import cache

from firmware_host.core.games.kit import CardDeck

from .data import card_from_code
from .defaults import DEFAULT_DATA
from .errors import DataError
from .ids import GAME_ID, TITLE
from .round_call import piles_call


@cache
def card_decks() -> tuple[CardDeck, ...]:
    """The appliance's own 24 letter cards (ruling R2), their faces in the card-table notation "B/5"; their
    piles call the round."""
    return (CardDeck(GAME_ID, TITLE, tuple(card.face for card in DEFAULT_DATA.deck), piles_call, other_card),)


def other_card(face: str) -> str | None:
    """A letter card of a physical deck that the shipped deck has no copy of ("K/4", "Q/10": any letter,
    any length a row may hold), as its face; None when `face` is no letter card or one the shipped deck has
    (its copies are the deck's own: one enrolled already is not enrolled twice)."""
    letter, slash, length = face.strip().partition("/")
    try:
        card = card_from_code(f"{letter}{length}", "face") if slash else None
    except DataError:
        return None
    if card is None or card.face in card_decks()[0].faces:
        return None
    return card.face
