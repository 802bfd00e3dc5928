"""The shell: the only place where threads, time and I/O meet the pure core.

Drivers call `Shell.put(event)` from their threads. One loop takes events off a queue; for each it
(1) journals the event, (2) runs `core.step`, (3) carries out the effects on the drivers. When the core
asks to be woken (`WakeAt`), the loop waits on the queue with a timeout that ends exactly then and
delivers a `Tick`; when nothing runs it blocks on the queue — no polling.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from firmware_host.core import app
from firmware_host.core.effects import (
    Beep,
    BeginGame,
    CheckWords,
    Effect,
    EndGame,
    Keep,
    Log,
    PowerOff,
    Record,
    Retract,
    SaveSettings,
    SetBar,
    Show,
    WakeAt,
)
from firmware_host.core.events import Event, Tick, WordsChecked, event_time
from firmware_host.core.screens import Screen
from firmware_host.core.sounds import Note, notes
from hw.protocols import Bar, Display, Sounder

log = logging.getLogger("wordtable")

CHECKPOINT_S = 5.0  # while a timer runs, journal a Tick at most this often (resume precision vs SD wear)


class JournalLike(Protocol):
    def record(self, event: Event) -> None:
        """Journal an input event (before the core sees it)."""

    def game_effect(self, effect: BeginGame | Record | Retract | EndGame) -> None:
        """Keep a table game's record: begin, a line, take back a line, end."""


Renderer = Callable[[Screen, tuple[int, int]], Any]


@dataclass(kw_only=True)
class Outputs:
    """Where effects go. Every output is wired explicitly (no defaults): one left out is a TypeError, one
    given as None a ValueError, both at construction — before the shell starts, never silently later.
    `renderer` turns a screen model into an image; `firmware_host.shell_effects` wires the appliance's."""

    bar: Bar
    sounder: Sounder
    display: Display
    renderer: Renderer
    save_settings: Callable[[dict[str, Any]], None]  # `SaveSettings`: remember the table's choices
    power_off: Callable[[], None]  # `PowerOff`: switch the machine off
    on_frame: Callable[[Screen, Any], None]  # every frame drawn (the sim mirrors frames here)
    on_sound: Callable[[str, tuple[Note, ...]], None]  # every `Beep`, played or silent
    keep: Callable[[str, Any], None]  # `Keep`: store data under name
    check_words: Callable[[tuple[str, ...]], dict[str, bool] | None]  # `CheckWords`; None: no word list

    def __post_init__(self) -> None:
        missing = [part.name for part in fields(self) if getattr(self, part.name) is None]
        if missing:
            raise ValueError(f"outputs not wired: {', '.join(missing)}")


@dataclass
class Shell:
    state: app.AppState
    outputs: Outputs
    clock: Callable[[], float] = time.monotonic
    journal: JournalLike | None = None
    wake_at: float | None = None
    screen: Screen | None = None
    bar_level: float | None = None
    last_journaled: float = float("-inf")
    _answers: list[Event] = field(default_factory=list)
    frames: int = 0
    inbox: queue.SimpleQueue[Event | None] = field(default_factory=queue.SimpleQueue)

    def put(self, event: Event) -> None:
        """Hand an event to the loop. Thread-safe; drivers call this from their callbacks."""
        self.inbox.put(event)

    def stop(self) -> None:
        """Make `run` return after the event in hand. Thread-safe (a signal handler may call it)."""
        self.inbox.put(None)

    def start(self, effects: list[Effect]) -> None:
        """Carry out the effects of the initial (or resumed) state."""
        self.carry_out(effects)

    def handle(self, event: Event) -> list[Effect]:
        """Handle one event and then the answers it asked for (see `CheckWords`), in order."""
        effects = self._handle(event)
        while self._answers:
            effects += self._handle(self._answers.pop(0))
        return effects

    def _handle(self, event: Event) -> list[Effect]:
        """Journal one input event, step the core, carry out the effects; return them.

        An input is journaled before the core sees it (acknowledged = on storage). A clock tick is no
        input: it is journaled after its effects, and only as a checkpoint every CHECKPOINT_S while the
        timer runs, so that the alarm never waits for the storage and a resume knows the time left — and
        whenever it changed a game's record (the turn timer ended a turn at its deadline), so that a replay
        makes the same change."""
        tick = isinstance(event, Tick)
        if self.journal is not None and not tick:
            self.journal.record(event)
            self.last_journaled = event_time(event)
        checkpoint = tick and self.state.timer.running and event_time(event) - self.last_journaled >= CHECKPOINT_S
        self.state, effects = app.step(self.state, event)
        recorded = tick and any(isinstance(e, BeginGame | Record | Retract | EndGame) for e in effects)
        self.carry_out(effects)
        if (checkpoint or recorded) and self.journal is not None:
            self.journal.record(event)
            self.last_journaled = event_time(event)
        return effects

    def carry_out(self, effects: list[Effect]) -> None:
        out = self.outputs
        for effect in effects:
            if isinstance(effect, Show):
                if effect.screen != self.screen:  # redraw only what changed: the I2C bus is slow
                    self.screen = effect.screen
                    image = out.renderer(effect.screen, out.display.size)
                    out.display.show(image)
                    self.frames += 1
                    out.on_frame(effect.screen, image)
            elif isinstance(effect, SetBar):
                if effect.level != self.bar_level:
                    self.bar_level = effect.level
                    out.bar.set_level(effect.level)
            elif isinstance(effect, Beep):
                sound = notes(effect.pattern, effect.volume)
                if sound:
                    out.sounder.play(sound)
                out.on_sound(effect.pattern, sound)
            elif isinstance(effect, WakeAt):
                self.wake_at = effect.at
            elif isinstance(effect, SaveSettings):
                out.save_settings(effect.settings)
            elif isinstance(effect, Log):
                log.log(logging.getLevelName(effect.level), effect.message)
            elif isinstance(effect, CheckWords):
                known = out.check_words(effect.words)
                if known is not None:
                    self._answers.append(WordsChecked(tuple(known.items()), self.clock()))
            elif isinstance(effect, Keep):
                out.keep(effect.name, effect.data)
            elif isinstance(effect, PowerOff):
                out.power_off()
            elif isinstance(effect, BeginGame | Record | Retract | EndGame) and self.journal is not None:
                self.journal.game_effect(effect)

    def run(self, on_idle: Callable[[], None] = lambda: None, idle_every: float | None = None) -> None:
        """The loop, until `stop()`. `on_idle` runs at least every `idle_every` seconds (the watchdog)."""
        while True:
            timeout = None if self.wake_at is None else max(0.0, self.wake_at - self.clock())
            if idle_every is not None:
                timeout = idle_every if timeout is None else min(timeout, idle_every)
            try:
                event = self.inbox.get(timeout=timeout)
            except queue.Empty:
                event = None if self.wake_at is None or self.clock() < self.wake_at else Tick(self.clock())
                if event is None:
                    on_idle()
                    continue
            if event is None:
                return
            self.handle(event)
            on_idle()
            if self.wake_at is not None and self.clock() >= self.wake_at:
                self.handle(Tick(self.clock()))


class VirtualClock:
    """A clock the caller moves: scripted sessions run a 60-s countdown in milliseconds."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def advance(shell: Shell, clock: VirtualClock, until: float) -> None:
    """Move a virtual clock to `until`, delivering every Tick the core asked for on the way."""
    while shell.wake_at is not None and shell.wake_at <= until:
        clock.now = max(clock.now, shell.wake_at)
        shell.handle(Tick(clock.now))
    clock.now = max(clock.now, until)
