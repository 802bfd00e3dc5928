"""The appliance assembled: configuration, journal, hardware and shell, and the replay that resumes.

A session is a journal "game" of kind `appliance`: its starting settings are kept in its meta, its
input events (kind `input`) are what the state is folded from. On start an open session is replayed and
continued — a running timer comes back paused — otherwise a new session starts with the remembered
settings. Start-up order: journal, state, hardware (inputs last: buttons, then card readers), outputs
wired (`shell_effects`), first frame; `close()` runs in reverse. The shell writes the journal through
`shell_journal.SessionJournal`.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from firmware_host.config import Resolved
from firmware_host.core import app
from firmware_host.core.effects import Effect
from firmware_host.core.event_codec import CodecError, decode
from firmware_host.core.events import Event, Notice, Resumed, kept_event
from firmware_host.core.settings import Settings
from firmware_host.journal import Journal
from firmware_host.kept_store import load_kept
from firmware_host.paths import journal_path
from firmware_host.shell import Outputs, Shell
from firmware_host.shell_effects import appliance_outputs
from firmware_host.shell_journal import INPUT, SESSION, SessionJournal
from hw.build import Hardware, build

log = logging.getLogger("wordtable")


def settings_from_config(resolved: Resolved, remembered: dict[str, Any]) -> Settings:
    """The config's defaults, overridden by what the table chose last time."""
    cfg = resolved.config
    players = cfg.scoreboard.players
    base = Settings(
        duration_s=cfg.timer.duration_s,
        presets=cfg.timer.presets,
        warn_s=cfg.timer.warn_s,
        volume=cfg.timer.volume,
        lang=cfg.appliance.language,
        player_names=players,
        player_count=len(players) if players else 4,
        turns=cfg.turn_timer.settings(),
    )
    return base.with_remembered(remembered)


def replay(start: app.AppState, entries: list[dict[str, Any]]) -> tuple[app.AppState, int]:
    """Fold journaled input events into the state; returns it and how many events were unreadable."""
    state = start
    skipped = 0
    for payload in entries:
        try:
            event = decode(payload)
        except CodecError:
            skipped += 1
            continue
        state, _ = app.step(state, event)
    return state, skipped


@dataclass
class Appliance:
    shell: Shell
    hardware: Hardware
    journal: Journal
    target: SessionJournal
    _closed: bool = False

    def close(self) -> None:
        """Stop in reverse order of start-up: inputs first, then outputs (LEDs off, silent), journal last."""
        if self._closed:
            return
        self._closed = True
        self.hardware.close()
        self.journal.close()


def open_appliance(
    resolved: Resolved,
    state_dir: Path,
    *,
    clock: Callable[[], float] = time.monotonic,
    pin_factory: Any = None,
    display_device: Any = None,
    outputs_hook: Callable[[Outputs], Outputs] = lambda outputs: outputs,
    power_off: Callable[[], None],
) -> Appliance:
    """Open the journal, resume or start a session, start the hardware (card readers included) and draw
    the first frame. `power_off` is what a confirmed "Ausschalten" does; `outputs_hook` lets the
    simulator observe (wrap) what the shell drives."""
    state_dir.mkdir(parents=True, exist_ok=True)
    journal = Journal.open(journal_path(state_dir))
    try:
        state, effects, target = _resume_or_start(journal, resolved, clock)
        inbox: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        hardware = build(resolved.profile, emit=inbox.put, pin_factory=pin_factory,
                         display_device=display_device, clock=clock)
    except BaseException:
        journal.close()
        raise

    try:
        outputs = outputs_hook(appliance_outputs(
            hardware, journal, state_dir, dictionary=resolved.config.dictionary.path, power_off=power_off
        ))
        shell = Shell(state, outputs, clock=clock, journal=target, inbox=inbox)
        shell.start(effects)
    except BaseException:  # e.g. an output left unwired: nothing may stay running
        hardware.close()
        journal.close()
        raise
    items, problems = load_kept(state_dir)
    kept = kept_event(items, clock())
    if kept.items != shell.state.kept:
        shell.handle(kept)
    for text in problems + ([journal.moved_aside.message()] if journal.moved_aside else []):
        log.warning("%s", text)
        shell.handle(Notice(text, clock()))
    return Appliance(shell, hardware, journal, target)


def _resume_or_start(
    journal: Journal, resolved: Resolved, clock: Callable[[], float]
) -> tuple[app.AppState, list[Effect], SessionJournal]:
    """Replay the open session if there is one; start a new session when none is open, or when the
    replayed one is idle (no game, full timer) — so a replay never grows without bound."""
    session = journal.open_game(SESSION)
    if session is not None:
        start = app.restore(journal.meta(session)["snapshot"])
        payloads = [entry.payload for entry in journal.events(session, kinds=(INPUT,))]
        state, skipped = replay(start, payloads)
        if skipped:
            log.warning("resume: %d unreadable journal entries skipped", skipped)
        log.info("replayed session %d: %d journaled events", session, len(payloads))
        idle = state.flow is None and state.overlay is None and state.timer.countdown.is_full()
        if not idle:
            tables = [g.id for g in journal.games() if g.finished is None and g.game != SESSION]
            target = SessionJournal(journal, session, tables[-1] if tables else None)
            resumed = Resumed(clock())
            target.record(resumed)
            state, effects = app.step(state, resumed)
            return state, effects, target
        home = state.home if state.home != "game" else "timer"
        base = replace(app.restore(app.snapshot(state)), home=home)
    else:
        base = app.initial(settings_from_config(resolved, journal.settings()))[0]
    session = journal.start_game(SESSION, base.board.players, {"snapshot": app.snapshot(base)})
    state = replace(base, now=clock())
    return state, app.view(state), SessionJournal(journal, session)
