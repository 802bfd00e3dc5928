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


def test_kills_while_cards_are_enrolled_keep_on_disk_the_cards_the_screen_said(tmp_path):
    figures = run_harness(tmp_path, kills=30, seed=23, scripts=("deck.script",))
    assert figures.failures == []  # among the checks: the card tables on disk are the resumed table's
    assert figures.acked_lost == 0 and figures.kills >= 30
