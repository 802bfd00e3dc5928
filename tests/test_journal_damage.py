"""Journal damage is found and said, never resumed into a state that differs from the journal's own record
(issue 35, item 6): each repro below resumed silently into a different table on the main branch before the
checksums. Damage is made the way a bad card makes it: bytes changed in the file, not through SQLite."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from firmware_host.core.events import Button, Press, TextEntry
from firmware_host.journal import RECORD, Journal
from firmware_host.journal.wal import wal_damage
from firmware_host.paths import journal_path
from firmware_host.shell_journal import INPUT, SESSION
from firmware_host.startup import clock_time
from tests.helpers.crash import check

pytestmark = pytest.mark.slow  # each test restarts the box on a damaged journal


def _scoreboard(sim, *entries: str) -> None:
    """On the free scoreboard, `entries` typed for the selected player (e.g. "+5")."""
    for event in (Press(Button.MENU, 0.0), Press(Button.START, 0.0), Press(Button.NEXT, 0.0), Press(Button.START, 0.0)):
        sim.send(event)
    for n, text in enumerate(entries):
        sim.send(TextEntry(text, 1.0 + n))


def _patch(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert data.count(old) == 1, (old, data.count(old))
    path.write_bytes(data.replace(old, new))


def _said(sim) -> str:
    return sim.screen_text().rsplit(" | ", 1)[-1]


def _salvaged_and_said(sim) -> None:
    """Moved aside, salvaged, the panel saying up to when; the table is a clean replay of what was kept."""
    moved = sim.appliance.journal.moved_aside
    assert moved is not None and moved.salvaged is not None and moved.moved_to.exists()
    assert ".corrupt-" in moved.moved_to.name
    assert f"Spiel bis {clock_time(moved.salvaged.last_wall_time)} gerettet" in _said(sim)
    assert check(sim) == []


def test_an_entry_changed_in_place_is_salvaged_up_to_the_entry_before_it(make_sim, tmp_path):
    sim = make_sim()
    _scoreboard(sim, "+5", "+7", "+11")
    assert max(sim.appliance.shell.state.board.totals) == 23
    sim.close()
    _patch(journal_path(tmp_path), b'"+7"', b'"+9"')  # still JSON, still a text entry: only a checksum sees it
    again = make_sim()
    _salvaged_and_said(again)
    # the table as it was before the damaged entry (5), not after it (23, or 25 with the changed entry); read
    # from the state, since the panel's salvage line holds a clock time ("… bis 02:23 gerettet")
    assert max(again.appliance.shell.state.board.totals) == 5


def test_an_entry_that_does_not_decode_stops_the_replay_there(make_sim, tmp_path):
    """It used to be left out and the entries after it replayed out of context."""
    sim = make_sim()
    _scoreboard(sim, "+5", "+7", "+11")
    sim.close()
    _patch(journal_path(tmp_path), b'"+7"', b'"+7\x00')
    again = make_sim()
    _salvaged_and_said(again)
    inputs = [e.payload for e in again.appliance.journal.events(again.appliance.journal.open_game(SESSION), (INPUT,))]
    assert not any(p.get("text") == "+11" for p in inputs)  # nothing after the damaged entry


def test_a_renamed_player_in_the_sessions_snapshot_is_damage(make_sim, tmp_path):
    sim = make_sim()
    _scoreboard(sim, "+5")
    sim.close()
    journal = journal_path(tmp_path)
    with sqlite3.connect(journal) as db:  # the snapshot holds the players' names
        (meta,) = db.execute("SELECT meta FROM games WHERE finished IS NULL").fetchone()
    name = meta.split('"players":["', 1)[1].split('"', 1)[0]
    data = journal.read_bytes()
    at = data.index(f'"players":["{name}"'.encode()) + len('"players":["')
    journal.write_bytes(data[:at] + b"X" + data[at + 1:])
    again = make_sim()
    moved = again.appliance.journal.moved_aside
    assert moved is not None and "checksum" in moved.reason
    assert name in again.screen_text() or check(again) == []
    assert "X" + name[1:] not in again.screen_text()


def _crash_copy(sim, to: Path) -> Path:
    """The journal's files as a crash (kill -9) leaves them: database, WAL and wal-index, the box running."""
    to.mkdir()
    source = sim.appliance.journal.path
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{journal_path(to)}{suffix}")
    return journal_path(to)


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_a_damaged_wal_is_salvaged_with_a_message_not_rolled_back_in_silence(make_sim, tmp_path, damage):
    sim = make_sim(state_dir=tmp_path / "box")
    _scoreboard(sim, "+5", "+7", "+11")
    copy = _crash_copy(sim, tmp_path / "copy")
    assert wal_damage(copy) is None  # as the crash left it: SQLite recovers it in full
    wal = Path(f"{copy}-wal")
    data = bytearray(wal.read_bytes())
    if damage == "flip":
        data[len(data) * 3 // 4] ^= 0x10
    else:
        del data[len(data) * 3 // 4:]
    wal.write_bytes(bytes(data))
    assert wal_damage(copy) is not None
    again = make_sim(state_dir=copy.parent)
    _salvaged_and_said(again)


def test_a_crash_copy_of_a_running_box_resumes_exactly_and_says_nothing(make_sim, tmp_path):
    sim = make_sim(state_dir=tmp_path / "box")
    _scoreboard(sim, "+5", "+7", "+11")
    copy = _crash_copy(sim, tmp_path / "copy")
    again = make_sim(state_dir=copy.parent)
    assert again.appliance.journal.moved_aside is None and max(again.appliance.shell.state.board.totals) == 23


def test_a_record_line_damaged_takes_its_whole_transaction_out_of_the_salvage(tmp_path):
    """An input and the record lines it caused commit together; a salvage keeps both or neither."""
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        session = journal.start_game(SESSION, [])
        table = journal.start_game("quiddler", ["A", "B"], beside=session)
        for n in range(3):
            with journal.batch():
                journal.append(session, INPUT, {"n": n}, f"2026-12-01T20:4{n}:00Z")
                journal.append(table, RECORD, {"event": "word", "n": n, "line": 1}, f"2026-12-01T20:4{n}:00Z")
                journal.append(table, RECORD, {"event": "word", "n": n, "line": 2}, f"2026-12-01T20:4{n}:00Z")
    _patch(path, b'"n":1,"line":2', b'"n":1,"line":3')
    journal = Journal.open(path)
    try:
        with pytest.raises(Exception, match="fails its checksum"):
            journal.events(table)
        fresh = journal.set_aside("damaged (test)")
    finally:
        journal.close()
    with fresh:
        assert [e.payload["n"] for e in fresh.events(session)] == [0]
        assert [(e.payload["n"], e.payload["line"]) for e in fresh.events(table)] == [(0, 1), (0, 2)]
        assert fresh.moved_aside.salvaged.last_wall_time == "2026-12-01T20:40:00Z"


def test_a_journal_from_before_the_checksums_opens_and_is_checksummed(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        game = journal.start_game("quiddler", ["A", "B"])
        journal.append(game, RECORD, {"event": "word", "word": "ÄRGER"}, "2026-12-01T20:41:00Z")
        journal.set_setting("language", "de")
    with sqlite3.connect(path) as db:  # as the program before the checksums wrote it
        for table in ("games", "events", "settings"):
            db.execute(f"ALTER TABLE {table} DROP COLUMN crc")
    with Journal.open(path, readonly=True) as journal:  # read-only it reads, unchecked
        assert not journal.checksummed and journal.events(game)[0].payload["word"] == "ÄRGER"
    with Journal.open(path) as journal:  # the first writable open migrates it
        assert journal.moved_aside is None and journal.checksummed
        assert journal.events(game)[0].payload["word"] == "ÄRGER" and journal.get_setting("language") == "de"
        journal.append(game, RECORD, {"event": "word", "word": "OHR"}, "2026-12-01T20:42:00Z")
    with Journal.open(path) as journal:
        assert journal.moved_aside is None and [e.payload["word"] for e in journal.events(game)] == ["ÄRGER", "OHR"]


def test_the_salvage_is_said_in_the_tables_language_with_the_local_time_of_the_last_good_entry(make_sim, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[appliance]\nlanguage = "en"\n', encoding="utf-8")
    state = tmp_path / "state"
    sim = make_sim(state_dir=state, config=config)
    _scoreboard(sim, "+5", "+7", "+11")
    sim.close()
    with sqlite3.connect(journal_path(state)) as db:
        (kept,) = db.execute("SELECT wall_time FROM events WHERE payload LIKE '%\"+5\"%'").fetchone()
    _patch(journal_path(state), b'"+7"', b'"+9"')
    again = make_sim(state_dir=state, config=config)
    assert again.appliance.journal.moved_aside.salvaged.last_wall_time == kept
    assert f"Game saved up to {clock_time(kept)}" in _said(again)
    local = datetime(2026, 12, 1, 20, 41, tzinfo=UTC).astimezone()
    assert clock_time("2026-12-01T20:41:09Z") == local.strftime("%H:%M") and clock_time("not a time") is None
