"""Knack das Wort (RULES.md §4, ruling K1): the rules core (`rules`), its record (`record`), the printed
report (`report`), the table flow (`table`) and its texts (`text`); `KIT` is its entry in the registry.
The game's code loads when it is first played or scored (`kit.lazy_kit`); import its names from its modules."""

from __future__ import annotations

from firmware_host.core.games.kit import lazy_kit

from .text import TITLE

GAME_ID = "knack-das-wort"
KIT = lazy_kit(__name__, GAME_ID, TITLE)
