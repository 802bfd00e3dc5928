"""The seam between the appliance's state machine (`core.app`) and a game played at the table.

A game at the table is a `Flow`: an immutable value that takes input events and returns an `Outcome`
(the next flow, effects, and what to do with the appliance's timer). A flow never sees the timer or the
clock directly: `Ctx` tells it what it may know, and `TimerAction`s ask the app to act on the timer.

Buttons reserved by the app while a game runs: MENU (menu; long: power off) and a long BACK (the
timer-only screen and back). Everything else goes to the flow. BACK should undo the last entry.

Life of a game: the flow starts in its setup (players, options); when setup is complete it returns
`BeginGame` and the setup's `Record` line. Every table event becomes a `Record` effect (the game's
record, re-scored by `wordtable score`); an undone one a `Retract`. When the game is over the flow shows
the final standings; when the table leaves that screen it returns `Outcome(None, (EndGame(winner),))`.
A flow need not survive a restart by itself: the shell journals every input, and a restart replays them.

A flow with a clock of its own (the turn timer) also `KeepsTime`: it sets the appliance's timer exactly
(`SetTimer`) and is told to stop its clock (`pause`) after a restart and when the table leaves it for
another mode, so no time passes on it unseen.

A screen that takes a typed line says so with `text_field` (`core.text_field.TextField`): the app then
offers the letter picker for it (by itself when text is the only input there) and shows what is typed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from firmware_host.core.cards import kept_tables
from firmware_host.core.effects import Effect
from firmware_host.core.events import Event
from firmware_host.core.screens import Screen
from firmware_host.core.settings import TurnSettings
from firmware_host.core.text_field import TextField


@dataclass(frozen=True, slots=True)
class Ctx:
    """What a flow may know of the appliance around it."""

    lang: str
    volume: str
    now: float
    timer_running: bool
    timer_over: bool  # the alarm has sounded and the timer was not restarted since
    timer_left: float
    timer_duration: float
    kept: Mapping[str, Any] = field(default_factory=dict)  # name -> data (`effects.Keep`); read-only
    turns: TurnSettings = field(default_factory=TurnSettings)  # the turn timer's defaults and the games' per-turn limit
    reveal: str = "round"  # when the games reveal the best play: "round", "end" or "off" (`settings.REVEAL_CHOICES`)
    people: tuple[str, ...] = ()  # the roster's people by name, recently played first (`core.roster`)

    @property
    def cards(self) -> Mapping[str, Mapping[str, str]]:
        """The enrolled card tables among the kept items: game id -> {code: face}."""
        return kept_tables(self.kept)


@dataclass(frozen=True, slots=True)
class StartTimer:
    """Run the appliance's timer from full for `seconds` (a round's sand timer)."""

    seconds: float


@dataclass(frozen=True, slots=True)
class PauseTimer:
    """Pause a running timer, or resume a paused one."""


@dataclass(frozen=True, slots=True)
class ResetTimer:
    """Stop the timer and fill it again."""


@dataclass(frozen=True, slots=True)
class SetTimer:
    """Set the timer exactly, as a turn clock: `left` of `duration` seconds (0 or below: already over,
    no new alarm), running from `since` (an event's own time, so a switch counts from the button edge)
    or stopped (None). It counts on past zero: the alarm sounds once, the flow hears `timer_over`."""

    duration: float
    left: float
    since: float | None = None


TimerAction = StartTimer | PauseTimer | ResetTimer | SetTimer


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a flow returns: the next flow (None: the table left the game for the menu), effects, and a
    timer action. The app adds the screen, LED bar and wake-up itself. `refused` says that the input was
    refused and why (the text on the screen; "" when the screen says nothing more): None when it was taken.
    A refusal is data; nobody tells it from the effects."""

    flow: Flow | None
    effects: tuple[Effect, ...] = ()
    timer: TimerAction | None = None
    refused: str | None = None


class Flow(Protocol):
    @property
    def game(self) -> str:
        """The game id (`GameKit.id` in `core.games.registry`)."""
        ...

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        """An input event while this game is on screen."""
        ...

    def timer_over(self, ctx: Ctx) -> Outcome:
        """The timer's alarm has just sounded (e.g. entry closes at the alarm)."""
        ...

    def screen(self, ctx: Ctx) -> Screen:
        """What the display shows for this flow now."""
        ...

    def text_field(self, ctx: Ctx) -> TextField | None:
        """The typed line the screen on display waits for; None when it takes none."""
        ...


@runtime_checkable
class KeepsTime(Protocol):
    """A flow with a clock of its own: the appliance's timer shows that clock."""

    def pause(self, ctx: Ctx) -> Outcome:
        """Stop the clock at `ctx.now` (nothing changes when it is stopped already) and set the timer to
        show it. Called after a restart (before the clock starts anew) and whenever the table leaves this
        flow for another mode or comes back to it."""
        ...


@runtime_checkable
class ExplainsPause(Protocol):
    """A flow whose screen says itself that the appliance's timer stands paused and which key runs it on
    (a round's minute after a restart): a resume then puts no notice of its own over that footer."""

    def explains_pause(self, ctx: Ctx) -> bool:
        """Whether the screen this flow shows now says so."""
        ...


@runtime_checkable
class Asks(Protocol):
    """A flow that asks the word list (`CheckWords`, `RevealBest`) and waits for the answer as an input."""

    def asks(self, ctx: Ctx) -> tuple[Effect, ...]:
        """The questions asked and not answered yet that the screen in hand waits for. Called after a
        restart: a cut between an input and its answer lost the question (the answer comes as the next
        input), so the resumed table asks again — none when every answer is in the journal."""
        ...


@runtime_checkable
class TakesSeats(Protocol):
    """A flow that takes entries from the players' phones (the table page), each for its own seat."""

    def seat_entry(self, seat: int, text: str, ctx: Ctx) -> Outcome:
        """A line typed on the phone of seat `seat` (an index into the flow's players; the text already
        normalised at the core's edge). A flow refuses a seat it has no player for, and an entry the
        current stage does not ask of that seat."""
        ...


@runtime_checkable
class ShowsPage(Protocol):
    """A flow that tells the table page more than its OLED screen: JSON-ready data for seat `seat` (None:
    a page without a seat). What one seat must not see yet (a word hidden until the alarm) is left out."""

    def page(self, seat: int | None, ctx: Ctx) -> dict[str, Any]:
        ...
