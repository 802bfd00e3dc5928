"""Perfect Words (RULES.md §3, rulings P1–P3): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`); `KIT` is its entry in the registry.
The game's code loads when it is first played or scored (`kit.lazy_kit`, its loader below); import its
names from its modules."""

from __future__ import annotations

from types import ModuleType

from firmware_host.core.games.kit import lazy_kit

from .ids import GAME_ID, TITLE


def _modules(name: str) -> ModuleType:
    """This game's module `name`; its code is imported at the first use (`kit.lazy_kit`)."""
    from . import record, table

    return {"record": record, "table": table}[name]


KIT = lazy_kit(GAME_ID, TITLE, _modules)
