"""A state directory that reads but cannot be written (a read-only SD card, a remount after errors): the
box comes back with the game in progress as the journal holds it, says that nothing is saved, and plays on
in memory — it used to start empty, hiding the game."""

from __future__ import annotations

import errno
from dataclasses import replace

import pytest

from firmware_host import resume
from firmware_host.core import app
from firmware_host.core.events import Button, Press, Turn
from firmware_host.journal import Journal

pytestmark = pytest.mark.slow  # the box restarted


def test_a_read_only_journal_resumes_the_game_in_progress_marked_unsaved(make_sim, tmp_path, monkeypatch):
    sim = make_sim()
    for event in app.events_to_choose(sim.state, "Punkte", 0) or []:  # the free scoreboard
        sim.wait_until(sim.clock.now + 0.1)
        sim.send(replace(event, at=sim.clock.now))
    sim.send(Turn(7, sim.clock.now + 0.1))  # the encoder: +7 for the first player
    sim.send(Press(Button.START, sim.clock.now + 0.2))  # START: +1
    board = sim.state.board
    assert sum(board.totals) == 8
    sim.close()

    real_open = Journal.open

    def read_only(path, *, readonly=False):
        if not readonly:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, readonly=True)

    monkeypatch.setattr(resume.Journal, "open", read_only)
    again = make_sim()
    assert again.state.board.totals == board.totals and again.state.home == "scoreboard"
    assert again.state.unsaved  # every title marked, the footer says why
    assert app.screen(again.state).title.startswith(app.UNSAVED_MARK)
