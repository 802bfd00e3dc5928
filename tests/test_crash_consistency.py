"""Never wrong after a crash, never dark at start: the journal's transactions, the alarm across a restart,
poison events, a journal that cannot be written (issue 11)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.app import dispatch
from firmware_host.core.effects import BeginGame, Record
from firmware_host.core.events import Button, CardScan, Press, TextEntry
from firmware_host.journal import RECORD, Journal, JournalError
from firmware_host.journal.integrity import reseal_game, seal_event
from firmware_host.paths import journal_path
from firmware_host.shell_journal import INPUT, SESSION, SessionJournal
from firmware_host.startup import clock_time

pytestmark = pytest.mark.slow  # each test crashes and resumes a whole shell on a journal synced to disk


def _session_journal(path: Path) -> SessionJournal:
    journal = Journal.open(path)
    return SessionJournal(journal, journal.start_game(SESSION, ["A", "B"]))


def test_an_input_and_its_record_lines_commit_together_or_not_at_all(tmp_path, monkeypatch):
    target = _session_journal(tmp_path / "j.sqlite3")
    journal = target.journal
    real_append = Journal.append
    calls = {"record": 0}

    def dying_append(self, game_id, kind, payload, wall_time):
        if kind == RECORD:
            calls["record"] += 1
            if calls["record"] == 2:
                raise KeyboardInterrupt  # the process dies between two writes of one input
        return real_append(self, game_id, kind, payload, wall_time)

    monkeypatch.setattr(Journal, "append", dying_append)
    effects = [BeginGame("knack-das-wort", ("A", "B")), Record({"event": "a"}), Record({"event": "b"})]
    with pytest.raises(KeyboardInterrupt):
        target.commit(Press(Button.START, 1.0), effects)
    assert journal.events(target.session) == []  # the input is not acknowledged …
    assert [g.game for g in journal.games()] == [SESSION]  # … and no game was begun
    assert target.table_game is None
    monkeypatch.setattr(Journal, "append", real_append)
    target.commit(Press(Button.START, 2.0), effects)
    assert [e.kind for e in journal.events(target.session)] == [INPUT]
    assert [e.payload["event"] for e in journal.events(target.table_game, kinds=(RECORD,))] == ["a", "b"]


def test_a_timer_that_ran_out_is_run_out_after_a_restart(sim):
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 61)
    assert sim.state.timer.alarmed
    sim.restart()
    assert sim.state.timer.alarmed and not sim.state.timer.running
    assert "Zeit!" in sim.screen_text() and "pausiert" not in sim.screen_text()


def _age_last_entry(state_dir: Path, seconds: float) -> None:
    """Pretend the box was switched off `seconds` ago (the last journaled entry's wall-clock label)."""
    when = (datetime.now(UTC) - timedelta(seconds=seconds)).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    with sqlite3.connect(journal_path(state_dir)) as db:
        db.execute("UPDATE events SET wall_time = ? WHERE seq = (SELECT max(seq) FROM events)", (when,))
        seal_event(db, db.execute("SELECT max(seq) FROM events").fetchone()[0])  # a change, not damage


def test_a_timer_whose_time_ran_out_while_the_box_was_off_comes_back_run_out(sim, tmp_path):
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 20)
    sim.close()
    _age_last_entry(tmp_path, 3600)
    sim.appliance = sim._open()
    assert sim.state.timer.alarmed and not sim.state.timer.running
    assert "Zeit lief ab (Gerät aus)" in sim.screen_text()


@pytest.mark.parametrize("part", ["page", "board", "kept"])
def test_a_session_whose_snapshot_is_not_ours_starts_a_new_one(sim, tmp_path, part):
    sim.send(Press(Button.START, sim.clock.now))  # a running timer: the next start replays this session
    sim.close()
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET meta = json_set(meta, ?, 'x') WHERE finished IS NULL", (f"$.snapshot.{part}",))
        for (game,) in db.execute("SELECT id FROM games WHERE finished IS NULL").fetchall():
            reseal_game(db, game)  # written so, not damaged: its checksum agrees
    sim.appliance = sim._open()  # no traceback: a fresh session, the table ready
    assert not sim.state.timer.running and sim.state.flow is None
    assert sim.appliance.journal.open_game(SESSION) is not None


