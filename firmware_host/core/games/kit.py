"""A game kit: everything the appliance knows of one game, as one value in `games.registry.GAMES`.

The menu offers every kit (`title`, `new_flow`); `wordtable score` and the record reader take the kits
with `rules` (a game that keeps a record); the Deck and the card enrolment offer every kit's `decks`.

A kit is light: its id, title and kept names are plain values; `new_flow`, `score_record`, `card_decks`
and `record_rules` are functions that import the game's code when first called. So the menu (and every
command) starts without importing any game; a game's rules, flow and report load when it is played or
scored. `lazy_kit` builds a game package's kit so: each function is a `Loaded` name of one of its modules,
which the package's one loader imports when first asked (its import statement, run at the first use).
A game package's `__init__` holds its kit and that loader only: import the game's names from its modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware_host.core.deck import DeckRefusal
    from firmware_host.core.flow import Ctx, Flow
    from firmware_host.core.games.rules import Rules
    from firmware_host.core.record import GameRecord, ScoreReport


@dataclass(frozen=True, slots=True)
class RoundCall:
    """What the table plays in round `round`, as a deck's piles call it: words starting with `letter`, at
    most `max_length` long."""

    round: int
    letter: str
    max_length: int


PileCall = Callable[[str | None, str | None, int], "RoundCall | DeckRefusal | None"]


@dataclass(frozen=True, slots=True)
class CardDeck:
    """A game's physical deck: its title by language and every card's face in the game's notation
    (`core.cards`; repeats for copies). `call(draw top, discard top, cards turned)`: the round the piles
    call, for a game whose piles call one (None: the piles only show their cards)."""

    game: str
    title: Mapping[str, str]
    faces: tuple[str, ...]
    call: PileCall | None = None
    other: Callable[[str], str | None] | None = None  # a face beyond `faces` the game takes (a physical
    # deck's own card), in its notation; None when it is none (or the game takes no other faces)

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


Load = Callable[[str], ModuleType]  # a game package's module by name (imported with an import statement there)


@dataclass(frozen=True, slots=True)
class Loaded:
    """The name `name` of the module `load(module)` imports at the first use: `get()` is its value;
    calling it calls that value (a function)."""

    load: Load
    module: str
    name: str

    def get(self) -> Any:
        return getattr(self.load(self.module), self.name)

    def __call__(self, *args: Any) -> Any:
        return self.get()(*args)


def lazy_kit(game: str, title: Mapping[str, str], modules: Load, *, flow: str = "table.new",
             decks: str | None = None, kept: tuple[str, ...] = (), recorded: bool = True) -> GameKit:
    """A game's kit, loading nothing of its code until asked: `modules(name)` is its package's module
    `name`. The flow is `flow` ("module.function", called with `Ctx` and the configured names); a game that
    keeps a record (`recorded`) is scored by `record.score_record` under `record.RULES`; its decks are
    `decks()` ("module.function", None: it has none)."""

    def loaded(path: str) -> Loaded:
        module, _, name = path.rpartition(".")
        return Loaded(modules, module, name)

    card_decks = loaded(decks) if decks is not None else no_decks
    if not recorded:
        return GameKit(game, title, loaded(flow), None, card_decks, kept)
    return GameKit(game, title, loaded(flow), loaded("record.score_record"), card_decks, kept,
                   loaded("record.RULES").get)
