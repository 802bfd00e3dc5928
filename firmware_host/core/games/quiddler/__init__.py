"""Quiddler (RULES.md §2, rulings Q1–Q6): the pure rules core, its record, the table flows and the kits.

Drive a game event by event (each call returns a new `Game` or raises a `RuleError`):
    game = new_game(["Ann", "Bea", "Cem"], dealer="Ann")   # game.next_round: who deals how many
    game = start_round(game)                                # game.current.plan
    game = lay_down(game, "Bea", [("QU", "I", "T")], unused=(), went_out=True)
    game = challenge(game, "Ann", "Bea", ("QU", "I", "T"), allowed=True)
    game = end_round(game)                                  # game.rounds[-1], game.totals
Typed card entry: `parse_cards("(QU)IT", deck)`; solitaire: `new_solitaire(seed)`, `take_word`.
`score_record(record)` replays a game record for `wordtable score` (`record`: its events, `RULES`).
At the table: `KIT` (the scored game, flow in `table`) and `SOLITAIRE_KIT` (practice, `solitaire_table`).
"""

from __future__ import annotations

from firmware_host.core.games.kit import CardDeck, GameKit

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
from .solitaire_table import SOLITAIRE_ID, SolitaireFlow, new_solitaire_flow
from .table import GAME_ID, QuiddlerFlow, new_flow
from .text import TEXT

DECK = CardDeck(GAME_ID, {"de": "Quiddler", "en": "Quiddler"}, tuple(STANDARD_DECK.cards()))
KIT = GameKit(
    GAME_ID, {lang: texts["title"] for lang, texts in TEXT.items()}, new_flow, score_record, (DECK,), rules=RULES
)
SOLITAIRE_KIT = GameKit(SOLITAIRE_ID, {lang: texts["solitaire"] for lang, texts in TEXT.items()}, new_solitaire_flow)


__all__ = [
    "CODEC",
    "DECK_SIZE",
    "KIT",
    "ROUNDS",
    "RULES",
    "SOLITAIRE_KIT",
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
    "new_game",
    "new_solitaire",
    "parse_cards",
    "round_plan",
    "score_record",
    "score_round",
    "start_round",
    "take_word",
]
