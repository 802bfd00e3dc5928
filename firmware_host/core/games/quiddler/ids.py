"""Quiddler's game ids (record header, journal, menu key): a leaf every module of the game
imports, so none imports its package (whose loader imports them)."""

from __future__ import annotations

GAME_ID = "quiddler"
SOLITAIRE_ID = "quiddler-solitaire"
