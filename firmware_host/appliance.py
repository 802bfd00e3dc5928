"""The appliance assembled: configuration, journal, hardware and shell, and the replay that resumes.

A session is a journal "game" of kind `appliance`: its starting settings are kept in its meta, its
input events (kind `input`) are what the state is folded from. On start an open session is replayed and
continued — a running timer comes back paused — otherwise a new session starts with the remembered
settings. Start-up order: journal, state, hardware (inputs last: buttons, then card readers), outputs
wired (`shell_effects`), first frame; `close()` runs in reverse. The shell writes the journal through
`shell_journal.SessionJournal`.
"""

from __future__ import annotations

import gc
import logging
import queue
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_host.config import Resolved
from firmware_host.core import app
from firmware_host.core.effects import Effect
from firmware_host.core.event_codec import CodecError, decode
from firmware_host.core.events import Event, Notice, Resumed, Trouble, kept_event
from firmware_host.core.settings import Settings, still_chosen
from firmware_host.core.sounds import Note
from firmware_host.journal import Journal, JournalDamaged, JournalEntry, JournalError
from firmware_host.kept_store import load_kept
from firmware_host.panel import PanelGuard
from firmware_host.paths import journal_path
from firmware_host.shell import GAME_EFFECTS, Outputs, Shell
from firmware_host.shell_effects import appliance_outputs
from firmware_host.shell_journal import INPUT, SESSION, SessionJournal
from hw.build import Hardware, build, open_display
from hw.protocols import Bar, Display, Sounder

log = logging.getLogger("wordtable")


def settings_from_config(resolved: Resolved, remembered: Mapping[str, Any]) -> Settings:
    """The config's settings, overridden by what the table chose since in the menu — unless the config
    file changed that key after the menu change (`settings.still_chosen`: the newer of the two wins)."""
    base = _config_settings(resolved)
    return base.with_remembered(still_chosen(remembered, base.remembered()))


def _config_settings(resolved: Resolved) -> Settings:
    cfg = resolved.config
    players = cfg.scoreboard.players
    base = Settings(
        duration_s=cfg.timer.duration_s,
        presets=cfg.timer.presets,
        warn_s=cfg.timer.warn_s,
        alarm_s=cfg.timer.alarm_s,
        volume=cfg.timer.volume,
        lang=cfg.appliance.language,
        player_names=players,
        player_count=len(players) if players else 4,
        turns=cfg.turn_timer.settings(),
        contrast=cfg.screen.contrast,
        dim_after_min=cfg.screen.dim_after_min,
        blank_after_min=cfg.screen.blank_after_min,
        reveal=cfg.dictionary.reveal,
    )
    return base


def replay(start: app.AppState, entries: Iterable[Mapping[str, Any]]) -> tuple[app.AppState, int]:
    """Fold journaled input events into the state; returns it and how many entries were set aside —
    unreadable, or failing in the core (each logged, the state left as it was before it)."""
    state = start
    skipped = 0
    for payload in entries:
        try:
            state = app.fold(state, decode(dict(payload)))
        except CodecError as exc:
            skipped += 1
            log.warning("resume: unreadable journal entry set aside: %s", _clip(str(exc)))
        except Exception:  # a poison entry must not keep the table dark forever
            skipped += 1
            log.exception("resume: journal entry set aside, the core failed on it: %s", _clip(repr(payload)))
    return state, skipped


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


@dataclass
class Appliance:
    shell: Shell
    hardware: Hardware
    journal: Journal | None  # None: the journal could not be opened, nothing is saved
    league: Any = None  # the league publisher (`firmware_host.league.publisher.Publisher`) when configured
    _closed: bool = False

    def close(self) -> None:
        """Stop in reverse order of start-up: inputs first, then outputs (LEDs off, silent), journal last."""
        if self._closed:
            return
        self._closed = True
        if self.league is not None:
            self.league.close()
        self.hardware.close()
        if self.journal is not None:
            self.journal.close()


def settle_heap() -> None:
    """Once the appliance is up (the service, the live simulator): collect start-up's garbage and freeze
    what is left, which lives as long as the process. A full collection then no longer walks those ~30,000
    objects (15–25 ms here, several times that on a Pi), which could otherwise land on a button or the alarm."""
    gc.collect()
    gc.freeze()


