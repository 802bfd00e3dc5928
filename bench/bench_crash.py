"""Crash harness: kill -9 the appliance at random moments across scripted games of all four kinds and the turn timer.

    python bench/bench_crash.py [--kills 200] [--seed 1]

Each game script (docs/scripts) is played by a child process with the real journal; the child is killed
with SIGKILL at `--kills` random events in all and restarted until every game is played through. After
each restart the child checks that its resumed state equals a clean replay of the journal and that the
exported record is exactly the table's record and scores the same; the parent checks that no
acknowledged event was lost (tests/helpers/crash.py). Prints the figures; exit 1 on any failure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.crash import GAME_SCRIPTS, run_harness  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--script", action="append", help="a docs/scripts file instead of the game scripts "
                        "(repeatable), e.g. deck.script: enrolling cards")
    args = parser.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as base:
        figures = run_harness(Path(base), args.kills, args.seed, log=print if args.verbose else lambda t: None,
                              scripts=tuple(args.script) if args.script else GAME_SCRIPTS)
    starts = sorted(figures.start_ms)
    print(f"kills: {figures.kills}   restarts: {figures.restarts}   games played through: {figures.games}")
    print(f"acknowledged events lost: {figures.acked_lost}")
    print(f"restarts that found one event past the last ack (killed between commit and ack): "
          f"{figures.resumed_beyond_ack}")
    print(f"checks failed (resumed state vs clean replay, exported record vs table): {len(figures.failures)}")
    if starts:
        p99 = starts[min(len(starts) - 1, int(0.99 * len(starts)))]
        median = statistics.median(starts)
        print(f"process start to resumed (ms): p50 {median:.0f}  p99 {p99:.0f}  max {starts[-1]:.0f}")
    print(f"wall time: {time.perf_counter() - began:.1f} s")
    for failure in figures.failures:
        print(f"FAIL {failure}")
    return 1 if figures.failures or figures.acked_lost or figures.kills < args.kills else 0


if __name__ == "__main__":
    sys.exit(main())
