"""Knack das Wort (RULES.md §4, ruling K1): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`); `KIT` is its entry in the registry.
The game's code loads when it is first played or scored; any other name of this package (`exports`) loads
it too, at its first use."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from firmware_host.core.games.kit import GameKit, exported

from .text import TITLE

if TYPE_CHECKING:
    from firmware_host.core.flow import Ctx, Flow
    from firmware_host.core.games.rules import Rules
    from firmware_host.core.record import GameRecord, ScoreReport

    from .exports import *  # noqa: F403

GAME_ID = "knack-das-wort"


def _new_flow(ctx: Ctx, names: tuple[str, ...]) -> Flow:
    from .table import new

    return new(ctx, names)


def _score_record(record: GameRecord) -> ScoreReport:
    from .record import score_record

    return score_record(record)


def _rules() -> Rules[Any, Any, Any]:
    from .record import RULES

    return RULES


def _exports() -> ModuleType:
    import firmware_host.core.games.knack_das_wort.exports as exports  # not `from .`: that asks __getattr__

    return exports


KIT = GameKit(GAME_ID, TITLE, _new_flow, _score_record, record_rules=_rules)
__getattr__ = exported(__name__, _exports)
