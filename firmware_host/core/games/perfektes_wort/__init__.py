"""Das perfekte Wort (RULES.md §1, rulings R1–R6): the pure rules core.

Drive a game event by event (`new_game`, `apply`), score it at any point (`score`), or score a whole
record (`score_record`, used by `wordtable score`). No I/O here: data files and word lists are loaded
by `firmware_host.perfektes_wort_data` and `firmware_host.dictionary` and passed in as values.
"""

from .data import Arrow, Cell, GameData, LetterCard, PointsFace, Sheet
from .errors import (
    BadLetters,
    DataError,
    EntryError,
    FieldError,
    RoundError,
    RuleError,
    SetupError,
    TooLong,
    UnknownPlayer,
    Unresolved,
    WrongStartingLetter,
)
from .fields import FieldMark, Mark
from .game import (
    Card,
    Correct,
    Game,
    Reveal,
    Setup,
    Shorten,
    SoloStrike,
    Strike,
    TableEvent,
    Verdict,
    Word,
    apply,
    field_marks,
    new_game,
    pending,
    unknown_words,
)
from .lexicon import Lexicon, shortenings
from .record import game_from_record, score_record
from .report import Report
from .scoring import PlayerResult, Result, RowScore, score

__all__ = [
    "Arrow",
    "BadLetters",
    "Card",
    "Cell",
    "Correct",
    "DataError",
    "EntryError",
    "FieldError",
    "FieldMark",
    "Game",
    "GameData",
    "LetterCard",
    "Lexicon",
    "Mark",
    "PlayerResult",
    "PointsFace",
    "Report",
    "Result",
    "Reveal",
    "RoundError",
    "RowScore",
    "RuleError",
    "Setup",
    "SetupError",
    "Sheet",
    "Shorten",
    "SoloStrike",
    "Strike",
    "TableEvent",
    "TooLong",
    "UnknownPlayer",
    "Unresolved",
    "Verdict",
    "Word",
    "WrongStartingLetter",
    "apply",
    "field_marks",
    "game_from_record",
    "new_game",
    "pending",
    "score",
    "score_record",
    "shortenings",
    "unknown_words",
]
