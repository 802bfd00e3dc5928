"""The journal fuzz (tests/helpers/journal_fuzz.py; `bench/bench_journal_fuzz.py` runs 300 and more): damaged
copies of real journals never crash the start, and never resume silently into a state that differs from
the undamaged journal's or from a clean replay of their own record — they resume exactly, or are moved
aside and salvaged with a message on the panel."""

from __future__ import annotations

import logging

import pytest

from tests.helpers.journal_fuzz import run_fuzz


@pytest.mark.slow
def test_damaged_journals_resume_exactly_or_say_they_were_salvaged(tmp_path):
    logging.disable(logging.CRITICAL)
    try:
        results = run_fuzz(tmp_path, 60, seed=7)
    finally:
        logging.disable(logging.NOTSET)
    assert results.failures == []
    assert results.counts["resumed exact"] + results.counts["salvaged"] == 60
    assert results.counts["salvaged"] >= 10  # the damage reached the games, not only pages nobody reads
