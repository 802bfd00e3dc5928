"""Zugzeit, the turn timer (a chess clock for 2–8 players): the rules of its record (`rules`), the record
(`record`), the statistics report (`report`), the table flow (`table`), the turn being timed (`clock`) and
its texts (`text`); `KIT` is its entry in the registry. The game's code loads when it is first played or
scored (`kit.lazy_kit`); import its names from its modules."""

from __future__ import annotations

from firmware_host.core.games.kit import lazy_kit

from .text import TITLE

GAME_ID = "zugzeit"
KIT = lazy_kit(__name__, GAME_ID, TITLE)
