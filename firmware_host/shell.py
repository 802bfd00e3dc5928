"""The shell: the only place where threads, time and I/O meet the pure core.

Drivers call `Shell.put(event)` from their threads. One loop takes events off a queue; for each it
(1) runs `core.step` (pure), (2) journals the event together with the game-record lines it caused, in one
transaction, (3) hands its frame to the display while the storage syncs that transaction, (4) carries out
the other effects on the drivers, (5) tells the observers of the state (the table page, the league). The
loop waits on the queue until the earliest of its deadlines (`Deadline`: the core's wake-up, delivered as a
`Tick`; the next page of a long text; the panel's dimming) and acts on it; when none is set it blocks on the
queue — no polling.

Nothing the table does stops the loop: an event the core fails on is set aside (logged, the table told,
the state unchanged, never journaled); a journal that cannot be written is given up — the table is told
that nothing is saved from then on, and the timer, the alarm and the games go on in memory.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

from firmware_host.core import app
from firmware_host.core.app.state import t
from firmware_host.core.effects import (
    Beep,
    BeginGame,
    Checkpoint,
    CheckWords,
    Effect,
    EndGame,
    JournalAs,
    Keep,
    Log,
    PowerOff,
    Record,
    Retract,
    RevealBest,
    SaveSettings,
    SetBar,
    SetOwnerPin,
    Show,
    Snapshottable,
    WakeAt,
)
from firmware_host.core.events import (
    DISPLAY_ONLY,
    BestRevealed,
    Event,
    LongPress,
    Notice,
    Press,
    Tick,
    Trouble,
    Turn,
    WordsChecked,
    event_time,
)
from firmware_host.core.games.word_groups import WordGroups
from firmware_host.core.screens import BigScreen, Screen
from firmware_host.core.sounds import Note, duty, notes
from firmware_host.journal import JournalError
from firmware_host.panel import PanelGuard
from firmware_host.storage_errors import storage_reason
from hw.protocols import Bar, Display, Sounder

log = logging.getLogger("wordtable")

CHECKPOINT_S = app.CHECKPOINT_S  # the core's (`Checkpoint`): a running timer's Tick is journaled at most this often
PAGE_S = 2.0  # a text too long for the panel shows a page at a time, each this long (`Outputs.pager`)


GAME_EFFECTS = (BeginGame, Record, Retract, EndGame)
ASKS = (CheckWords, RevealBest)  # the questions to the word list, answered as the next input


class JournalLike(Protocol):
    def commit(self, event: Event | None, effects: Sequence[BeginGame | Record | Retract | EndGame] = ()) -> None:
        """Journal an input event (None: none) and the game-record effects it caused (begin a game, a
        line, take back a line, end), all or nothing: written, so that a crash of the process keeps it,
        and on the storage after `sync`. Raises an exception when nothing was written."""

    def sync(self) -> None:
        """Put what was committed on the storage (a power cut keeps it). Raises an exception when the
        storage fails."""

    def compact(self, state: app.AppState) -> None:
        """After a commit, with the state it led to when that can be snapshotted (`Snapshottable`): keep
        what a resume replays short."""

    def cache(self, state: app.AppState) -> None:
        """After a sync, with the state it led to when that cannot be snapshotted (an open game): keep it
        now and then, so that a start replays only what came after (a cache; never raises)."""

    def tidy(self) -> None:
        """When nothing waits for the journal (an input's effects are out): its upkeep, e.g. a checkpoint.
        Never raises."""


@dataclass(frozen=True)
class Deadline:
    """A moment the loop acts at without an input: `next_at()` is the next one (None: none), `act(now)` what
    happens then; acting moves `next_at` past `now`."""

    name: str
    next_at: Callable[[], float | None]
    act: Callable[[float], None]


Renderer = Callable[[Screen, tuple[int, int], int], Any]  # (screen, panel size, page) -> image; pure, and
# cheap for a frame it drew just before
Pager = Callable[[Screen, tuple[int, int]], int]  # how many pages the screen's longest text has (1: it fits)


@dataclass(kw_only=True)
class Outputs:
    """Where effects go. Every output is wired explicitly (no defaults): one left out is a TypeError, one
    given as None a ValueError, both at construction — before the shell starts, never silently later.
    `renderer` turns a screen model into an image; `firmware_host.shell_effects` wires the appliance's."""

    bar: Bar
    sounder: Sounder
    display: Display
    renderer: Renderer
    pager: Pager
    save_settings: Callable[[dict[str, Any]], None]  # `SaveSettings`: remember the table's choices
    power_off: Callable[[], None]  # `PowerOff`: switch the machine off
    on_frame: Callable[[Screen, Any], None]  # every frame drawn (the sim mirrors frames here)
    on_sound: Callable[[str, tuple[Note, ...]], None]  # every `Beep`, played or silent
    keep: Callable[[str, Any], None]  # `Keep`: store data under name
    check_words: Callable[[tuple[str, ...]], dict[str, bool] | None]  # `CheckWords`; None: no word list
    word_lists: Callable[[str], WordGroups | None]  # `RevealBest`: the list of a language; None: none
    owner_pin: Callable[[str | None], None]  # `SetOwnerPin`: keep the PIN's hash (None: remove it)

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
    _answers: list[Event] = field(default_factory=list)
    _owed: list[Effect] = field(default_factory=list)  # questions `start` kept back for `ask_again`
    frames: int = 0
    page: int = 0  # the page of the screen's long texts on the panel now (the renderer pages them)
    pages: int = 1
    page_at: float | None = None  # when the next page is due (None: everything fits, or resting: `_next_page`)
    ticking: bool = False  # the screen on the panel came as a tick of the one before (its clock runs)
    panel: PanelGuard | None = None  # the OLED's contrast, dimming and burn-in guard (None: left alone)
    inbox: queue.SimpleQueue[Event | None] = field(default_factory=queue.SimpleQueue)
    observers: list[Callable[[app.AppState], None]] = field(default_factory=list)  # `observe`
    deadlines: list[Deadline] = field(default_factory=list)  # the wake-up, the pages, the panel, then `add_deadline`

    def __post_init__(self) -> None:
        self.deadlines[:0] = [
            Deadline("wake-up", lambda: self.wake_at, self._tick),
            Deadline("page", lambda: self.page_at, self.turn_page),
            Deadline("panel", lambda: None if self.panel is None else self.panel.next_at(), self._check_panel),
        ]

    def observe(self, observer: Callable[[app.AppState], None]) -> None:
        """Call `observer` with the state after every handled event, after those observing already. Each is
        on its own: one that raises is logged and neither stops the table nor the others."""
        self.observers.append(observer)

    def add_deadline(self, deadline: Deadline) -> None:
        """Let the loop (and `advance` on a virtual clock) act at `deadline`'s moments too, after the others
        due at the same moment."""
        self.deadlines.append(deadline)

    def put(self, event: Event) -> None:
        """Hand an event to the loop. Thread-safe; drivers call this from their callbacks."""
        self.inbox.put(event)

    def stop(self) -> None:
        """Make `run` return after the event in hand. Thread-safe (a signal handler may call it)."""
        self.inbox.put(None)

    def start(self, effects: list[Effect]) -> None:
        """Carry out the effects of the initial (or resumed) state — but for the word-list questions a
        resume asks again (`core.flow.Asks`), which wait for `ask_again`: a search may take seconds."""
        self._owed = [effect for effect in effects if isinstance(effect, ASKS)]
        self.carry_out([effect for effect in effects if not isinstance(effect, ASKS)])
        self._panel_follows(self.clock(), active=True)

    def ask_again(self) -> None:
        """Ask the questions `start` kept back and handle their answers, journaled like any answer
        (called once the inputs are started: what they send meanwhile waits in the queue)."""
        owed, self._owed = self._owed, []
        self.carry_out(owed)
        if self._answers:
            self.handle(self._answers.pop(0))

    def handle(self, event: Event) -> list[Effect]:
        """Handle one event and then the answers it asked for (see `CheckWords`), in order. A button that
        finds the panel dark (the burn-in guard) only lights it again: nobody saw what they pressed."""
        if self.panel is not None and not isinstance(event, Tick):
            self.panel.check(event_time(event))  # as the loop's timeout would have by now
            woken = self.panel.active(event_time(event))
            if woken and isinstance(event, (Press, LongPress, Turn)):
                return []
        effects = self._handle(event)
        while self._answers:
            effects += self._handle(self._answers.pop(0))
        for observer in self.observers:
            try:
                observer(self.state)
            except Exception:  # an observer (the page, the league) must never stop the table
                log.exception("publishing the state to %r failed", observer)
        self._panel_follows(event_time(event), active=not isinstance(event, Tick))
        if self.journal is not None:
            self.journal.tidy()  # the frame is with the display: a checkpoint now delays nothing shown
        return effects

    def _panel_follows(self, now: float, active: bool) -> None:
        """The panel after a step: the settings' contrast and idle times; a running timer or a ringing
        alarm keeps the table active."""
        if self.panel is None:
            return
        s = self.state.settings
        self.panel.configure(s.contrast, s.dim_after_min, s.blank_after_min, now)
        if active or self.state.timer.running or self.state.ringing is not None:
            self.panel.active(now)

    def _handle(self, event: Event) -> list[Effect]:
        """Step the core, journal the event with the record lines it caused, carry out the effects.

        An input is written to the journal before any of its effects is carried out, so a crash of the
        process never loses what the table was shown. Its frame then goes to the display while the storage
        syncs the write (the sync and the bus take milliseconds each, and neither needs the processor);
        every other effect — the sound, the LEDs, the answer to a phone, the league — comes after the sync,
        and so does the return (acknowledged = on storage). A power cut in that sync can only take the
        frame with it, which goes dark with the power. A clock tick is no input: it is journaled after its
        effects — so the alarm never waits for the storage — and only when the core says it matters for a
        resume (`Checkpoint`: every CHECKPOINT_S while the timer runs, the alarm, a tick that changed the
        game record). What is only shown (`events.DISPLAY_ONLY`: a keyboard's line in the making, the
        takeovers waiting) is never journaled; where the core says what an input meant (`JournalAs`), that
        is journaled in its place."""
        try:
            state, effects = app.step(self.state, event)
        except Exception:  # one bad event must not stop the table
            log.exception("the core failed on %r; the event is set aside", event)
            state, effects = app.step(self.state, Trouble("set_aside", type(event).__name__, event_time(event)))
            self.state = state
            self.carry_out(effects)
            return effects
        if isinstance(event, DISPLAY_ONLY):
            self.state = state
            self.carry_out(effects)
            return effects
        event = next((effect.event for effect in effects if isinstance(effect, JournalAs)), event)
        game = [effect for effect in effects if isinstance(effect, GAME_EFFECTS)]
        snapshottable = any(isinstance(effect, Snapshottable) for effect in effects)
        if isinstance(event, Tick):
            self.state = state
            self.carry_out(effects)
            if any(isinstance(effect, Checkpoint) for effect in effects):
                state, more = self._journal(event, game, self.state, [])
                self.state, synced = self._sync(event, state, snapshottable)
                self.carry_out(more + synced)
                effects += more + synced
            return effects
        state, effects = self._journal(event, game, state, effects)
        self.state = state
        self.carry_out([effect for effect in effects if isinstance(effect, Show)])
        self.state, more = self._sync(event, self.state, snapshottable)
        self.carry_out([effect for effect in effects if not isinstance(effect, Show)] + more)
        return effects + more

    def _journal(
        self, event: Event, game: list[Effect], state: app.AppState, effects: list[Effect]
    ) -> tuple[app.AppState, list[Effect]]:
        """Write `event` and its `game` effects (`JournalLike.commit`): `(state, effects)` as they were, or
        the journal is given up (`_give_up`)."""
        if self.journal is None:
            return state, effects
        try:
            self.journal.commit(event, [effect for effect in game if isinstance(effect, GAME_EFFECTS)])
        except (JournalError, OSError, sqlite3.Error) as exc:
            return self._give_up(exc, state, event)
        return state, effects

    def _sync(self, event: Event, state: app.AppState, snapshottable: bool) -> tuple[app.AppState, list[Effect]]:
        """Put what `_journal` wrote for `event` on the storage, then keep the journal short (`compact`, with
        the `state` it led to when the core said it can be snapshotted: `Snapshottable`): `(state, [])`, or
        the journal is given up (`_give_up`)."""
        if self.journal is None:
            return state, []
        try:
            self.journal.sync()
            if snapshottable:
                self.journal.compact(state)
            else:
                self.journal.cache(state)
        except (JournalError, OSError, sqlite3.Error) as exc:
            return self._give_up(exc, state, event)
        return state, []

    def _keep(self, effect: Keep) -> None:
        """Write a kept item's file (`Outputs.keep`). The journal holds the item already (the input that
        made it is journaled, and a replay makes it again), so a file that cannot be written loses nothing:
        the table is told (a `Trouble`, handled after this input) and the next start writes it again."""
        try:
            self.outputs.keep(effect.name, effect.data)
        except OSError as exc:
            log.error("kept item %s not written (the journal has it): %s", effect.name, exc)
            self._answers.append(Trouble("kept", storage_reason(exc), self.clock()))

    def _owner_pin(self, effect: SetOwnerPin) -> None:
        """Keep or remove the owner PIN (`Outputs.owner_pin`); a file that cannot be written is told."""
        try:
            self.outputs.owner_pin(effect.pin)
        except OSError as exc:
            log.error("owner PIN not kept: %s", exc)
            self._answers.append(Notice(t(self.state.settings, "pin_unsaved"), self.clock()))

    def _give_up(self, exc: Exception, state: app.AppState, event: Event) -> tuple[app.AppState, list[Effect]]:
        """The journal failed: it is given up, and the table is told — the `Trouble` stepped on `state`. A
        failed write (`_journal`) returns its state and effects instead of the event's own; a failed sync
        (`_sync`: the event was written) adds its effects to the event's."""
        log.error("journal write failed, nothing is saved from now on: %s", exc)
        self.journal = None
        return app.step(state, Trouble("unsaved", storage_reason(exc), event_time(event)))

    def carry_out(self, effects: list[Effect]) -> None:
        out = self.outputs
        for effect in effects:
            if isinstance(effect, Show):
                if effect.screen != self.screen:  # redraw only what changed: the I2C bus is slow
                    self.page, self.page_at, self.pages = self._placement(effect.screen, self.clock())
                    self.ticking = self.screen is not None and _ticked(self.screen, effect.screen)
                    self.screen = effect.screen
                    self._draw()
            elif isinstance(effect, SetBar):
                if effect.level != self.bar_level:
                    self.bar_level = effect.level
                    out.bar.set_level(effect.level)
            elif isinstance(effect, Beep):
                sound = notes(effect.pattern, effect.volume)
                if sound:
                    out.sounder.play(sound, duty(effect.volume))
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
            elif isinstance(effect, RevealBest):
                self._reveal(effect)
            elif isinstance(effect, Keep):
                self._keep(effect)
            elif isinstance(effect, PowerOff):
                out.power_off()
            elif isinstance(effect, SetOwnerPin):
                self._owner_pin(effect)

    def _placement(self, screen: Screen, now: float) -> tuple[int, float | None, int]:
        """(page, when the next is due, pages) at which `screen` replaces the one on the panel at `now`."""
        try:
            pages = self.outputs.pager(screen, self.outputs.display.size)
        except Exception:
            pages = 1
        if not (pages == self.pages > 1 and self.screen is not None and _ticked(self.screen, screen)):
            return 0, now + PAGE_S if pages > 1 else None, pages  # another text: from its first page
        if self.page_at is not None and now >= self.page_at:  # a ticking clock pages on; one due now: here
            return (*self._next_page(screen, self.page_at, now, ticking=True), pages)
        return self.page, self.page_at, pages

    def _next_page(self, screen: Screen, due: float, now: float, ticking: bool) -> tuple[int, float | None]:
        """The page after the one on the panel (which was `due`), and when the one after it is due. A big
        value whose clock runs (`ticking`) and whose only long text is its footer (a hint) rests on the first
        page once every page was shown: the hint does not flip under the digits for as long as the clock
        runs (calmer across the table, and the bus stays quiet). A long title keeps turning: it may say what
        the round is about."""
        page = self.page + 1
        if ticking and isinstance(screen, BigScreen) and page % self.pages == 0 and self._footer_pages_alone(screen):
            return 0, None
        return page, max(due + PAGE_S, now)

    def _footer_pages_alone(self, screen: BigScreen) -> bool:
        try:
            return self.outputs.pager(replace(screen, footer=""), self.outputs.display.size) == 1
        except Exception:
            return False

    def _draw(self) -> None:
        """Put the screen on the panel at the current page."""
        out, screen = self.outputs, self.screen
        if screen is None:
            return
        try:
            image = out.renderer(screen, out.display.size, self.page)
        except Exception:  # a screen that cannot be drawn must not stop the timer
            log.exception("cannot draw %r", screen)
            return
        out.display.show(image)
        self.frames += 1
        out.on_frame(screen, image)

    def turn_page(self, now: float) -> None:
        """The next page of the screen's long texts (no event: the core's state does not change)."""
        if self.page_at is None or self.screen is None:
            return
        self.page, self.page_at = self._next_page(self.screen, self.page_at, now, self.ticking)
        self._draw()

    def _reveal(self, effect: RevealBest) -> None:
        """Solve `effect` over the word list of its language; the answer is the next input."""
        words = self.outputs.word_lists(effect.language)
        if words is None:
            return
        try:
            best = effect.solve(words)
        except Exception:  # a reveal that fails must not stop the table
            log.exception("the reveal of round %d failed", effect.round)
            return
        self._answers.append(BestRevealed(effect.round, words.name, best, self.clock()))

    def next_due(self) -> float | None:
        """The earliest moment a deadline is due (None: none is set)."""
        due = [at for at in (deadline.next_at() for deadline in self.deadlines) if at is not None]
        return min(due) if due else None

    def act_due(self, now: float) -> bool:
        """Act on the first deadline due at `now`, in the order of `deadlines` (the core's wake-up first);
        False when none is due."""
        for deadline in self.deadlines:
            at = deadline.next_at()
            if at is not None and at <= now:
                deadline.act(now)
                return True
        return False

    def _tick(self, now: float) -> None:
        self.handle(Tick(now))

    def _check_panel(self, now: float) -> None:
        if self.panel is not None:
            self.panel.check(now)

    def run(self, on_idle: Callable[[], None] = lambda: None, idle_every: float | None = None) -> None:
        """The loop, until `stop()`. `on_idle` runs at least every `idle_every` seconds (the watchdog)."""
        while True:
            due = self.next_due()
            timeout = None if due is None else max(0.0, due - self.clock())
            if idle_every is not None:
                timeout = idle_every if timeout is None else min(timeout, idle_every)
            try:
                event = self.inbox.get(timeout=timeout)
            except queue.Empty:
                self.act_due(self.clock())
                on_idle()
                continue
            if event is None:
                return
            self.handle(event)
            on_idle()
            self.act_due(self.clock())


_TICKING = ("title", "big", "time", "status", "inverted")  # what a running clock changes on a screen


def _ticked(before: Screen, after: Screen) -> bool:
    """Whether `after` is `before` with only what a running clock changes (a title's time, the big digits,
    the alarm's flash): its long texts keep turning their pages instead of starting again every second."""
    if type(before) is not type(after):
        return False
    return all(getattr(before, f.name) == getattr(after, f.name) for f in fields(before) if f.name not in _TICKING)


class VirtualClock:
    """A clock the caller moves: scripted sessions run a 60-s countdown in milliseconds."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def advance_once(shell: Shell, clock: VirtualClock, until: float) -> bool:
    """Move a virtual clock to the next moment up to `until` at which `run` would act, and act as it would
    (`Shell.act_due`: a Tick when the core's wake-up is due, first; else the next page of a long text, else
    the panel's dimming). False when nothing is due up to `until` (the clock has not moved)."""
    due = shell.next_due()
    if due is None or due > until:
        return False
    clock.now = max(clock.now, due)
    return shell.act_due(clock.now)


def advance(shell: Shell, clock: VirtualClock, until: float) -> None:
    """Move a virtual clock to `until`, acting on every deadline due on the way (every Tick the core asked
    for, every page of a long text, the panel's dimming), in the order `run` would on the real clock."""
    while advance_once(shell, clock, until):
        pass
    clock.now = max(clock.now, until)
