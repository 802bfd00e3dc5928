"""A start from a resume snapshot and the inputs after it is the start a full replay gives; any snapshot
that is not this box's, this journal's and this code's, or not whole, is refused and the session replayed
in full (firmware_host/snapshots.py)."""

from __future__ import annotations

import logging
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host import resume, shell_journal, snapshots
from firmware_host.backup import create_backup, restore_backup
from firmware_host.core import app
from firmware_host.core.effects import Snapshottable
from firmware_host.core.event_codec import decode
from firmware_host.core.events import Button, ClaimsPending, Event, Press, Typing, WifiInfo
from firmware_host.core.settings import Settings
from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from firmware_host.shell import GAME_EFFECTS
from firmware_host.shell_journal import SessionJournal
from firmware_host.snapshots import KEY_NAME, SNAPSHOT_NAME, Snapshots, pack
from tests.helpers.crash import timeline


@pytest.fixture(autouse=True)
def _often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shell_journal, "SNAPSHOT_EVERY", 10)
    monkeypatch.setattr(resume, "_seconds_off", lambda last_wall_time: 0.0)


def send(target: SessionJournal, state: app.AppState, event: Event) -> app.AppState:
    """One input as the shell handles it: step, journal, sync, then compact or keep a snapshot."""
    state, effects = app.step(state, event)
    target.commit(event, [effect for effect in effects if isinstance(effect, GAME_EFFECTS)])
    target.sync()
    if any(isinstance(effect, Snapshottable) for effect in effects):
        target.compact(state)
    else:
        target.cache(state)
    if target.snapshots is not None:
        target.snapshots.wait()
    return state


def start(state_dir: Path, *, with_snapshots: bool = True) -> tuple[app.AppState, SessionJournal, Journal]:
    journal = Journal.open(journal_path(state_dir))
    cache = Snapshots.of(journal) if with_snapshots else None
    state, _effects, target, _skipped = resume.resume_or_start(journal, lambda remembered: Settings(),
                                                                lambda: 5.0, cache)
    return state, target, journal


def play(state_dir: Path, events: list[Event]) -> None:
    state, target, journal = start(state_dir)
    for event in events:
        state = send(target, state, event)
    journal.close()


def zugzeit(turns: int) -> list[Event]:
    """Zugzeit's script up to its first turn, then `turns` turns ended by START."""
    events = [decode(dict(payload)) for _, payload in timeline("turn-timer.script")]
    opened = app.initial(Settings())[0]
    for count, event in enumerate(events, start=1):
        opened = app.fold(opened, event)
        if getattr(getattr(opened.flow, "played", None), "events", None) == () and isinstance(event, Press):
            events = events[:count]
            break
    return events + [Press(Button.START, 100.0 + turn) for turn in range(turns)]


def both(state_dir: Path, tmp_path: Path) -> tuple[tuple[app.AppState, int], tuple[app.AppState, int]]:
    """(state, inputs) of a start with the snapshots on a copy replayed in full, then of a start on
    `state_dir` with them (a copy is another journal file: its snapshot is not trusted)."""
    starts = []
    for directory, cached in ((tmp_path / "full", False), (state_dir, True)):
        if not cached:
            shutil.copytree(state_dir, directory)
        state, target, journal = start(directory, with_snapshots=cached)
        journal.close()
        starts.append((state, target.entries))
    return starts[1], starts[0]


@pytest.fixture
def played(tmp_path: Path) -> Path:
    state_dir = tmp_path / "box"
    play(state_dir, zugzeit(45))
    assert (state_dir / SNAPSHOT_NAME).is_file()
    return state_dir


def test_a_start_from_the_snapshot_is_the_full_replay(played: Path, tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "wordtable")
    cached, full = both(played, tmp_path)
    assert "from its snapshot" in caplog.text
    assert cached == full
    assert cached[0].flow is not None


def test_the_game_goes_on_alike_after_either_start(played: Path, tmp_path: Path) -> None:
    ends = []
    shutil.copytree(played, tmp_path / "full")
    for directory, cached in ((tmp_path / "full", False), (played, True)):
        state, target, journal = start(directory, with_snapshots=cached)
        for turn in range(25):
            state = send(target, state, Press(Button.START, 500.0 + turn))
        journal.close()
        again, _, journal = start(directory)
        journal.close()
        ends.append((state, again))
    assert ends[0] == ends[1]


def test_a_long_history_resumes_without_being_rebuilt_and_is_the_full_replay(tmp_path: Path) -> None:
    state_dir = tmp_path / "box"
    play(state_dir, zugzeit(snapshots.CHUNKED * 4))
    cached, full = both(state_dir, tmp_path)
    events = cached[0].flow.played.events  # type: ignore[union-attr]
    assert len(events) >= snapshots.CHUNKED * 3 and not events.head_made()  # the first frame read none of it
    assert cached == full and events.head_made()


