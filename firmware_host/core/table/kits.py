"""The table's own entries in the games menu, beside the games: *Karten ziehen* (`deck_mode`) and the card
enrolment (`enrol_cards`). Light like every kit (`core.games.kit`): their flows load when first chosen."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from firmware_host.core.games.kit import CardDeck, GameKit, Loaded
from firmware_host.core.table.ids import DECK, ENROL

if TYPE_CHECKING:
    from firmware_host.core.flow import Ctx, Flow


def _modules(name: str) -> ModuleType:
    """The table mode's module `name`, imported at the first use."""
    from firmware_host.core.table import deck_mode, enrol_cards

    return {"deck_mode": deck_mode, "enrol_cards": enrol_cards}[name]


def table_kits(decks: Callable[[], tuple[CardDeck, ...]]) -> tuple[GameKit, GameKit]:
    """The Deck's and the enrolment's kits; each flow offers the decks `decks()` returns when it opens
    (the registry's, passed in: the table's modes know no registry)."""

    def opened(module: str, name: str) -> Callable[[Ctx, tuple[str, ...]], Flow]:
        new = Loaded(_modules, module, name)
        return lambda ctx, names: new(ctx, names, decks())

    return (GameKit(DECK, {"de": "Karten ziehen", "en": "Draw cards"}, opened("deck_mode", "new_deck")),
            GameKit(ENROL, {"de": "Karten anlernen", "en": "Enrol cards"}, opened("enrol_cards", "new_enrolment")))
