"""The table's own entries in the games menu, beside the games: *Karten ziehen* (`deck_mode`) and the card
enrolment (`enrol_cards`). Light like every kit (`core.games.kit`): their flows load when first chosen."""

from __future__ import annotations

from types import ModuleType

from firmware_host.core.games.kit import GameKit, Loaded

DECK = "deck"
ENROL = "enrol-cards"


def _modules(name: str) -> ModuleType:
    """The table mode's module `name`, imported at the first use."""
    from firmware_host.core.table import deck_mode, enrol_cards

    return {"deck_mode": deck_mode, "enrol_cards": enrol_cards}[name]


DECK_KIT = GameKit(DECK, {"de": "Karten ziehen", "en": "Draw cards"}, Loaded(_modules, "deck_mode", "new_deck"))
ENROL_KIT = GameKit(ENROL, {"de": "Karten anlernen", "en": "Enrol cards"},
                    Loaded(_modules, "enrol_cards", "new_enrolment"))
