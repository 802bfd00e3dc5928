"""Journal fuzz: damaged copies of real journals, each started as the box starts (tests/helpers/journal_fuzz.py).

    python bench/bench_journal_fuzz.py [--copies 300] [--seed 1] [-v]

The docs scripts' games are played with the real journal and copied mid-game (as a crash leaves the files)
and after a clean close; each copy gets bit flips in the database or its WAL, a truncation of either, or
header damage, and is started on the sim profile. Prints how many resumed exactly where the undamaged
journal does, how many were moved aside and salvaged with a message, how many resumed silently into a
state that differs (from the undamaged journal's, or from a clean replay of their own record) and how many
starts crashed; per damage too. Exit 1 on any silent difference or crash.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.journal_fuzz import DAMAGES, OUTCOMES, run_fuzz  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # every salvage logs; the figures are the output
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as base:
        results = run_fuzz(Path(base), args.copies, args.seed, log=print if args.verbose else lambda text: None)
    print(f"damaged copies started: {sum(results.counts.values())}")
    for outcome in OUTCOMES:
        print(f"  {outcome:14} {results.counts[outcome]}")
    print("per damage: " + "   ".join(
        f"{kind}: " + "/".join(str(results.by_damage[(kind, outcome)]) for outcome in OUTCOMES) for kind in DAMAGES))
    print(f"  (each as {' / '.join(OUTCOMES)})")
    print(f"wall time: {time.perf_counter() - began:.1f} s")
    for failure in results.failures:
        print(f"FAIL {failure}")
    return 1 if results.failures else 0


if __name__ == "__main__":
    sys.exit(main())
