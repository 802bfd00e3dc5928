"""The documented game scripts (docs/scripts/*.script): played on the pure app with a plain clock, and
through the simulator on mock hardware once it can be imported."""

import importlib

import pytest

from firmware_host.core import app
from firmware_host.script import run_script
from tests.game_scripts import GAME_SCRIPTS, PureApp, actions


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_game_script_holds_on_the_pure_app(name):
    table = PureApp()
    run_script(actions(name), table.hooks(), lambda line: None)
    assert table.state.flow is not None and table.state.home == "game"  # ends on the final screen


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_game_script_plays_in_the_simulator(name, tmp_path):
    try:
        simulator = importlib.import_module("firmware_host.simulator")
        from firmware_host.config import resolve
    except ImportError as exc:
        pytest.skip(f"the simulator cannot be imported yet: {exc}")
    sim = simulator.Simulator(resolve("sim", None, environ={}), tmp_path)
    try:
        run_script(actions(name), sim.hooks(), lambda line: None)
        assert sim.state.flow is not None
    finally:
        sim.close()


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_a_restart_in_the_middle_of_a_game_resumes_it_and_the_journal_scores(name, tmp_path):
    """The power goes off half-way through the game; the table carries on where it was, the script's
    later expectations (the final totals among them) still hold, and the record exported from the
    journal is scored by `wordtable score` without complaint."""
    from dataclasses import replace

    from firmware_host.commands.score import score
    from firmware_host.config import resolve
    from firmware_host.core.record import parse_record
    from firmware_host.simulator import Simulator

    steps = actions(name)
    middle = len(steps) // 2
    sim = Simulator(resolve("sim", None, environ={}), tmp_path)
    try:
        run_script(steps[:middle], sim.hooks(), lambda line: None)
        before = replace(app.screen(sim.state), footer="")
        sim.restart()
        assert replace(app.screen(sim.state), footer="") == before
        run_script(steps[middle:], sim.hooks(), lambda line: None)
        assert sim.state.flow is not None and sim.state.home == "game"
        journal = sim.appliance.journal
        game = next(g for g in reversed(journal.games()) if g.game != "appliance")
        report = score(parse_record(journal.export_record(game.id)))
        assert report.to_json()
    finally:
        sim.close()
