"""Quiddler at the table: the scored game (`KIT`) and the solitaire practice mode (`SOLITAIRE_KIT`)."""

from __future__ import annotations

from firmware_host.core.games import quiddler as q
from firmware_host.core.games.kit import CardDeck, GameKit

from .flow import GAME_ID, QuiddlerFlow, new_flow
from .solitaire import GAME_ID as SOLITAIRE_ID
from .solitaire import SolitaireFlow, new_solitaire_flow
from .text import TEXT

TITLE = {lang: texts["title"] for lang, texts in TEXT.items()}
DECK = CardDeck(GAME_ID, {"de": "Quiddler", "en": "Quiddler"}, tuple(q.STANDARD_DECK.cards()))
KIT = GameKit(GAME_ID, TITLE, new_flow, q.score_record, (DECK,))
SOLITAIRE_KIT = GameKit(SOLITAIRE_ID, {lang: texts["solitaire"] for lang, texts in TEXT.items()}, new_solitaire_flow)

__all__ = ["KIT", "SOLITAIRE_KIT", "QuiddlerFlow", "SolitaireFlow"]
