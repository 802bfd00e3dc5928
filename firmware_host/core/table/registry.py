"""The games the menu offers, in menu order. Each table module exposes `ENTRY: GameEntry`."""

from __future__ import annotations

from firmware_host.core.flow import GameEntry
from firmware_host.core.table import knack_das_wort, perfect_words, perfektes_wort

GAMES: tuple[GameEntry, ...] = (perfektes_wort.ENTRY, perfect_words.ENTRY, knack_das_wort.ENTRY)


def entry(game: str) -> GameEntry | None:
    return next((g for g in GAMES if g.game == game), None)
