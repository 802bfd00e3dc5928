"""The games the menu offers, in menu order. Each table module exposes `ENTRY: GameEntry`."""

from __future__ import annotations

from firmware_host.core.flow import GameEntry
from firmware_host.core.table import (
    deck_mode,
    enrol_cards,
    knack_das_wort,
    perfect_words,
    perfektes_wort,
    quiddler,
)

GAMES: tuple[GameEntry, ...] = (
    perfektes_wort.ENTRY,  # the main game
    quiddler.ENTRY,
    perfect_words.ENTRY,
    knack_das_wort.ENTRY,
    quiddler.SOLITAIRE_ENTRY,
    deck_mode.ENTRY,  # the Deck: button deck or physical cards on the readers
    enrol_cards.ENTRY,  # enrolment of card tables
)


def entry(game: str) -> GameEntry | None:
    return next((g for g in GAMES if g.game == game), None)
