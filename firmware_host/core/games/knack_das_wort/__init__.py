"""Knack das Wort (RULES.md §4, ruling K1): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`); `KIT` is its entry in the registry.
The game's code loads when it is first played or scored (`kit.lazy_kit`, the loaders below); import its
names from its modules."""

from __future__ import annotations

from types import ModuleType

from firmware_host.core.games.kit import lazy_kit

from .text import TITLE

GAME_ID = "knack-das-wort"


def _table() -> ModuleType:
    from . import table

    return table


def _record() -> ModuleType:
    from . import record

    return record


KIT = lazy_kit(GAME_ID, TITLE, table=_table, record=_record)
