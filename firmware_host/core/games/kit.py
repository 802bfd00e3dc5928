"""A game kit: everything the appliance knows of one game, as one value in `games.registry.GAMES`.

The menu offers every kit (`title`, `new_flow`); `wordtable score` and the record reader take the kits
with `rules` (a game that keeps a record); the Deck and the card enrolment offer every kit's `decks`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class GameKit:
    """`id`: the game id (record header, journal, menu key). `new_flow(ctx, configured names)`: the flow
    at its setup. `score_record`: re-scores a whole record (None: the entry keeps no record). `decks`:
    the physical decks it plays with. `kept`: the names of the kept items it reads and writes. `rules`:
    its rules core with the record codec (the record's lines and their JSON Schema)."""

    id: str
    title: Mapping[str, str]
    new_flow: Callable[[Ctx, tuple[str, ...]], Flow]
    score_record: Callable[[GameRecord], ScoreReport] | None = None
    decks: tuple[CardDeck, ...] = ()
    kept: tuple[str, ...] = ()
    rules: Rules[Any, Any, Any] | None = None

    def name(self, lang: str) -> str:
        return self.title.get(lang) or self.title["de"]
