"""The games kept in the journal that have a record to score: what `wordtable journal` lists and exports and
what the table page's past games show (both read the journal read-only)."""

from __future__ import annotations

from firmware_host.core.games import registry
from firmware_host.journal import GameSummary


def recorded(games: list[GameSummary]) -> list[GameSummary]:
    """The games that keep a record, in the given order: the box's own session log (and any mode without a
    record) left out."""
    kinds = set(registry.record_games())
    return [game for game in games if game.game in kinds]
