"""Knack das Wort (RULES.md §4, ruling K1): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`). `KIT`, its entry in the registry, is
lazy (`kit.lazy_kit`)."""

from __future__ import annotations

from types import ModuleType

from firmware_host.core.games.kit import lazy_kit

from .ids import GAME_ID, TITLE


def _modules(name: str) -> ModuleType:
    """This game's module `name`, imported at its first use (`kit.lazy_kit`)."""
    from . import record, table

    return {"record": record, "table": table}[name]


KIT = lazy_kit(GAME_ID, TITLE, _modules)
