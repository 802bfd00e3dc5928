"""The documented game scripts (docs/scripts/*.script): played on the pure app with a plain clock, and
through the simulator on mock hardware."""

import pytest

from firmware_host.core import app
from firmware_host.script import run_script
from tests.game_scripts import GAME_SCRIPTS, actions

pytestmark = pytest.mark.slow  # plays whole game scripts


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_game_script_holds_on_the_pure_app(name, pure_app):
    table = pure_app
    run_script(actions(name), table.hooks(), lambda line: None)
    assert table.state.flow is not None and table.state.home == "game"  # ends on the final screen


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_game_script_plays_in_the_simulator(name, sim):
    run_script(actions(name), sim.hooks(), lambda line: None)
    assert sim.state.flow is not None


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_a_restart_in_the_middle_of_a_game_resumes_it_and_the_journal_scores(name, sim):
    """The power goes off half-way through the game; the table carries on where it was, the script's
    later expectations (the final totals among them) still hold, and the record exported from the
    journal is scored by `wordtable score` without complaint."""
    from dataclasses import replace

    from firmware_host.commands.score import score
    from firmware_host.core.games.registry import parse_record

    steps = actions(name)
    middle = len(steps) // 2
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
