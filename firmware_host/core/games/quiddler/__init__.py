"""Quiddler (RULES.md §2, rulings Q1–Q6): the pure rules core, its record, the table flows and the kits.

Drive a game event by event (each call returns a new `Game` or raises a `RuleError`):
    game = new_game(["Ann", "Bob", "Cem"], dealer="Ann")   # game.next_round: who deals how many
    game = start_round(game)                                # game.current.plan
    game = lay_down(game, "Bob", [("QU", "I", "T")], unused=(), went_out=True)
    game = challenge(game, "Ann", "Bob", ("QU", "I", "T"), allowed=True)
    game = end_round(game)                                  # game.rounds[-1], game.totals
Typed card entry: `parse_cards("(QU)IT", deck)`; solitaire: `new_solitaire(seed)`, `take_word`.
`score_record(record)` replays a game record for `wordtable score` (`record`: its events, `RULES`).
At the table: `KIT` (the scored game, flow in `table`) and `SOLITAIRE_KIT` (practice, `solitaire_table`).
The game's code loads when it is first played, scored or its deck is asked for; any other name of this
package (`exports`) loads it too, at its first use.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from firmware_host.core.games.kit import CardDeck, GameKit, exported

from .text import TEXT

if TYPE_CHECKING:
    from firmware_host.core.flow import Ctx, Flow
    from firmware_host.core.games.rules import Rules
    from firmware_host.core.record import GameRecord, ScoreReport

    from .exports import *  # noqa: F403

GAME_ID = "quiddler"
SOLITAIRE_ID = "quiddler-solitaire"


def _new_flow(ctx: Ctx, names: tuple[str, ...]) -> Flow:
    from .table import new_flow

    return new_flow(ctx, names)

def _new_solitaire_flow(ctx: Ctx, names: tuple[str, ...]) -> Flow:
    from .solitaire_table import new_solitaire_flow

    return new_solitaire_flow(ctx, names)

def _score_record(record: GameRecord) -> ScoreReport:
    from .record import score_record

    return score_record(record)

@cache
def _decks() -> tuple[CardDeck, ...]:
    from .deck import STANDARD_DECK

    return (CardDeck(GAME_ID, {"de": "Quiddler", "en": "Quiddler"}, tuple(STANDARD_DECK.cards())),)



def _rules() -> Rules[Any, Any, Any]:
    from .record import RULES

    return RULES


def _exports() -> ModuleType:
    import firmware_host.core.games.quiddler.exports as exports  # not `from .`: that asks __getattr__

    return exports


KIT = GameKit(
    GAME_ID, {lang: texts["title"] for lang, texts in TEXT.items()}, _new_flow, _score_record, _decks,
    record_rules=_rules,
)
SOLITAIRE_KIT = GameKit(SOLITAIRE_ID, {lang: texts["solitaire"] for lang, texts in TEXT.items()}, _new_solitaire_flow)
__getattr__ = exported(__name__, _exports)
