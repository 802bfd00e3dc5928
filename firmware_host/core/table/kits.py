"""The table's own entries in the games menu, beside the games: *Karten ziehen* (`deck_mode`) and the card
enrolment (`enrol_cards`). Light like every kit (`core.games.kit`): their flows load when first chosen."""

from __future__ import annotations

from firmware_host.core.games.kit import GameKit, Loaded

DECK = "deck"
ENROL = "enrol-cards"

DECK_KIT = GameKit(DECK, {"de": "Karten ziehen", "en": "Draw cards"},
                   Loaded("firmware_host.core.table.deck_mode", "new_deck"))
ENROL_KIT = GameKit(ENROL, {"de": "Karten anlernen", "en": "Enrol cards"},
                    Loaded("firmware_host.core.table.enrol_cards", "new_enrolment"))
