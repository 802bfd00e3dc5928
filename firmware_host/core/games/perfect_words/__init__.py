"""Perfect Words (RULES.md §3, rulings P1–P3): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`); `KIT` is its entry in the registry."""

from firmware_host.core.games.kit import GameKit

from .record import CODEC, RULES, score_record
from .report import PerfectWordsReport
from .rules import (
    ARROWS,
    GAME_ID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TEXTS,
    ArrowScore,
    Choose,
    ClueWarning,
    Event,
    Game,
    GridStatus,
    Group,
    Merge,
    PerfectWordsError,
    PlaceArrow,
    Rank,
    Reveal,
    SetClues,
    Setup,
    Standing,
    Strike,
    Term,
    WriteTerm,
    apply,
    arrow_points,
    clue_warnings,
    grid_status,
    new_game,
    normalise,
    rank_for,
    score,
    shared_letters,
    term_warnings,
)
from .table import PerfectWordsFlow, new
from .text import TITLE

KIT = GameKit(GAME_ID, TITLE, new, score_record)

__all__ = [
    "ARROWS", "CODEC", "GAME_ID", "KIT", "MAX_PLAYERS", "MIN_PLAYERS", "RULES", "TEXTS", "ArrowScore", "Choose",
    "ClueWarning", "Event", "Game", "GridStatus", "Group", "Merge", "PerfectWordsError", "PerfectWordsFlow",
    "PerfectWordsReport", "PlaceArrow", "Rank", "Reveal", "SetClues", "Setup", "Standing", "Strike", "Term",
    "WriteTerm", "apply", "arrow_points", "clue_warnings", "grid_status", "new_game", "normalise", "rank_for",
    "score", "score_record", "shared_letters", "term_warnings",
]