def test_a_snapshot_pickles_only_the_entries_made_since_the_last(tmp_path: Path) -> None:
    state = app.initial(Settings())[0]
    for event in zugzeit(snapshots.CHUNKED * 2):
        state = app.fold(state, event)
    first = snapshots.loads(snapshots.dumps(state))
    count, chunks = state.flow.played.events.memo  # type: ignore[union-attr]
    for turn in range(snapshots.CHUNKED):
        state = app.fold(state, Press(Button.START, 900.0 + turn))
    second = snapshots.loads(snapshots.dumps(state))
    later_count, later_chunks = state.flow.played.events.memo  # type: ignore[union-attr]
    assert later_count == count + snapshots.CHUNKED and later_chunks[:-1] == chunks  # the same bytes again
    assert first != second and second == state
    undone = app.fold(second, Press(Button.BACK, 990.0))  # an undo rebuilds from the deferred head
    again = app.fold(undone, Press(Button.START, 991.0))
    assert snapshots.loads(snapshots.dumps(again)) == again
    assert len(again.flow.played.events) == len(state.flow.played.events)  # type: ignore[union-attr]


def test_what_was_only_shown_is_gone_after_a_start_from_the_snapshot(tmp_path: Path) -> None:
    state_dir = tmp_path / "box"
    state, target, journal = start(state_dir)
    for event in zugzeit(5):
        state = send(target, state, event)
    shown_only = (Typing("Hal", 50.0), ClaimsPending(((1, "c1"),), 50.0), WifiInfo("ap", "box", "pw", "10.0.0.1", 50.0))
    for shown in shown_only:
        state, _ = app.step(state, shown)  # never journaled (`DISPLAY_ONLY`), but in the state snapshotted
    for turn in range(12):
        state = send(target, state, Press(Button.START, 60.0 + turn))
    journal.close()
    assert state.typing == "Hal" and state.page.pending and state.wifi.link == "ap"
    cached, full = both(state_dir, tmp_path)
    assert cached == full
    assert cached[0].typing == "" and cached[0].page.pending == () and cached[0].wifi.link == ""


def refused(state_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "wordtable")
    cached, full = both(state_dir, tmp_path)
    assert "from its snapshot" not in caplog.text
    assert "replayed session" in caplog.text
    assert cached == full


def test_another_boxs_key_is_refused(played: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (played / KEY_NAME).write_bytes(bytes(32))
    refused(played, tmp_path, caplog)
    assert "tag does not hold" in caplog.text


def test_another_program_version_is_refused(played: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "code_version", lambda: b"another release")
    refused(played, tmp_path, caplog)


@pytest.mark.parametrize("damage", ["cut", "byte", "empty", "garbage"])
def test_damaged_bytes_are_refused(played: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                   damage: str) -> None:
    path = played / SNAPSHOT_NAME
    data = bytearray(path.read_bytes())
    if damage == "cut":
        data = data[: len(data) // 2]
    elif damage == "byte":
        data[len(data) - 40] ^= 0x10
    elif damage == "empty":
        data = bytearray()
    else:
        data = bytearray(b"\x80\x05garbage that is no snapshot at all" * 10)
    path.write_bytes(bytes(data))
    refused(played, tmp_path, caplog)
    assert "refused" in caplog.text


def test_a_snapshot_newer_than_the_inputs_is_refused(played: Path, tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    with Journal.open(journal_path(played)) as journal:
        cache = Snapshots.of(journal)
        assert cache is not None
        mark, state = cache.load(journal, journal.open_game(shell_journal.SESSION) or 0) or (None, None)
        assert mark is not None and state is not None
        ahead = replace(mark, seq=mark.seq + 1000, entries=mark.entries + 1000)
        data = pack(snapshots.box_key(played), cache._identity, ahead, state)
    (played / SNAPSHOT_NAME).write_bytes(data)
    refused(played, tmp_path, caplog)
    assert "not what the journal holds" in caplog.text


def test_a_kill_during_the_snapshot_write_leaves_a_whole_start(played: Path, tmp_path: Path,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    whole = (played / SNAPSHOT_NAME).read_bytes()
    (played / f"{SNAPSHOT_NAME}.tmp").write_bytes(whole[: len(whole) // 3])  # the write cut off before its rename
    caplog.set_level(logging.INFO, "wordtable")
    cached, full = both(played, tmp_path)
    assert cached == full
    (played / SNAPSHOT_NAME).unlink()  # killed at the very first snapshot: none whole yet
    caplog.clear()
    refused(played, tmp_path / "first", caplog)


def test_a_journal_restored_from_a_backup_carries_no_trusted_snapshot(played: Path, tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    backup = create_backup(played)
    restore_backup(played, backup, replace=True)
    assert (played / SNAPSHOT_NAME).is_file()  # the box's own file stays, but it is not the restored journal's
    refused(played, tmp_path, caplog)
    assert "tag does not hold" in caplog.text


def test_no_snapshot_without_a_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_key(state_dir: Path) -> bytes:
        raise PermissionError("read-only")

    monkeypatch.setattr(snapshots, "box_key", no_key)
    state_dir = tmp_path / "box"
    play(state_dir, zugzeit(30))
    assert not (state_dir / SNAPSHOT_NAME).exists()
    state, _target, journal = start(state_dir)
    journal.close()
    assert state.flow is not None