def open_appliance(
    resolved: Resolved,
    state_dir: Path,
    *,
    clock: Callable[[], float] = time.monotonic,
    pin_factory: Any = None,
    display_device: Any = None,
    outputs_hook: Callable[[Outputs], Outputs] = lambda outputs: outputs,
    power_off: Callable[[], None],
    prepare_lists: bool = False,
) -> Appliance:
    """Open the journal, resume or start a session, start the hardware (card readers included) and draw
    the first frame. `power_off` is what a confirmed "Ausschalten" does; `outputs_hook` lets the
    simulator observe (wrap) what the shell drives. `prepare_lists` (the service and the live simulator)
    opens the word lists in the background at start: the German one always (Das perfekte Wort's word
    hint asks it every round), the English one when the reveal is on.

    A journal that cannot be opened or written at start (state directory missing, read-only or full) is
    no reason to stay dark: the appliance starts without one, from the config's settings, and says on
    the OLED and in the log that nothing is saved. Hardware errors raise `HardwareError`."""
    journal, trouble = _open_journal(state_dir)
    resumed: tuple[app.AppState, list[Effect], SessionJournal | None, int] | None = None
    if journal is not None:
        try:
            try:
                resumed = _resume_or_start(journal, resolved, clock)
            except JournalDamaged as exc:  # damage the open's checks could not see, found by the replay
                log.error("%s: moved aside, a fresh journal starts with what still reads", exc)
                journal = journal.set_aside(f"damaged ({exc.detail})")
                resumed = _resume_or_start(journal, resolved, clock)
        except JournalError as exc:
            log.error("journal unusable, nothing is saved: %s", exc)
            journal.close()
            journal, trouble = None, _reason(exc)
    if resumed is None:
        start = app.initial(settings_from_config(resolved, {}), clock())[0]
        resumed = start, app.view(start), None, 0
    state, effects, target, skipped = resumed
    try:
        display = open_display(resolved.profile, display_device)
    except BaseException:
        if journal is not None:
            journal.close()
        raise

    inbox: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
    board = FirstFrame(display)
    hardware: Hardware | None = None
    try:
        outputs = outputs_hook(appliance_outputs(
            board, journal, state_dir, dictionary=resolved.config.dictionary.path,
            system_lists=resolved.config.dictionary.system, reveal_words=resolved.config.dictionary.reveal_words,
            power_off=power_off,
            from_file=_config_settings(resolved).remembered(),
            prepare_lists=(("de", "en") if state.settings.reveal != "off" else ("de",)) if prepare_lists else (),
        ))
        shell = Shell(state, outputs, clock=clock, journal=target, inbox=inbox, panel=PanelGuard(display))
        shell.start(effects)  # the first frame, while the bar and the buzzer keep what they are told
        hardware = build(resolved.profile, emit=inbox.put, pin_factory=pin_factory, display=display, clock=clock,
                         keyboard_layout=resolved.config.keyboard.layout)
        board.attach(hardware)
    except BaseException:  # e.g. an output left unwired: nothing may stay running
        (display if hardware is None else hardware).close()
        if journal is not None:
            journal.close()
        raise
    league = _start_league(resolved, shell, target, journal, clock)
    if trouble is not None:
        shell.handle(Trouble("unsaved", trouble, clock()))
    if skipped:
        shell.handle(Trouble("skipped", str(skipped), clock()))
    items, problems = load_kept(state_dir)
    kept = kept_event(items, clock())
    if kept.items != shell.state.kept:
        shell.handle(kept)
    for text in problems:
        log.warning("%s", text)
        shell.handle(Notice(_clip(text, 120), clock()))
    moved = journal.moved_aside if journal is not None else None
    if moved is not None and moved.salvaged is not None:
        saved = moved.salvaged
        shell.handle(Trouble("salvaged", f"{saved.events}/{saved.highest_seq}", clock()))
    elif moved is not None:
        shell.handle(Trouble("moved", moved.reason, clock()))
    shell.ask_again()
    return Appliance(shell, hardware, journal, league)


class FirstFrame:
    """The board while the first frame is drawn: the display, and a bar and a sounder that keep what they
    are told (the latest level; the latest sound, or its stop) until the rest of the board has started
    (`attach`), then pass everything on. The first frame needs neither, nor the time gpiozero takes to
    load, so it is on the display first."""

    def __init__(self, display: Display) -> None:
        self.display = display
        self.bar = _LateBar()
        self.sounder = _LateSounder()

    def attach(self, hardware: Hardware) -> None:
        self.bar.attach(hardware.bar)
        self.sounder.attach(hardware.sounder)


class _LateBar:
    def __init__(self) -> None:
        self._bar: Bar | None = None
        self._level: float | None = None

    def attach(self, bar: Bar) -> None:
        self._bar = bar
        if self._level is not None:
            bar.set_level(self._level)

    def set_level(self, level: float) -> None:
        if self._bar is None:
            self._level = level
        else:
            self._bar.set_level(level)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


class _LateSounder:
    def __init__(self) -> None:
        self._sounder: Sounder | None = None
        self._kept: tuple[Sequence[Note], float] | None = None  # the latest sound asked for, not yet played

    def attach(self, sounder: Sounder) -> None:
        self._sounder = sounder
        if self._kept is not None:
            sounder.play(*self._kept)

    def play(self, notes: Sequence[Note], duty: float = 0.5) -> None:
        if self._sounder is None:
            self._kept = (notes, duty)
        else:
            self._sounder.play(notes, duty)

    def stop(self) -> None:
        if self._sounder is None:
            self._kept = None
        else:
            self._sounder.stop()

    def close(self) -> None:
        if self._sounder is not None:
            self._sounder.close()


