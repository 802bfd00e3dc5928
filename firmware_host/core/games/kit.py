"""A game kit: everything the appliance knows of one game, as one value in `games.registry.GAMES`.

The menu offers every kit (`title`, `new_flow`); `wordtable score` and the record reader take the kits
with `rules` (a game that keeps a record); the Deck and the card enrolment offer every kit's `decks`.

A kit is light: its id, title and kept names are plain values; `new_flow`, `score_record`, `card_decks`
and `record_rules` are functions that import the game's code when first called. So the menu (and every
command) starts without importing any game; a game's rules, flow and report load when it is played or
scored. A game package's other names load the same way (`exported`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware_host.core.flow import Ctx, Flow
    from firmware_host.core.games.rules import Rules
    from firmware_host.core.record import GameRecord, ScoreReport


@dataclass(frozen=True, slots=True)
class CardDeck:
    """A game's physical deck: its title by language and every card's face in the game's notation
    (`core.cards`; repeats for copies)."""

    game: str
    title: Mapping[str, str]
    faces: tuple[str, ...]

    def name(self, lang: str) -> str:
        return self.title.get(lang) or self.title["de"]


def no_decks() -> tuple[CardDeck, ...]:
    return ()


def no_rules() -> Rules[Any, Any, Any] | None:
    return None


@dataclass(frozen=True, slots=True)
class GameKit:
    """`id`: the game id (record header, journal, menu key). `new_flow(ctx, configured names)`: the flow
    at its setup. `score_record`: re-scores a whole record (None: the entry keeps no record).
    `card_decks()`: the physical decks it plays with (`decks`). `kept`: the names of the kept items it
    reads and writes. `record_rules()`: its rules core with the record codec (`rules`: the record's lines
    and their JSON Schema; None: the entry keeps no record)."""

    id: str
    title: Mapping[str, str]
    new_flow: Callable[[Ctx, tuple[str, ...]], Flow]
    score_record: Callable[[GameRecord], ScoreReport] | None = None
    card_decks: Callable[[], tuple[CardDeck, ...]] = no_decks
    kept: tuple[str, ...] = ()
    record_rules: Callable[[], Rules[Any, Any, Any] | None] = no_rules

    @property
    def decks(self) -> tuple[CardDeck, ...]:
        return self.card_decks()

    @property
    def rules(self) -> Rules[Any, Any, Any] | None:
        return self.record_rules()

    def name(self, lang: str) -> str:
        return self.title.get(lang) or self.title["de"]


def exported(package: str, load: Callable[[], ModuleType]) -> Callable[[str], Any]:
    """A game package's `__getattr__` (PEP 562): a name the package does not define itself comes from the
    module `load()` imports, at the first such name. The package's own modules import each other by
    their full names (`import firmware_host.core.games.x.rules as rules`), never `from . import rules`:
    that asks `__getattr__` first, which would load everything in the middle of loading one module."""

    def __getattr__(name: str) -> Any:
        if not name.startswith("__"):
            found = getattr(load(), name, __getattr__)
            if found is not __getattr__:
                return found
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
