"""The games the menu offers, in menu order. Each table module exposes `ENTRY: GameEntry`."""

from __future__ import annotations

from firmware_host.core.flow import GameEntry
from firmware_host.core.table.quiddler import ENTRY as QUIDDLER
from firmware_host.core.table.quiddler import SOLITAIRE_ENTRY as QUIDDLER_SOLITAIRE

GAMES: tuple[GameEntry, ...] = (QUIDDLER, QUIDDLER_SOLITAIRE)


def entry(game: str) -> GameEntry | None:
    return next((g for g in GAMES if g.game == game), None)
