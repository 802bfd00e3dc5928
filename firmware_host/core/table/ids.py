"""The ids of the table's own menu entries (journal, menu key): a leaf their kits (`kits`) and flows import."""

from __future__ import annotations

DECK = "deck"
ENROL = "enrol-cards"
