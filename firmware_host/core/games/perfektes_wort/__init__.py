"""Das perfekte Wort (RULES.md §1, rulings R1–R6): the pure rules core, its record and its table flow.

Drive a game event by event (`new_game`, `apply`), score it at any point (`score`), or score a whole
record (`score_record`, used by `wordtable score`; `RULES.replay` replays one). `KIT` is the game as the
appliance knows it (`games.registry`); `table.py` is its flow at the table. No I/O here: data files and
word lists are loaded by `firmware_host.games.perfektes_wort.data_files` and `firmware_host.dictionary`
and passed in as values.
"""

from firmware_host.core.games.kit import CardDeck, GameKit

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
from .record import CODEC, GAME_ID, RULES, score_record
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
from .table import TITLE, new

# The appliance's own 24 letter cards (ruling R2), their faces in the card-table notation "B/5".
DECK = CardDeck(GAME_ID, TITLE, tuple(card.face for card in DEFAULT_DATA.deck))
KIT = GameKit(GAME_ID, TITLE, new, score_record, (DECK,), (KEPT_NAME,), rules=RULES)

__all__ = [
    "CODEC",
    "DECK",
    "KIT",
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
    "new_game",
    "pending",
    "score",
    "score_record",
    "shortenings",
    "unknown_words",
]
