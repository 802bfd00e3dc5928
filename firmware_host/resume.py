"""The session the appliance starts with: the journal opened, its open session replayed and resumed, or a
new session started — or, when the journal cannot be had, a state from the config's settings alone.

A session is a journal "game" of kind `appliance`: its starting settings are kept in its meta (a
snapshot of the state), its input events (kind `input`) are what the state is folded from. A resumed
session that is not idle continues (a running timer comes back paused: `Resumed`); an idle one is
closed into a new session with the settings as they stand now. Its only I/O: the state directory and the
journal in it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_host.core import app
from firmware_host.core.effects import Effect
from firmware_host.core.event_codec import CodecError, decode
from firmware_host.core.events import Resumed
from firmware_host.core.settings import Settings
from firmware_host.journal import Journal, JournalDamaged, JournalEntry, JournalError
from firmware_host.paths import journal_path
from firmware_host.shell import GAME_EFFECTS
from firmware_host.shell_journal import INPUT, SESSION, SessionJournal
from firmware_host.snapshots import Snapshots
from firmware_host.storage_errors import StorageReason, storage_reason

log = logging.getLogger("wordtable")

SettingsFor = Callable[[Mapping[str, Any]], Settings]  # the remembered settings -> the settings that stand


@dataclass(frozen=True)
class Session:
    """Where the appliance starts: the state and the effects that show it, the journal (None: nothing is
    saved, `unsaved` says why) and the session's writer in it, and how many entries the replay set aside."""

    state: app.AppState
    effects: list[Effect]
    journal: Journal | None
    target: SessionJournal | None
    unsaved: StorageReason | None
    skipped: int


def open_session(state_dir: Path, settings: SettingsFor, clock: Callable[[], float]) -> Session:
    """The journal in `state_dir` with its session resumed or started (`resume_or_start`). A journal
    damaged past the open's checks is set aside and the session taken from what still reads; one that
    cannot be opened or written leaves the appliance without a journal, from `settings({})`."""
    journal, unsaved = open_journal(state_dir)
    if journal is not None:
        try:
            try:
                return _saved(journal, resume_or_start(journal, settings, clock, Snapshots.of(journal)))
            except JournalDamaged as exc:  # damage the open's checks could not see, found by the replay
                log.error("%s: moved aside, a fresh journal starts with what still reads", exc)
                journal = journal.set_aside(f"damaged ({exc.detail})")
                return _saved(journal, resume_or_start(journal, settings, clock, Snapshots.of(journal)))
        except JournalError as exc:
            log.error("journal unusable, nothing is saved: %s", exc)
            journal.close()
            unsaved = storage_reason(exc)
    shown = read_only_session(state_dir, settings, clock)
    if shown is not None:  # the journal reads but cannot be written: the table as it was, nothing saved
        state, effects, skipped = shown
        return Session(state, effects, None, None, unsaved, skipped)
    start = app.initial(settings({}), clock())[0]
    return Session(start, app.view(start), None, None, unsaved, 0)


def read_only_session(state_dir: Path, settings: SettingsFor,
                      clock: Callable[[], float]) -> tuple[app.AppState, list[Effect], int] | None:
    """The open session of a journal that can be read but not written (a read-only state directory or SD
    card), replayed and resumed in memory: the game in progress is shown, though nothing more is saved.
    None when there is no such journal or it does not read either."""
    path = journal_path(state_dir)
    if not path.is_file():
        return None
    try:
        journal = Journal.open(path, readonly=True)
    except (OSError, JournalError) as exc:
        log.error("the journal %s does not read either: %s", path, exc)
        return None
    try:
        session = journal.open_game(SESSION)
        if session is None:
            return None
        start = app.restore(journal.meta(session)["snapshot"])
        read = Read()
        state, skipped = replay(start, read(journal.stream(session, kinds=(INPUT,))))
    except (JournalError, AttributeError, KeyError, TypeError, ValueError) as exc:
        log.error("the journal %s cannot be replayed: %s", path, exc)
        return None
    finally:
        journal.close()
    off_s = _seconds_off(read.last_wall_time) if read.last_wall_time is not None else 0.0
    state, effects = app.step(state, Resumed(clock(), off_s))
    log.warning("resumed session %d read-only (%d events): nothing from now on is saved", session, read.count)
    return state, effects, skipped