def test_a_short_power_cut_comes_back_paused_with_the_time_left(sim, tmp_path):
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 20)
    sim.close()
    _age_last_entry(tmp_path, 3)
    sim.appliance = sim._open()
    assert not sim.state.timer.running and not sim.state.timer.alarmed
    assert sim.state.timer.left(sim.state.now) == pytest.approx(40, abs=5)  # checkpoints every 5 s
    assert "Fortgesetzt – Timer pausiert" in sim.screen_text()


def _poisoned(monkeypatch):
    """The core raises on the text GIFT, live (`step`) and in a replay (`fold`)."""
    real_advance = dispatch.advance

    def advance(state, event):
        if isinstance(event, TextEntry) and event.text == "GIFT":
            raise RuntimeError("poison")
        return real_advance(state, event)

    monkeypatch.setattr(dispatch, "advance", advance)


def _scoreboard(sim):
    for event in app.events_to_choose(sim.state, "Punktetafel", sim.clock.now):
        sim.send(event)


def test_an_event_the_core_fails_on_is_set_aside_and_the_table_goes_on(sim, monkeypatch):
    _scoreboard(sim)
    _poisoned(monkeypatch)
    sim.send(TextEntry("+5", sim.clock.now))
    before = sim.state.board
    sim.send(TextEntry("GIFT", sim.clock.now))
    assert sim.state.board == before
    assert "Eingabe verworfen" in sim.screen_text()
    texts = [e.payload.get("text") for e in sim.appliance.journal.events(1) if e.payload.get("type") == "text"]
    assert texts == ["+5"]  # the failing event never reached the journal
    sim.send(TextEntry("+2", sim.clock.now))
    assert sim.state.board.totals[0] == 7


def test_replay_sets_aside_a_journaled_event_that_fails_and_resumes_the_rest(sim, tmp_path, monkeypatch):
    _scoreboard(sim)
    sim.send(Press(Button.START, sim.clock.now))  # +1 (START on the scoreboard)
    sim.send(TextEntry("+5", sim.clock.now))
    sim.appliance.journal.append(1, INPUT, {"type": "text", "text": "GIFT", "at": sim.clock.now}, "x")
    sim.appliance.journal.append(1, INPUT, {"type": "text", "text": "+3", "at": sim.clock.now}, "x")
    sim.close()
    _poisoned(monkeypatch)
    sim.appliance = sim._open()
    assert sim.state.board.totals[0] == 1 + 5 + 3
    assert "1 Einträge übersprungen" in sim.screen_text()


def test_a_journal_that_fails_mid_game_is_given_up_and_the_timer_still_rings(sim, monkeypatch):
    def full(self, event, effects=()):
        raise JournalError("journal write failed: database or disk is full")

    monkeypatch.setattr(SessionJournal, "commit", full)
    sim.send(Press(Button.START, sim.clock.now))
    assert "Nicht gespeichert: voll" in sim.screen_text()
    assert app.screen(sim.state).title.startswith(app.UNSAVED_MARK)
    sim.wait_until(sim.clock.now + 61)
    assert "alarm" in [pattern for _, pattern in sim.sounds]
    assert app.screen(sim.state).title.startswith(app.UNSAVED_MARK)


def test_a_state_directory_that_cannot_be_made_starts_unsaved(make_sim, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    sim = make_sim(state_dir=blocker / "state")
    assert sim.appliance.journal is None
    assert "Nicht gespeichert: gesperrt" in sim.screen_text()
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 61)
    assert sim.state.timer.alarmed


