"""The skeleton every recorded game at the table shares: setup, entry, undo, rebuild.

`Played` is a game in play: its rules (`games.rules.Rules`), the setup event, the table events entered
since (oldest first) and the rules core's game for them. It emits the record effects, so a flow never
writes a record line itself: `begin` opens the record (`BeginGame` and the setup line), `enter` applies
an event through the rules (its texts normalised by the record codec, as a reader will read them) and
appends its line (the event's line number counts the header and the
setup), `undo` retracts the last line and rebuilds the game from the setup and the events left.
A refused entry raises the rules' `RuleError` and changes nothing. `begin` and `enter` do the same for a
flow, a refusal in its footer. `RecordedFlow` is the base of every game's flow: its stages are types, and
its transitions table (`STAGES`: stage type -> `StageRow`) says what each does, shows and waits for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from firmware_host.core.effects import BeginGame, Effect, Record, Retract
from firmware_host.core.events import Event
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.games.rules import Rules
from firmware_host.core.screens import Screen
from firmware_host.core.table.entries import Entries
from firmware_host.core.table.seats import Seating, Seats, choose_players, refuse
from firmware_host.core.text_field import TextField

G = TypeVar("G")
S = TypeVar("S")
E = TypeVar("E")

FIRST_EVENT_LINE = 3  # line 1 is the header, line 2 the setup


@dataclass(frozen=True, slots=True)
class Played(Generic[S, G, E]):
    rules: Rules[S, G, E]
    setup: S
    events: Entries[E]  # grows in O(1): a resume of n entries is O(n), not O(n²)
    game: G

    @classmethod
    def begin(
        cls, rules: Rules[S, G, E], setup: S, players: tuple[str, ...]
    ) -> tuple[Played[S, G, E], tuple[Effect, ...]]:
        """The game started from `setup` (its texts normalised by the record codec) and the effects that
        open its record. Raises `RuleError` (`TextRefused` for a text the record would not take)."""
        setup = rules.codec.clean(setup)
        played = cls(rules, setup, Entries(), rules.start(setup))
        return played, (BeginGame(rules.game, players), Record(rules.codec.encode(setup)))

    def enter(self, *events: E) -> tuple[Played[S, G, E], tuple[Effect, ...]]:
        """The game with `events` entered (their texts normalised by the record codec), all or none, and the
        effects that append their lines. Raises `RuleError` (from the first event refused, `TextRefused`
        for a text the record would not take; then nothing is entered)."""
        game, entered = self.game, self.events
        for event in events:
            event = self.rules.codec.clean(event)
            game = self.rules.apply(game, event, FIRST_EVENT_LINE + len(entered))
            entered = entered.added(event)
        new = tuple(entered[i] for i in range(len(self.events), len(entered)))
        return replace(self, events=entered, game=game), tuple(Record(self.rules.codec.encode(e)) for e in new)

    def undo(self) -> tuple[Played[S, G, E], E, tuple[Effect, ...]] | None:
        """The game without its last event (rebuilt from the setup), that event, and the effect that
        retracts its line; None when no event was entered since the setup."""
        if not self.events:
            return None
        return self.rebuilt(self.events[:-1]), self.events[-1], (Retract(),)

    def rebuilt(self, events: Sequence[E]) -> Played[S, G, E]:
        """The game of the setup and `events` (each accepted when it was entered)."""
        game = self.rules.start(self.setup)
        for number, event in enumerate(events, start=FIRST_EVENT_LINE):
            game = self.rules.apply(game, event, number)
        return replace(self, events=events if isinstance(events, Entries) else Entries(events), game=game)


St = TypeVar("St")
F = TypeVar("F", bound="_Recording")


class _Recording(Protocol):
    """A table flow that records a game: a dataclass with `played` (None before the game begins) and the
    footer's `message`."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def played(self) -> Played[Any, Any, Any] | None: ...


def begin(flow: F, ctx: Ctx, rules: Rules[S, G, E], setup: S, players: tuple[str, ...],
          **changes: Any) -> tuple[F | None, Outcome]:
    """The game begun from `setup`: the flow playing it (with `changes`) and its outcome with the effects
    that open the record; or None and the refusal, the rules' reason in the footer."""
    try:
        played, effects = Played.begin(rules, setup, players)
    except RuleError as exc:
        return None, _refused(flow, exc, ctx)
    return _shown(replace(flow, played=played, **changes), effects)


def enter(flow: F, ctx: Ctx, *events: Any, **changes: Any) -> tuple[F | None, Outcome]:
    """`events` entered through the rules, all or none: the flow with them (and `changes`) and its
    outcome with their record lines; or None and the refusal, the rules' reason in the footer."""
    assert flow.played is not None
    try:
        played, effects = flow.played.enter(*events)
    except RuleError as exc:
        return None, _refused(flow, exc, ctx)
    return _shown(replace(flow, played=played, **changes), effects)


def _refused(flow: F, exc: RuleError, ctx: Ctx) -> Outcome:
    refused: Any = replace(flow, message=exc.text(ctx.lang))  # a table flow: a `Flow`
    return refuse(refused, ctx)


