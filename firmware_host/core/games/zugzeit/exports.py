"""Every name of Zugzeit, for `from firmware_host.core.games.zugzeit import …` (loaded at the first such name,
see the package)."""

from .record import CODEC, RULES, score_record
from .report import ZugzeitReport
from .rules import (
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

__all__ = [
    "CODEC",
    "IN",
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
    "new",
    "new_game",
    "score_record",
]
