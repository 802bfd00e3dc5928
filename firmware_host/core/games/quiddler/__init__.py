"""Quiddler (RULES.md §2, rulings Q1–Q6): the pure rules core.

Drive a game event by event (each call returns a new `Game` or raises a `RuleError`):
    game = new_game(["Ann", "Bea", "Cem"], dealer="Ann")   # game.next_round: who deals how many
    game = start_round(game)                                # game.current.plan
    game = lay_down(game, "Bea", [("QU", "I", "T")], unused=(), went_out=True)
    game = challenge(game, "Ann", "Bea", ("QU", "I", "T"), allowed=True)
    game = end_round(game)                                  # game.rounds[-1], game.totals
Typed card entry: `parse_cards("(QU)IT", deck)`; solitaire: `new_solitaire(seed)`, `take_word`.
`score_record(record)` replays a game record for `wordtable score`.
"""

from __future__ import annotations

from firmware_host.core.record import GameRecord

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
from .game import (
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
from .notation import format_cards, parse_cards
from .replay import replay
from .report import QuiddlerReport
from .scoring import Bonus, Challenge, Lay, PlayerRound, RoundScore, ScoredWord, score_round
from .solitaire import Solitaire, new_solitaire, take_word


def score_record(record: GameRecord) -> QuiddlerReport:
    """Replay and score a Quiddler record; raises `RecordError` (with the line) on a broken one."""
    return QuiddlerReport(replay(record))


__all__ = [
    "DECK_SIZE",
    "ROUNDS",
    "STANDARD_DECK",
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
    "UnknownCardError",
    "UnknownPlayerError",
    "challenge",
    "deck_from_table",
    "end_round",
    "format_cards",
    "lay_down",
    "new_game",
    "new_solitaire",
    "parse_cards",
    "replay",
    "round_plan",
    "score_record",
    "score_round",
    "start_round",
    "take_word",
]
