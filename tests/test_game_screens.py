"""Each documented game, played by its script, looks as the reference PNGs show at its named points: the
`# snapshot: NAME` comments in docs/scripts/*.script (e.g. "after round 3", "winner"), at 128×64 and 256×64.
New or changed screens: `python -m tests.update_references`, look at the PNGs it lists, commit them."""

import pytest

from firmware_host.render import render
from tests.game_scripts import GAME_SCRIPTS, play_to_snapshots, reference_name, snapshots
from tests.screens import PANEL_SIZES, assert_matches_reference

pytestmark = pytest.mark.slow  # plays whole games


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_key_screens_of_each_game_match_their_references(name, tmp_path):
    assert snapshots(name), f"{name} names no `# snapshot: NAME` point"
    for snapshot, screen in play_to_snapshots(name):
        for size in PANEL_SIZES:
            assert_matches_reference(render(screen, size), reference_name(name, snapshot), tmp_path)
