"""A power cut during Das perfekte Wort's minute (issue 38): the box (the real shell on the sim profile, its
journal in a state directory) is killed with SIGKILL while the sand runs, started again on the same state
directory, and START runs the sand on from where it stood: the round ends at the resumed deadline with
the alarm, is scored, and `wordtable journal export` scores what the screen shows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.events import Button, Press
from firmware_host.core.games.perfektes_wort.record import score_record
from firmware_host.core.games.perfektes_wort.stages import Entering, Reviewing, Standing, Timing
from firmware_host.core.games.registry import parse_record
from firmware_host.core.screens import ListScreen
from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from firmware_host.simulator import Simulator
from tests.helpers.sim_kill import killed_after
from tests.test_leave_game import clean_replay, journal_cli, play, same_table

pytestmark = pytest.mark.slow  # a simulator in a child process, killed

TO_THE_MINUTE = """choose Das perfekte Wort
turn -2
type Geli
type Klaus
press start
press start
press start
press start
press next
press start
wait 20
"""  # two players, Grundversion, points card 1a, the button deck; round 1's card; the sand runs 20 s


def test_a_power_cut_during_the_minute_resumes_with_start_and_the_round_ends_with_the_alarm(
        make_sim: Callable[..., Simulator], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    box = tmp_path / "box"
    killed_after(box, TO_THE_MINUTE)

    sim = make_sim(box)
    state = sim.state
    assert isinstance(state.flow.stage, Timing) and not state.timer.running
    left = state.timer.left(state.now)
    assert left == pytest.approx(40, abs=5.5)  # the time left at the last journaled checkpoint (every 5 s)
    with Journal.open(journal_path(box), readonly=True) as journal:
        same_table(sim.state, clean_replay(journal))
    assert "Sanduhr angehalten" in sim.screen_text() and "START läuft weiter" in sim.screen_text()

    pressed = sim.clock.now + 2
    sim.wait_until(pressed)
    assert not sim.state.timer.running  # paused: no time passes on it
    sim.send(Press(Button.START, pressed))
    assert isinstance(sim.state.flow.stage, Timing) and sim.state.timer.running
    deadline = sim.state.timer.countdown.deadline
    assert deadline == pytest.approx(pressed + left)  # the sand runs on from where it stood
    sim.wait_until(deadline - 0.5)
    assert isinstance(sim.state.flow.stage, Timing) and "alarm" not in [p for _, p in sim.sounds]
    sim.wait_until(deadline + 0.5)
    assert [at for at, pattern in sim.sounds if pattern == "alarm"] == [pytest.approx(deadline, abs=0.01)]
    assert isinstance(sim.state.flow.stage, Entering)

    game = sim.state.flow.play
    letter, longest = game.letter(1), game.max_length(1)
    words = (letter + "ANNE")[:longest], (letter + "EIN")[:longest]
    play(sim, f"type {words[0]}\ntype {words[1]}")
    assert isinstance(sim.state.flow.stage, Reviewing)
    play(sim, "press start\npress start")  # the review, the round's points
    assert isinstance(sim.state.flow.stage, Standing)
    board = app.screen(sim.state)
    assert isinstance(board, ListScreen)
    on_screen = {item.label: int(item.value) for item in board.items}
    assert set(on_screen) == {"Geli", "Klaus"} and any(on_screen.values())

    exported = journal_cli(capsys, box, "export")
    assert [json.loads(line)["event"] for line in exported.splitlines()[1:]] == ["setup", "reveal", "word", "word"]
    scored = score_record(parse_record(exported)).result
    assert {p.name: p.total for p in scored.players} == on_screen
