"""Das perfekte Wort (RULES.md §1, rulings R1–R6): the pure rules core, its record and its table flow.

Drive a game event by event (`new_game`, `apply`), score it at any point (`score`), or score a whole
record (`score_record`, used by `wordtable score`; `RULES.replay` replays one). `KIT` is the game as the
appliance knows it (`games.registry`); `table.py` is its flow at the table. No I/O here: data files and
word lists are loaded by `firmware_host.games.perfektes_wort.data_files` and `firmware_host.word_index`
and passed in as values. The game's code loads when it is first played, scored or its deck is asked for;
any other name of this package (`exports`) loads it too, at its first use.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from firmware_host.core.games.kit import CardDeck, GameKit, exported

from .highscores import KEPT_NAME
from .text import TITLE

if TYPE_CHECKING:
    from firmware_host.core.flow import Ctx, Flow
    from firmware_host.core.games.rules import Rules
    from firmware_host.core.record import GameRecord, ScoreReport

    from .exports import *  # noqa: F403

GAME_ID = "perfektes-wort"


def _new_flow(ctx: Ctx, names: tuple[str, ...]) -> Flow:
    from .table import new

    return new(ctx, names)

def _score_record(record: GameRecord) -> ScoreReport:
    from .record import score_record

    return score_record(record)

@cache
def _decks() -> tuple[CardDeck, ...]:
    """The appliance's own 24 letter cards (ruling R2), their faces in the card-table notation "B/5"."""
    from .defaults import DEFAULT_DATA

    return (CardDeck(GAME_ID, TITLE, tuple(card.face for card in DEFAULT_DATA.deck)),)



def _rules() -> Rules[Any, Any, Any]:
    from .record import RULES

    return RULES


def _exports() -> ModuleType:
    import firmware_host.core.games.perfektes_wort.exports as exports  # not `from .`: that asks __getattr__

    return exports


KIT = GameKit(GAME_ID, TITLE, _new_flow, _score_record, _decks, (KEPT_NAME,), _rules)
__getattr__ = exported(__name__, _exports)
