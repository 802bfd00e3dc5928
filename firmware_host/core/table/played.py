"""The skeleton every recorded game at the table shares: setup, entry, undo, rebuild.

`Played` is a game in play: its rules (`games.rules.Rules`), the setup event, the table events entered
since (oldest first) and the rules core's game for them. It emits the record effects, so a flow never
writes a record line itself: `begin` opens the record (`BeginGame` and the setup line), `enter` applies
an event through the rules (its texts normalised by the record codec, as a reader will read them) and
appends its line (the event's line number counts the header and the
setup), `undo` retracts the last line and rebuilds the game from the setup and the events left.
A refused entry raises the rules' `RuleError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from firmware_host.core.effects import BeginGame, Effect, Record, Retract
from firmware_host.core.events import Event
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.games.rules import Rules
from firmware_host.core.screens import Screen
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
    events: tuple[E, ...]
    game: G

    @classmethod
    def begin(
        cls, rules: Rules[S, G, E], setup: S, players: tuple[str, ...]
    ) -> tuple[Played[S, G, E], tuple[Effect, ...]]:
        """The game started from `setup` (its texts normalised by the record codec) and the effects that
        open its record. Raises `RuleError` (`TextRefused` for a text the record would not take)."""
        setup = rules.codec.clean(setup)
        played = cls(rules, setup, (), rules.start(setup))
        return played, (BeginGame(rules.game, players), Record(rules.codec.encode(setup)))

    def enter(self, *events: E) -> tuple[Played[S, G, E], tuple[Effect, ...]]:
        """The game with `events` entered (their texts normalised by the record codec), all or none, and the
        effects that append their lines. Raises `RuleError` (from the first event refused, `TextRefused`
        for a text the record would not take; then nothing is entered)."""
        game, entered = self.game, self.events
        for event in events:
            event = self.rules.codec.clean(event)
            game = self.rules.apply(game, event, FIRST_EVENT_LINE + len(entered))
            entered = (*entered, event)
        new = entered[len(self.events) :]
        return replace(self, events=entered, game=game), tuple(Record(self.rules.codec.encode(e)) for e in new)

    def undo(self) -> tuple[Played[S, G, E], E, tuple[Effect, ...]] | None:
        """The game without its last event (rebuilt from the setup), that event, and the effect that
        retracts its line; None when no event was entered since the setup."""
        if not self.events:
            return None
        return self.rebuilt(self.events[:-1]), self.events[-1], (Retract(),)

    def rebuilt(self, events: tuple[E, ...]) -> Played[S, G, E]:
        """The game of the setup and `events` (each accepted when it was entered)."""
        game = self.rules.start(self.setup)
        for number, event in enumerate(events, start=FIRST_EVENT_LINE):
            game = self.rules.apply(game, event, number)
        return replace(self, events=events, game=game)


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


@dataclass(frozen=True, slots=True)
class RecordedFlow(Generic[St, S, G, E]):
    """The fields every recorded game's table flow has: the stage on screen, the game played (None while
    the players are chosen) and the footer's message. A subclass sets `GAME` (its game id) and adds the
    stages' handlers and screens."""

    GAME: ClassVar[str] = ""
    TITLE: ClassVar[Mapping[str, str]] = {}

    stage: St
    played: Played[S, G, E] | None = None
    message: str = ""

    @property
    def game(self) -> str:
        return self.GAME

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        """While the players are chosen (`Seating`): the shared setup, START calls `start_game`; then `play`."""
        stage = self.stage
        if isinstance(stage, Seating):
            flow = replace(self, message="")

            def seated(seats: Seats, message: str) -> Any:
                changes: dict[str, Any] = {"stage": Seating(seats), "message": message}
                return replace(flow, **changes)

            return choose_players(stage.seats, event, ctx, flow.start_game, seated)
        return self.play(event, ctx)

    def screen(self, ctx: Ctx) -> Screen:
        """The setup's seats while the players are chosen; then `play_screen` of the game played."""
        if isinstance(self.stage, Seating):
            title = self.TITLE.get(ctx.lang) or self.TITLE["de"]
            return self.stage.seats.screen(ctx.lang, title, self.message)
        assert self.played is not None
        return self.play_screen(ctx, self.played.game)

    def text_field(self, ctx: Ctx) -> TextField | None:
        """A name while the players are chosen; then `setup_field` until the game begins, `play_field` of
        the game played after."""
        if isinstance(self.stage, Seating):
            return self.stage.seats.field(ctx.lang)
        if self.played is None:
            return self.setup_field(ctx)
        return self.play_field(ctx, self.played.game)

    def setup_field(self, ctx: Ctx) -> TextField | None:
        """The typed line a setup stage after the players waits for (None: none)."""
        return None

    def play_field(self, ctx: Ctx, game: G) -> TextField | None:
        """The typed line the game's screen waits for once it has begun (None: none)."""
        return None

    def start_game(self, players: tuple[str, ...]) -> Outcome:
        """The game begun for these players (usually `begin(...)`); may raise `RuleError`."""
        raise NotImplementedError

    def play(self, event: Event, ctx: Ctx) -> Outcome:
        """An input event once the game has begun."""
        raise NotImplementedError

    def play_screen(self, ctx: Ctx, game: G) -> Screen:
        """What the display shows once the game has begun."""
        raise NotImplementedError
