"""Das perfekte Wort's game id (record header, journal, menu key) and title: a leaf every module of
the game imports, so none imports its package (whose loader imports them)."""

from __future__ import annotations

GAME_ID = "perfektes-wort"
TITLE = {"de": "Das perfekte Wort", "en": "Das perfekte Wort"}  # the menu's name by language
