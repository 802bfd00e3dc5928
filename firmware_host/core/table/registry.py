"""The games the menu offers, in menu order. Each table module exposes `ENTRY: GameEntry`."""

from __future__ import annotations

from firmware_host.core.flow import GameEntry
from firmware_host.core.table import deck_mode as _deck_mode
from firmware_host.core.table import enrol_cards as _enrol_cards

GAMES: tuple[GameEntry, ...] = (
    _deck_mode.ENTRY,  # flow-deck: the Deck mode (button deck / physical cards)
    _enrol_cards.ENTRY,  # flow-deck: enrolment of card tables
)


def entry(game: str) -> GameEntry | None:
    return next((g for g in GAMES if g.game == game), None)
