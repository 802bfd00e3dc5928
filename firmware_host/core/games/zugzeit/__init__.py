"""Zugzeit, the turn timer (a chess clock for 2–8 players): the rules of its record (`rules`), the record
(`record`), the statistics report (`report`), the table flow (`table`), the turn being timed (`clock`) and
its texts (`text`); `KIT` is its entry in the registry."""

from firmware_host.core.games.kit import GameKit

from .record import CODEC, RULES, score_record
from .report import ZugzeitReport
from .rules import (
    GAME_ID,
    IN,
    LEFT,
    MODES,
    OUT,
    End,
    Event,
    Game,
    PlayerStats,
    Remove,
    Reverse,
    Setup,
    Skip,
    Turn,
    ZugzeitError,
    apply,
    new_game,
)
from .table import ZugzeitFlow, new
from .text import TITLE

KIT = GameKit(GAME_ID, TITLE, new, score_record, rules=RULES)

__all__ = [
    "CODEC",
    "GAME_ID",
    "IN",
    "KIT",
    "LEFT",
    "MODES",
    "OUT",
    "RULES",
    "End",
    "Event",
    "Game",
    "PlayerStats",
    "Remove",
    "Reverse",
    "Setup",
    "Skip",
    "Turn",
    "ZugzeitError",
    "ZugzeitFlow",
    "ZugzeitReport",
    "apply",
    "new_game",
    "score_record",
]