def _start_league(resolved: Resolved, shell: Shell, target: SessionJournal | None, journal: Journal | None,
                  clock: Callable[[], float]) -> Any:
    """The league publisher when `[league]` names a broker: it follows the shell's state and the
    journal's outbox (docs/league.md). It connects in the background: no broker stops no start."""
    config = resolved.config.league
    if not config.enabled:
        return None
    from firmware_host.league.publisher import Publisher

    publisher = Publisher(config, journal.path if journal is not None and target is not None else None, clock=clock)
    if target is not None:
        target.league, target.on_queued = True, publisher.wake
    previous = shell.on_state

    def on_state(state: app.AppState) -> None:
        publisher.state_changed(state)
        if previous is not None:
            previous(state)

    shell.on_state = on_state
    publisher.state_changed(shell.state)
    publisher.start()
    return publisher


def _open_journal(state_dir: Path) -> tuple[Journal | None, str | None]:
    """The journal in `state_dir`, or None and the reason (`Trouble` "unsaved") when it cannot be had."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        return Journal.open(journal_path(state_dir)), None
    except (OSError, JournalError) as exc:
        log.error("no journal in %s, nothing is saved: %s", state_dir, exc)
        return None, _reason(exc)


def _reason(exc: Exception) -> str:
    text = str(exc).lower()
    if "full" in text or "no space" in text or "too large" in text:
        return "full"
    if any(word in text for word in ("read-only", "readonly", "permission", "unable to open", "not a directory")):
        return "readonly"
    return "error"


def _resume_or_start(
    journal: Journal, resolved: Resolved, clock: Callable[[], float]
) -> tuple[app.AppState, list[Effect], SessionJournal, int]:
    """Replay the open session if there is one; start a new session when none is open, or when the
    replayed one is idle (`app.can_snapshot`: no game, no menu, the timer stopped). Entries that
    fail are set aside (`replay`); the last value is how many."""
    session = journal.open_game(SESSION)
    skipped = 0
    try:
        start = app.restore(journal.meta(session)["snapshot"]) if session is not None else None
    except JournalDamaged:
        raise
    except (JournalError, AttributeError, KeyError, TypeError, ValueError) as exc:  # a snapshot not ours
        log.error("session %s cannot be resumed, a new one starts: %s", session, exc)
        start, skipped = None, 1
    if session is not None and start is not None:
        read = Read()
        state, skipped = replay(start, read(journal.stream(session, kinds=(INPUT,))))
        log.info("replayed session %d: %d journaled events", session, read.count)
        if not app.can_snapshot(state):
            table = journal.open_game(other_than=SESSION)
            target = SessionJournal(journal, session, table, entries=read.count)
            off_s = _seconds_off(read.last_wall_time) if read.last_wall_time is not None else 0.0
            resumed = Resumed(clock(), off_s)
            state, effects = app.step(state, resumed)
            target.commit(resumed, [e for e in effects if isinstance(e, GAME_EFFECTS)])
            return state, effects, target, skipped
        idle = app.snapshot(state)  # the table as it was, with the settings as they stand now
        del idle["page"]  # and the table page as this start serves it (`PageInfo`), if at all
        settings = settings_from_config(resolved, journal.settings())
        if state.timer.countdown.is_full() and not state.timer.alarmed:
            del idle["timer"]  # a full timer is full for the duration that stands now
        base = app.restore({**idle, "settings": settings.to_dict()})
    else:
        base = app.initial(settings_from_config(resolved, journal.settings()))[0]
    session = journal.start_game(SESSION, base.board.players, {"snapshot": app.snapshot(base)})
    state = replace(base, now=clock())
    return state, app.view(state), SessionJournal(journal, session), skipped


class Read:
    """Passes a stream of journal entries on as their payloads, counting them and keeping the last
    one's wall time (a resume streams the session instead of holding it)."""

    def __init__(self) -> None:
        self.count = 0
        self.last_wall_time: str | None = None

    def __call__(self, entries: Iterable[JournalEntry]) -> Iterator[Mapping[str, Any]]:
        for entry in entries:
            self.count += 1
            self.last_wall_time = entry.wall_time
            yield entry.payload


def _seconds_off(last_wall_time: str) -> float:
    """Wall-clock seconds since a journal entry's label (0 when it cannot be read or lies ahead: a Pi
    without a real-time clock may boot with a clock behind the journal)."""
    try:
        then = datetime.fromisoformat(last_wall_time.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    return max(0.0, (datetime.now(UTC) - then).total_seconds())