def _shown(flow: F, effects: tuple[Effect, ...]) -> tuple[F, Outcome]:
    shown: Any = flow  # a table flow: a `Flow`
    return flow, Outcome(shown, effects)


def types_nothing(flow: Any, stage: Any, ctx: Ctx) -> TextField | None:
    """A stage that takes no typed line."""
    return None


@dataclass(frozen=True, slots=True)
class StageRow:
    """One row of a flow's transitions table, for one stage type: what the stage does with an input
    (`handle(flow, stage, event, ctx)`), what it shows (`shows(flow, stage, ctx)`) and the typed line it
    waits for (`types(flow, stage, ctx)`; None: none)."""

    handle: Callable[[Any, Any, Event, Ctx], Outcome]
    shows: Callable[[Any, Any, Ctx], Screen]
    types: Callable[[Any, Any, Ctx], TextField | None] = types_nothing


@dataclass(frozen=True, slots=True)
class RecordedFlow(Generic[St, S, G, E]):
    """The base of every recorded game's table flow: the stage on screen, the game played (None until it
    begins) and the footer's message. A game sets `GAME` (its game id), `TITLE` and `STAGES`, its
    transitions table: stage type -> `StageRow`. `handle`, `screen` and `text_field` look the stage up
    there (a flow with rules across its stages overrides `handle` and calls `dispatch`); inputs every stage
    takes alike (the word list's answers) are in `ANSWERS`: event type -> handler(flow, event, ctx).
    The players' setup is the shared `Seating` stage (`SEATING`), whose START calls `start_game`."""

    GAME: ClassVar[str] = ""
    TITLE: ClassVar[Mapping[str, str]] = {}
    STAGES: ClassVar[Mapping[type, StageRow]] = {}
    ANSWERS: ClassVar[Mapping[type, Callable[[Any, Any, Ctx], Outcome]]] = {}

    stage: St
    played: Played[S, G, E] | None = None
    message: str = ""

    @property
    def game(self) -> str:
        return self.GAME

    @property
    def row(self) -> StageRow:
        """The stage on screen's row of `STAGES`."""
        return self.STAGES[type(self.stage)]

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        return self.dispatch(event, ctx)

    def dispatch(self, event: Event, ctx: Ctx) -> Outcome:
        """An input through the tables: its `ANSWERS` row when it has one, else the stage's `handle`."""
        answer = self.ANSWERS.get(type(event))
        if answer is not None:
            return answer(self, event, ctx)
        return self.row.handle(self, self.stage, event, ctx)

    def screen(self, ctx: Ctx) -> Screen:
        return self.row.shows(self, self.stage, ctx)

    def text_field(self, ctx: Ctx) -> TextField | None:
        return self.row.types(self, self.stage, ctx)

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(replace(self, message=""))  # a stale footer must not stand beside "Zeit!"

    def start_game(self, players: tuple[str, ...]) -> Outcome:
        """START on the players' setup (`Seating`): usually the game begun (`begin`); may raise `RuleError`."""
        raise NotImplementedError


class PhonePage(Protocol):
    """A game's module for the table page (`<game>.page`): a line from a seat's phone, a seat's view."""

    def seat_entry(self, flow: Any, seat: int, text: str, ctx: Ctx) -> Outcome: ...

    def page_data(self, flow: Any, seat: int | None, ctx: Ctx) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class PagedFlow(RecordedFlow[St, S, G, E]):
    """A recorded game's flow the phones play along with: `PHONES` is its page module (`flow.TakesSeats`,
    `flow.ShowsPage`); `players` (the phones' seats, in turn order) are its game's, or while it is set up
    those seated so far on the shared `Seating` stage (a game with its own setup overrides `players`)."""

    PHONES: ClassVar[PhonePage]

    @property
    def players(self) -> tuple[str, ...]:
        if self.played is not None:
            setup: Any = self.played.setup
            return tuple(setup.players)
        return self.stage.seats.players if isinstance(self.stage, Seating) else ()

    def seat_entry(self, seat: int, text: str, ctx: Ctx) -> Outcome:
        return self.PHONES.seat_entry(self, seat, text, ctx)

    def page(self, seat: int | None, ctx: Ctx) -> dict[str, Any]:
        return self.PHONES.page_data(self, seat, ctx)


def _seating(flow: Any, stage: Seating, event: Event, ctx: Ctx) -> Outcome:
    """The shared setup: `seats.choose_players`, START calls the flow's `start_game`."""
    flow = replace(flow, message="")

    def seated(seats: Seats, message: str) -> Any:
        return replace(flow, stage=Seating(seats), message=message)

    return choose_players(stage.seats, event, ctx, flow.start_game, seated)


def _seating_screen(flow: Any, stage: Seating, ctx: Ctx) -> Screen:
    title = flow.TITLE.get(ctx.lang) or flow.TITLE["de"]
    return stage.seats.screen(ctx.lang, title, flow.message)


def _seating_field(flow: Any, stage: Seating, ctx: Ctx) -> TextField | None:
    return stage.seats.field(ctx.lang)


SEATING = StageRow(_seating, _seating_screen, _seating_field)  # the `Seating` stage's row, for every game
