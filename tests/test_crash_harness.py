"""The crash harness, short: 20 kill -9s across the game scripts (bench/bench_crash.py runs 200+)."""

import pytest

from tests.helpers.crash import GAME_SCRIPTS, run_harness

pytestmark = pytest.mark.slow  # kills and restarts child processes


def test_twenty_kills_lose_nothing_and_the_record_always_agrees_with_the_table(tmp_path):
    figures = run_harness(tmp_path, kills=20, seed=11)
    assert figures.failures == []
    assert figures.acked_lost == 0
    assert figures.kills >= 20
    assert figures.games >= len(GAME_SCRIPTS)
