"""The shelf across a kill -9: a Quiddler game begun, left for another game (shelved), the box killed with
SIGKILL and started again on the same state directory — the shelf holds the game as a box that was never
killed holds it, "Fortsetzen" brings it back exactly (the state a clean replay of the journal gives),
and the game goes on to the same record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from firmware_host.simulator import Simulator
from tests.helpers.sim_kill import killed_after
from tests.test_leave_game import QUIDDLER_ROUND_1, clean_replay, journal_cli, play, same_table, unlabelled

pytestmark = pytest.mark.slow  # a simulator in a child process, killed

SHELVE = "choose Das perfekte Wort\npress start\npress back\n"  # asked: START leaves Quiddler; BACK: no new game
RESUME = "choose Fortsetzen\npress start\n"
REST_OF_ROUND = "type AT\nhold next\ntype Z\npress next\n"  # Bob's words and cards left: round 1 is scored


def test_a_shelved_game_survives_a_kill_and_resumes_exactly(
        make_sim: Callable[..., Simulator], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    never_killed = make_sim(tmp_path / "plain")
    play(never_killed, QUIDDLER_ROUND_1 + SHELVE)
    box = tmp_path / "box"
    killed_after(box, QUIDDLER_ROUND_1 + SHELVE)

    sim = make_sim(box)
    assert [game.flow for game in sim.state.shelf] == [game.flow for game in never_killed.state.shelf]
    play(sim, RESUME)
    play(never_killed, RESUME)
    assert sim.state.flow is not None and sim.state.flow == never_killed.state.flow
    with Journal.open(journal_path(box), readonly=True) as journal:
        same_table(sim.state, clean_replay(journal))
    play(sim, REST_OF_ROUND)
    play(never_killed, REST_OF_ROUND)
    assert unlabelled(journal_cli(capsys, box, "export")) == unlabelled(journal_cli(capsys, tmp_path / "plain",
                                                                                    "export"))
