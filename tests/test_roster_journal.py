"""The roster across restarts through the real journal (`resume.open_session`, SQLite): replayed from the
journal's events, resumed from a session's snapshot with the same ids, and from a snapshot written before
the roster (its players become the people)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host import shell_journal
from firmware_host.core import app
from firmware_host.core.events import Event, SeatCommand, SeatJoin
from firmware_host.core.roster import Person
from firmware_host.core.settings import Settings
from firmware_host.resume import Session, open_session


def _open(state_dir: Path) -> Session:
    session = open_session(state_dir, lambda remembered: Settings(), lambda: 0.0)
    assert session.target is not None and session.journal is not None
    return session


def _play(session: Session, *events: Event) -> app.AppState:
    """`events` stepped and journaled, as the shell does; the state they lead to."""
    state = session.state
    assert session.target is not None
    for event in events:
        state, _ = app.step(state, event)
        session.target.commit(event)
        session.target.sync()
    return state


def _evening(session: Session) -> app.AppState:
    return _play(session, SeatJoin("Anna", "c1", 1.0), SeatJoin("Ben", "c2", 2.0),
                 SeatCommand(0, "points", "+1", 3.0, 1))  # Ben's phone: his point


def test_a_restart_replays_the_same_roster_and_ids_from_the_journal(tmp_path):
    first = _open(tmp_path)
    before = _evening(first)
    assert first.journal is not None
    first.journal.close()
    again = _open(tmp_path)
    try:
        assert again.state.roster == before.roster
        assert again.state.roster.people == (Person(0, "Anna"), Person(1, "Ben"))
        assert dict(zip(again.state.board.players, again.state.board.totals, strict=True)) == {"Anna": 0, "Ben": 1}
    finally:
        assert again.journal is not None
        again.journal.close()


@pytest.mark.parametrize("old", [False, True], ids=["snapshot", "snapshot-before-the-roster"])
def test_a_session_resumed_from_a_snapshot_keeps_the_roster(tmp_path, monkeypatch, old):
    first = _open(tmp_path)
    state = _evening(first)
    if old:  # a snapshot as written before the roster
        written = app.snapshot
        monkeypatch.setattr(app, "snapshot", lambda s: {k: v for k, v in written(s).items() if k != "roster"})
    monkeypatch.setattr(shell_journal, "ROLL_AFTER", 0)
    assert first.target is not None and first.journal is not None and app.can_snapshot(state)
    session = first.target.session
    first.target.compact(state)  # a fresh session that starts from the snapshot
    assert first.target.session != session and first.target.entries == 0  # nothing to replay after it
    first.journal.close()
    monkeypatch.undo()
    again = _open(tmp_path)
    try:
        assert [(p.id, p.name) for p in again.state.roster.at_table] == [(0, "Anna"), (1, "Ben")]
        assert again.state.board.players == ("Anna", "Ben")
        joined = _play(again, SeatJoin("Cem", "c3", 9.0))
        cem = joined.roster.named("Cem")
        assert cem is not None and cem.id == 2  # the next free id after the restart
    finally:
        assert again.journal is not None
        again.journal.close()