def _saved(journal: Journal, resumed: tuple[app.AppState, list[Effect], SessionJournal, int]) -> Session:
    state, effects, target, skipped = resumed
    return Session(state, effects, journal, target, None, skipped)


def open_journal(state_dir: Path) -> tuple[Journal | None, StorageReason | None]:
    """The journal in `state_dir`, or None and the reason (`Trouble` "unsaved") when it cannot be had."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        return Journal.open(journal_path(state_dir)), None
    except (OSError, JournalError) as exc:
        log.error("no journal in %s, nothing is saved: %s", state_dir, exc)
        return None, storage_reason(exc)


def resume_or_start(
    journal: Journal, settings: SettingsFor, clock: Callable[[], float], snapshots: Snapshots | None = None,
) -> tuple[app.AppState, list[Effect], SessionJournal, int]:
    """Replay the open session if there is one; start a new session when none is open, or when the
    replayed one is idle (`app.can_snapshot`: no game, no menu, the timer stopped). With `snapshots`, the
    replay starts from the newest trusted snapshot of the session (`Snapshots.load`) and folds only the
    inputs after it; any other snapshot is refused and the session replayed in full. Entries that fail in
    the core are set aside (`replay`); the last value is how many. A damaged entry in the session or in the
    open table game's record (after the snapshot's mark, with one) raises `JournalDamaged` before anything
    is resumed from it."""
    session = journal.open_game(SESSION)
    table = journal.open_game(other_than=SESSION)
    cached = snapshots.load(journal, session) if snapshots is not None and session is not None else None
    mark, start = cached if cached is not None else (None, None)
    if table is not None:  # the record of the game on the table is checked (since the snapshot's mark in it)
        since = None if mark is None or mark.table != table or not mark.table_seq else (mark.table_seq, mark.table_crc)
        journal.check(table, after=since)
    skipped = 0
    try:
        if session is not None and start is None:
            start = app.restore(journal.meta(session)["snapshot"])
    except JournalDamaged:
        raise
    except (JournalError, AttributeError, KeyError, TypeError, ValueError) as exc:  # a snapshot not ours
        log.error("session %s cannot be resumed, a new one starts: %s", session, exc)
        start, skipped = None, 1
    if session is not None and start is not None:
        read = Read()
        after = None if mark is None else (mark.seq, mark.crc)
        state, skipped = replay(start, read(journal.stream(session, kinds=(INPUT,), after=after)))
        before = 0 if mark is None else mark.entries
        if mark is None:
            log.info("replayed session %d: %d journaled events", session, read.count)
        else:
            log.info("resumed session %d from its snapshot at %d events and replayed %d after it",
                     session, before, read.count)
        if not app.can_snapshot(state):
            target = SessionJournal(journal, session, table, entries=before + read.count, snapshots=snapshots,
                                    snapshot_at=before)
            last_wall_time = read.last_wall_time or (None if mark is None else mark.wall_time)
            off_s = _seconds_off(last_wall_time) if last_wall_time is not None else 0.0
            resumed = Resumed(clock(), off_s)
            state, effects = app.step(state, resumed)
            target.commit(resumed, [e for e in effects if isinstance(e, GAME_EFFECTS)])
            return state, effects, target, skipped
        idle = app.snapshot(state)  # the table as it was, with the settings as they stand now
        del idle["page"]  # and the table page as this start serves it (`PageInfo`), if at all
        now_standing = settings(journal.settings())
        if state.timer.countdown.is_full() and not state.timer.alarmed:
            del idle["timer"]  # a full timer is full for the duration that stands now
        base = app.restore({**idle, "settings": now_standing.to_dict()})
    else:
        base = app.initial(settings(journal.settings()))[0]
    session = journal.start_game(SESSION, base.board.players, {"snapshot": app.snapshot(base)})
    state = replace(base, now=clock())
    return state, app.view(state), SessionJournal(journal, session, snapshots=snapshots), skipped


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
            log.warning("resume: unreadable journal entry set aside: %s", clip(str(exc)))
        except Exception:  # a poison entry must not keep the table dark forever
            skipped += 1
            log.exception("resume: journal entry set aside, the core failed on it: %s", clip(repr(payload)))
    return state, skipped


def clip(text: str, limit: int = 300) -> str:
    """`text`, cut to `limit` characters (saying how long it was) for a log line or the OLED."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


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
