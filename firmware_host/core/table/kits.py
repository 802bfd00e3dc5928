"""The table's own entries in the games menu, beside the games: *Karten ziehen* (`deck_mode`) and the card
enrolment (`enrol_cards`). Light like every kit (`core.games.kit`): their flows load when first chosen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware_host.core.games.kit import GameKit

if TYPE_CHECKING:
    from firmware_host.core.flow import Ctx, Flow

DECK = "deck"
ENROL = "enrol-cards"


def _new_deck(ctx: Ctx, players: tuple[str, ...]) -> Flow:
    from firmware_host.core.table.deck_mode import new_deck

    return new_deck(ctx, players)


def _new_enrolment(ctx: Ctx, players: tuple[str, ...]) -> Flow:
    from firmware_host.core.table.enrol_cards import new_enrolment

    return new_enrolment(ctx, players)


DECK_KIT = GameKit(DECK, {"de": "Karten ziehen", "en": "Draw cards"}, _new_deck)
ENROL_KIT = GameKit(ENROL, {"de": "Karten anlernen", "en": "Enrol cards"}, _new_enrolment)
