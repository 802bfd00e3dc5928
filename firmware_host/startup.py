"""The appliance put together around a session (`resume.Session`): the display first and the first frame
on it, then the rest of the board (inputs last: buttons, then card readers), the league, and what the
table is told about the start (nothing saved, entries set aside, kept items, a journal moved aside).

A failure while assembling leaves nothing running: what was started is closed again before it raises.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from firmware_host.config import Resolved
from firmware_host.core.app import kept_items
from firmware_host.core.app.state import t
from firmware_host.core.events import Event, Notice, Trouble, kept_event
from firmware_host.core.sounds import Note
from firmware_host.kept_store import load_kept, repair_kept
from firmware_host.panel import PanelGuard
from firmware_host.resume import Session, clip
from firmware_host.shell import Outputs, Shell
from firmware_host.shell_effects import appliance_outputs
from hw.build import Hardware, build, open_display
from hw.protocols import Bar, Display, Sounder

log = logging.getLogger("wordtable")


def assemble(
    resolved: Resolved,
    state_dir: Path,
    session: Session,
    *,
    clock: Callable[[], float],
    pin_factory: Any,
    display_device: Any,
    outputs_hook: Callable[[Outputs], Outputs],
    power_off: Callable[[], None],
    from_file: Mapping[str, Any],
    prepare_lists: bool,
) -> tuple[Shell, Hardware]:
    """The shell over the board, the session's first frame drawn: the display is opened and shows it
    before the rest of the board starts (`FirstFrame`). The journal stays the caller's to close."""
    display = open_display(resolved.profile, display_device)
    inbox: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
    board = FirstFrame(display)
    hardware: Hardware | None = None
    state = session.state
    try:
        outputs = outputs_hook(appliance_outputs(
            board, session.journal, state_dir, dictionary=resolved.config.dictionary.path,
            system_lists=resolved.config.dictionary.system, reveal_words=resolved.config.dictionary.reveal_words,
            power_off=power_off, from_file=from_file,
            prepare_lists=(("de", "en") if state.settings.reveal != "off" else ("de",)) if prepare_lists else (),
        ))
        shell = Shell(state, outputs, clock=clock, journal=session.target, inbox=inbox, panel=PanelGuard(display))
        shell.start(session.effects)  # the first frame, while the bar and the buzzer keep what they are told
        hardware = build(resolved.profile, emit=inbox.put, pin_factory=pin_factory, display=display, clock=clock,
                         keyboard_layout=resolved.config.keyboard.layout)
        board.attach(hardware)
    except BaseException:  # e.g. an output left unwired: nothing may stay running
        (display if hardware is None else hardware).close()
        raise
    return shell, hardware


def start_league(resolved: Resolved, shell: Shell, session: Session, clock: Callable[[], float]) -> Any:
    """The league publisher when `[league]` names a broker: it observes the shell's state and follows the
    journal's outbox (docs/league.md). It connects in the background: no broker stops no start."""
    config = resolved.config.league
    if not config.enabled:
        return None
    from firmware_host.league.publisher import Publisher

    journal, target = session.journal, session.target
    publisher = Publisher(config, journal.path if journal is not None and target is not None else None, clock=clock)
    if target is not None:
        target.league, target.on_queued = True, publisher.wake
    shell.observe(publisher.state_changed)
    publisher.state_changed(shell.state)
    publisher.start()
    return publisher


def tell_the_table(shell: Shell, session: Session, state_dir: Path, clock: Callable[[], float]) -> None:
    """What the start has to say, as events the shell handles: nothing saved and why, entries the replay
    set aside, the kept items (and the files that did not read), a journal moved aside or salvaged — a
    salvage says up to when the game was saved ("Spiel bis 20:41 gerettet": the local time of the last
    entry kept), on the panel and in the log."""
    if session.unsaved is not None:
        shell.handle(Trouble("unsaved", session.unsaved, clock()))
    if session.skipped:
        shell.handle(Trouble("skipped", str(session.skipped), clock()))
    items, problems = load_kept(state_dir)
    journaled = dict(kept_items(shell.state.kept))
    kept = kept_event({**items, **journaled}, clock())  # the journal's items win; files add what it lacks
    if kept.items != shell.state.kept:
        shell.handle(kept)
    problems += repair_kept(state_dir, journaled, items)
    for text in problems:
        log.warning("%s", text)
        shell.handle(Notice(clip(text, 120), clock()))
    moved = session.journal.moved_aside if session.journal is not None else None
    until = clock_time(moved.salvaged.last_wall_time) if moved is not None and moved.salvaged is not None else None
    if until is not None:
        text = t(shell.state.settings, "salvaged_until", time=until)
        log.warning("%s", text)
        shell.handle(Notice(text, clock()))
    elif moved is not None and moved.salvaged is not None:
        saved = moved.salvaged
        shell.handle(Trouble("salvaged", f"{saved.events}/{saved.highest_seq}", clock()))
    elif moved is not None:
        shell.handle(Trouble("moved", moved.reason, clock()))


def clock_time(wall_time: str | None) -> str | None:
    """A journal entry's wall-clock label (ISO 8601, UTC) as the box's local time of day, "20:41"; None
    when there is none or it does not read."""
    if wall_time is None:
        return None
    try:
        return datetime.fromisoformat(wall_time).astimezone().strftime("%H:%M")
    except ValueError:
        return None


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
