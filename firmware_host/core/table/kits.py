"""The table's own entries in the games menu, beside the games: *Karten ziehen* (`deck_mode`) and the card
enrolment (`enrol_cards`). Light like every kit (`core.games.kit`): their flows load when first chosen."""

from __future__ import annotations

from types import ModuleType

from firmware_host.core.games.kit import GameKit, Loaded

DECK = "deck"
ENROL = "enrol-cards"


def _deck_mode() -> ModuleType:
    from firmware_host.core.table import deck_mode

    return deck_mode


def _enrol_cards() -> ModuleType:
    from firmware_host.core.table import enrol_cards

    return enrol_cards


DECK_KIT = GameKit(DECK, {"de": "Karten ziehen", "en": "Draw cards"}, Loaded(_deck_mode, "new_deck"))
ENROL_KIT = GameKit(ENROL, {"de": "Karten anlernen", "en": "Enrol cards"}, Loaded(_enrol_cards, "new_enrolment"))
