"""The OLED's line at a game's end: computed from the journal's history once the game is archived, shown in
the footer (display-only: never journaled)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from firmware_host.core.events import Button, Highlight, Press
from firmware_host.end_summary import EndSummary
from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from firmware_host.script import run_script
from tests.game_scripts import actions
from tests.history_journal import archive, history_journal

OPEN, CLOSED = SimpleNamespace(flow=object()), SimpleNamespace(flow=None)


def ended(summary: EndSummary) -> None:
    summary.state_changed(OPEN)
    summary.state_changed(CLOSED)
    summary.wait()


def test_the_archived_games_end_is_told_once_and_an_abandoned_game_tells_nothing(tmp_path: Path):
    history_journal(tmp_path)
    told: list[object] = []
    summary = EndSummary(journal_path(tmp_path), told.append, lambda: 7.0)
    summary.state_changed(CLOSED)  # no game was open: nothing ended
    summary.wait()
    assert told == []
    ended(summary)
    assert told == [Highlight("Bob", "win", "1", 7.0)]  # the latest game, Quiddler: Bob's first win
    ended(summary)
    assert len(told) == 1  # told once
    with Journal.open(journal_path(tmp_path)) as journal:
        record = journal.export_record(4)
        archive(journal, "quiddler", "2026-05-09T19:00:00Z", "2026-05-09T19:10:00Z",
                "\n".join(record.splitlines()[:4]) + "\n")
    ended(summary)
    assert len(told) == 1  # the game that went was abandoned: it is nobody's


def test_no_journal_file_tells_nothing(tmp_path: Path):
    told: list[object] = []
    summary = EndSummary(journal_path(tmp_path / "none"), told.append, lambda: 0.0)
    ended(summary)
    assert told == []


@pytest.mark.slow  # a whole game of Das perfekte Wort in the simulator
def test_after_a_game_the_footer_tells_the_win_streak_and_the_journal_keeps_nothing_of_it(make_sim, tmp_path):
    history_journal(tmp_path)  # Geli won both games of Das perfekte Wort there
    sim = make_sim()
    run_script(actions("perfektes-wort.script"), sim.hooks(), lambda line: None)  # Geli wins again
    entries = sim.appliance.shell.journal.entries
    sim.send(Press(Button.START, sim.clock.now + 1))  # leaves the winner's screen: the game is archived
    shown = sim.take_inputs(lambda event: isinstance(event, Highlight))
    assert shown == [Highlight("Geli", "streak", "3", shown[0].at)]
    assert sim.screen_text().endswith("| Geli: 3. Sieg in Folge")
    assert sim.appliance.shell.journal.entries == entries + 1  # the press, not the line it led to
