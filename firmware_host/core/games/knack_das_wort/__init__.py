"""Knack das Wort (RULES.md §4, ruling K1): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`); `KIT` is its entry in the registry.
The game's code loads when it is first played or scored; any other name of this package (`exports`) loads
it too, at its first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware_host.core.games.kit import GameKit, deferred, exported, loaded

from .text import TITLE

if TYPE_CHECKING:
    from .exports import *  # noqa: F403

GAME_ID = "knack-das-wort"

KIT = GameKit(
    GAME_ID, TITLE, deferred(f"{__name__}.table", "new"), deferred(f"{__name__}.record", "score_record"),
    record_rules=loaded(f"{__name__}.record", "RULES"),
)
__getattr__ = exported(__name__)
