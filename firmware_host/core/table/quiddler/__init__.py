"""Quiddler at the table: the scored game (`ENTRY`) and the solitaire practice mode (`SOLITAIRE_ENTRY`)."""

from __future__ import annotations

from firmware_host.core.flow import GameEntry

from .flow import GAME_ID, QuiddlerFlow, new_flow
from .solitaire import GAME_ID as SOLITAIRE_ID
from .solitaire import SolitaireFlow, new_solitaire_flow
from .text import TEXT

ENTRY = GameEntry(GAME_ID, {lang: texts["title"] for lang, texts in TEXT.items()}, new_flow)
SOLITAIRE_ENTRY = GameEntry(
    SOLITAIRE_ID, {lang: texts["solitaire"] for lang, texts in TEXT.items()}, new_solitaire_flow
)

__all__ = ["ENTRY", "SOLITAIRE_ENTRY", "QuiddlerFlow", "SolitaireFlow"]
