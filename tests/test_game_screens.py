"""Each documented game, played by its script, looks as the reference PNGs show at its key steps:
a quarter, half and three quarters through the script and on the final screen, at 128×64 and 256×64.
New or changed screens: run with WORDTABLE_UPDATE_REFERENCES=1, look at the PNGs, commit them."""

import pytest

from firmware_host.core import app
from firmware_host.render import render
from firmware_host.script import run_script
from tests.screens import assert_matches_reference
from tests.test_table_scripts import GAME_SCRIPTS, PureApp, actions

STEPS = {"quarter": 0.25, "half": 0.5, "three-quarters": 0.75, "final": 1.0}


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_key_screens_of_each_game_match_their_references(name, tmp_path):
    steps = actions(name)
    table = PureApp()
    done = 0
    for label, share in STEPS.items():
        upto = round(len(steps) * share)
        run_script(steps[done:upto], table.hooks(), lambda line: None)
        done = upto
        screen = app.screen(table.state)
        for size in ((128, 64), (256, 64)):
            assert_matches_reference(render(screen, size), f"game_{name.removesuffix('.script')}_{label}", tmp_path)
