"""Knack das Wort (RULES.md §4, ruling K1): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`); `KIT` is its entry in the registry."""

from firmware_host.core.games.kit import GameKit

from .record import CODEC, RULES, score_record
from .report import KnackReport
from .rules import (
    END_REASONS,
    GAME_ID,
    MIN_PLAYERS,
    OUT_BONUS,
    STOP,
    TARGET,
    CardsLeft,
    Draw,
    Entry,
    Event,
    Game,
    GameOverError,
    GoOut,
    KnackError,
    PlayAction,
    PlayerScore,
    ReportEnd,
    Setup,
    Standings,
    TurnError,
    WriteWord,
    apply,
    end_reason,
    letter_count,
    new_game,
    score,
)
from .table import KnackFlow, new
from .text import TITLE

KIT = GameKit(GAME_ID, TITLE, new, score_record, rules=RULES)

__all__ = [
    "CODEC",
    "END_REASONS",
    "GAME_ID",
    "KIT",
    "MIN_PLAYERS",
    "OUT_BONUS",
    "RULES",
    "STOP",
    "TARGET",
    "CardsLeft",
    "Draw",
    "Entry",
    "Event",
    "Game",
    "GameOverError",
    "GoOut",
    "KnackError",
    "KnackFlow",
    "KnackReport",
    "PlayAction",
    "PlayerScore",
    "ReportEnd",
    "Setup",
    "Standings",
    "TurnError",
    "WriteWord",
    "apply",
    "end_reason",
    "letter_count",
    "new_game",
    "score",
    "score_record",
]