def _damage_page(path: Path, name: str) -> None:
    """Overwrite 8 bytes of the b-tree page header of table or index `name` (what a bad sector does)."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = ?", (name,)).fetchone()[0]
    data = bytearray(path.read_bytes())
    start = (root - 1) * page_size + (100 if root == 1 else 0)
    data[start:start + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))


def test_a_damaged_journal_is_salvaged_and_the_open_game_resumes(make_sim, tmp_path):
    from firmware_host.core.event_codec import decode
    from tests.helpers.crash import timeline

    sim = make_sim()
    for at, payload in timeline("quiddler.script")[:100]:
        sim.wait_until(max(sim.clock.now, at))
        sim.send(decode(payload))
    shown, events = sim.screen_text(), len(sim.appliance.journal.events(1))
    sim.close()
    _damage_page(journal_path(tmp_path), "events_by_game")
    again = make_sim()
    moved = again.appliance.journal.moved_aside
    assert moved is not None and "damaged" in moved.reason
    assert moved.salvaged is not None and moved.salvaged.events >= events
    assert f"Spiel bis {clock_time(moved.salvaged.last_wall_time)} gerettet" in again.screen_text()
    assert again.screen_text().split(" | ")[:2] == shown.split(" | ")[:2]  # the same game, same place
    assert again.state.flow == sim.state.flow



# Damage in the schema's text, as a byte flipped on the card does it: `PRAGMA quick_check` passes the first
# two (it checks pages, not names), the third made sqlite3 raise UnicodeDecodeError from its error message.
SCHEMA_DAMAGE = {
    "table renamed": (b"games", b"g\xbcmes"),
    "column renamed": (b"payload   TEXT", b"paylaod   TEXT"),
    "not UTF-8": (b"PRIMARY KEY AUTOINCREMENT", b"PRIMARY KEY AUTOINCREMEN\xbc"),
}


def _scores_then_damage(make_sim, tmp_path: Path, damage: tuple[bytes, bytes], *, game: bool = False) -> None:
    """Score on the board (the session log), with `game` also a finished game with a record; then `damage`."""
    sim = make_sim()
    for event in [*(app.events_to_open(sim.state, "scoreboard", 0.0) or []), TextEntry("+5", 1.0)]:
        sim.send(event)
    sim.close()
    path = journal_path(tmp_path)
    if game:
        with Journal.open(path) as journal:
            played = journal.start_game("quiddler", ["Anna", "Jörg"], wall_time="2026-05-01T19:00:00Z")
            journal.append(played, RECORD, {"event": "word", "word": "ÄRGER"}, "2026-05-01T19:01:00Z")
            journal.finish(played, "Jörg")
    old, new = damage
    assert path.read_bytes().count(old) >= 1
    path.write_bytes(path.read_bytes().replace(old, new))


@pytest.mark.parametrize("damage", SCHEMA_DAMAGE.values(), ids=SCHEMA_DAMAGE.keys())
def test_a_journal_whose_schema_was_hit_is_moved_aside_and_the_box_starts_saved(make_sim, tmp_path, damage):
    _scores_then_damage(make_sim, tmp_path, damage)
    again = make_sim()  # raised before: a bare sqlite3 error (or UnicodeDecodeError) from the resume
    journal = again.appliance.journal
    assert journal is not None and journal.moved_aside is not None
    assert journal.moved_aside.reason.startswith("damaged (")
    said = again.screen_text().rsplit(" | ", 1)[-1]
    assert "Journal" in said or "gerettet" in said  # "Journal neu …" or "Spiel bis 20:41 gerettet"
    again.send(Press(Button.START, again.clock.now))  # and the fresh journal takes what happens now
    assert journal.events(journal.open_game(SESSION), (INPUT,))
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())


@pytest.mark.parametrize("damage", SCHEMA_DAMAGE.values(), ids=SCHEMA_DAMAGE.keys())
def test_journal_export_of_a_damaged_journal_is_one_line_and_exit_1(make_sim, tmp_path, capsys, damage):
    from firmware_host.cli import main

    _scores_then_damage(make_sim, tmp_path, damage, game=True)
    before = journal_path(tmp_path).read_bytes()
    assert main(["journal", "export", "--state-dir", str(tmp_path)]) == 1  # the latest game, its rows damaged
    err = capsys.readouterr().err
    assert err.startswith("wordtable journal: ") and "damaged" in err and err.count("\n") == 1, err
    assert journal_path(tmp_path).read_bytes() == before  # read-only: never moved, never written


def _session_rows(sim) -> list[str]:
    journal = sim.appliance.journal
    return [e.payload["type"] for e in journal.events(journal.open_game(SESSION), (INPUT,))]


def test_a_running_timer_keeps_one_checkpoint_not_one_every_five_seconds(sim):
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 50)
    assert _session_rows(sim).count("tick") == 1
    sim.restart()
    assert sim.state.timer.left(sim.state.now) == pytest.approx(10, abs=5)  # resumes from the checkpoint


def test_a_long_scoreboard_session_rolls_over_and_resumes_from_its_snapshot(sim):
    from firmware_host.shell_journal import ROLL_AFTER

    _scoreboard(sim)
    for i in range(ROLL_AFTER + 50):
        sim.send(TextEntry(f"+{i % 7}", sim.clock.now + i))
    totals = sim.state.board.totals
    journal = sim.appliance.journal
    assert [g.game for g in journal.games()] == [SESSION]  # the old session is gone …
    assert len(_session_rows(sim)) < ROLL_AFTER  # … and the open one is short
    sim.restart()
    assert sim.state.board.totals == totals
    assert sim.state.home == "scoreboard"
    sim.send(Press(Button.BACK, sim.clock.now + 2000))  # undo reaches back across the snapshot
    assert sim.state.board.totals != totals


def test_a_session_that_rolls_over_while_the_alarm_rings_resumes_the_press_that_silenced_it(sim):
    from firmware_host.shell_journal import ROLL_AFTER

    session = sim.appliance.shell.journal
    while session.entries < ROLL_AFTER - 2:  # a long evening of timer use: START and the first
        sim.wait_until(sim.clock.now + 0.1)  # checkpoint make it due to roll over, at the alarm
        sim.send(Press(Button.NEXT, sim.clock.now))  # the next preset, journaled each
    first = session.session
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + sim.state.settings.duration_s + 1)  # time is up: the alarm rings
    assert sim.state.ringing is not None
    sim.send(Press(Button.START, sim.clock.now))  # silences the alarm, nothing else
    silenced = sim.state
    assert silenced.ringing is None and not silenced.timer.running
    assert session.session != first  # rolled over: at the alarm (wrong: its silencing press replays as a
    # START) or after it
    sim.restart()
    assert not sim.state.timer.running
    assert sim.state.timer.left(sim.state.now) == silenced.timer.left(silenced.now) == 0
    assert sim.state.timer.alarmed


def test_a_card_scanned_after_the_session_rolled_over_is_read_with_the_kept_card_table_on_resume(
        make_sim, tmp_path):
    from firmware_host.core.cards import CardTable, kept_name, table_data
    from firmware_host.core.games.registry import card_decks
    from firmware_host.core.table import deck_mode
    from firmware_host.kept_store import save_kept
    from firmware_host.shell_journal import ROLL_AFTER

    save_kept(tmp_path, kept_name("quiddler"), table_data(CardTable("quiddler", {"A1": "QU"})))  # enrolled
    sim = make_sim()
    session = sim.appliance.shell.journal
    first = session.session
    for _ in range(ROLL_AFTER):  # an evening of timer use: the session rolls over, idle
        sim.wait_until(sim.clock.now + 0.1)
        sim.send(Press(Button.NEXT, sim.clock.now))
    assert session.session != first
    quiddler_cards = deck_mode.choices(card_decks()).index((card_decks()[1], "cards"))
    for event in [*(app.events_to_choose(sim.state, "Karten ziehen", 0) or []),
                  *[Press(Button.NEXT, 0)] * quiddler_cards, Press(Button.START, 0), CardScan("draw", "A1", 0)]:
        sim.wait_until(sim.clock.now + 0.1)
        sim.send(replace(event, at=sim.clock.now))
    drawn = app.screen(sim.state).items[0]
    assert (drawn.label, drawn.value) == ("Nachziehstapel", "QU")
    sim.restart()
    assert app.screen(sim.state).items[0] == drawn


def test_a_paused_timer_survives_an_idle_restart_as_it_was(sim):
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 12)
    sim.send(Press(Button.START, sim.clock.now))  # pause at 0:48
    sim.restart()
    sim.restart()  # the second start resumes from the snapshot the first one took
    assert not sim.state.timer.running
    assert sim.state.timer.left(sim.state.now) == pytest.approx(48)


def test_replay_never_raises_on_any_journaled_payload():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from firmware_host.appliance import replay
    from firmware_host.core.settings import Settings

    start, _ = app.initial(Settings())
    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text()
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
    kinds = st.sampled_from(["press", "hold", "turn", "text", "scan", "removed", "reader", "tick", "resumed",
                             "notice", "words", "kept", "cards", "trouble", "nonsense"])
    payload = st.fixed_dictionaries({"type": kinds, "at": scalars},
                                    optional={"button": st.sampled_from(["start", "next", "back", "menu"]) | scalars,
                                              "text": st.text(), "steps": scalars, "reader": scalars,
                                              "code": scalars, "present": scalars, "known": values,
                                              "items": values, "kind": scalars, "detail": scalars})

    @settings(max_examples=300, deadline=None)
    @given(st.lists(payload, max_size=12))
    def run(entries):
        state, skipped = replay(start, entries)
        assert 0 <= skipped <= len(entries)
        app.screen(state)

    run()
