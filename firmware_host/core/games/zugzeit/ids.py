"""Zugzeit's game id (record header, journal, menu key) and title: a leaf every module of
the game imports, so none imports its package (whose loader imports them)."""

from __future__ import annotations

GAME_ID = "zugzeit"
TITLE = {"de": "Zugzeit", "en": "Turn timer"}  # the menu's name by language
