"""Knack das Wort's game id (record header, journal, menu key) and title: a leaf every module of
the game imports, so none imports its package (whose loader imports them)."""

from __future__ import annotations

GAME_ID = "knack-das-wort"
TITLE = {"de": "Knack das Wort", "en": "Knack das Wort"}  # the menu's name by language
