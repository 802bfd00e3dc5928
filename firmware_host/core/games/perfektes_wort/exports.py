"""Every name of the game, for `from firmware_host.core.games.perfektes_wort import …` (loaded at the first such
name, see the package)."""

from .data import Arrow, Cell, GameData, LetterCard, PointsFace, Sheet
from .defaults import DEFAULT_DATA
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
from .highscores import KEPT_NAME
from .lexicon import Lexicon, shortenings
from .record import CODEC, RULES, score_record
from .report import Report
from .rules import (
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
from .scoring import PlayerResult, Result, RowScore, score
from .table import new

__all__ = [
    "CODEC",
    "DEFAULT_DATA",
    "KEPT_NAME",
    "RULES",
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
    "new",
    "new_game",
    "pending",
    "score",
    "score_record",
    "shortenings",
    "unknown_words",
]
