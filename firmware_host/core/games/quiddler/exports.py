"""Every name of the game, for `from firmware_host.core.games.quiddler import …` (loaded at the first such
name, see the package)."""

from .deck import DECK_SIZE, STANDARD_DECK, CardSpec, Deck, deck_from_table
from .errors import (
    CardCountError,
    ChallengeError,
    DeckError,
    GoingOutError,
    HandSizeError,
    NotationError,
    RuleError,
    SequenceError,
    SetupError,
    ShortWordError,
    SolitaireError,
    UnknownCardError,
    UnknownPlayerError,
)
from .notation import format_cards, parse_cards
from .record import CODEC, RULES, score_record
from .report import QuiddlerReport
from .rules import (
    ROUNDS,
    Game,
    OpenRound,
    RoundPlan,
    Setup,
    challenge,
    end_round,
    lay_down,
    new_game,
    round_plan,
    start_round,
)
from .scoring import Bonus, Challenge, Lay, PlayerRound, RoundScore, ScoredWord, score_round
from .solitaire import Solitaire, new_solitaire, take_word
from .solitaire_table import SolitaireFlow, new_solitaire_flow
from .table import QuiddlerFlow, new_flow
from .text import TEXT

__all__ = [
    "CODEC",
    "DECK_SIZE",
    "ROUNDS",
    "RULES",
    "STANDARD_DECK",
    "TEXT",
    "Bonus",
    "CardCountError",
    "CardSpec",
    "Challenge",
    "ChallengeError",
    "Deck",
    "DeckError",
    "Game",
    "GoingOutError",
    "HandSizeError",
    "Lay",
    "NotationError",
    "OpenRound",
    "PlayerRound",
    "QuiddlerFlow",
    "QuiddlerReport",
    "RoundPlan",
    "RoundScore",
    "RuleError",
    "ScoredWord",
    "SequenceError",
    "Setup",
    "SetupError",
    "ShortWordError",
    "Solitaire",
    "SolitaireError",
    "SolitaireFlow",
    "UnknownCardError",
    "UnknownPlayerError",
    "challenge",
    "deck_from_table",
    "end_round",
    "format_cards",
    "lay_down",
    "new_flow",
    "new_game",
    "new_solitaire",
    "new_solitaire_flow",
    "parse_cards",
    "round_plan",
    "score_record",
    "score_round",
    "start_round",
    "take_word",
]
