"""The statistics per person over a journal of many archived games: what `wordtable stats`, the table
page's `/api/people` and the OLED's end-of-game line cost. Prints a table; asserts nothing.

    python bench/bench_stats.py [--games 100 1000] [--runs 3]

The journal holds the documented game scripts' records (docs/scripts: Das perfekte Wort, Quiddler, Knack das
Wort, Perfect Words, Zugzeit, played through `app.step`) archived in turn, an evening of five games a day.
Per size: reading and scoring every game once (`PlayedGames.read` cold: what the first request or game end
after a start pays, in the end-of-game line's worker thread, never on the table's loop), reading again
(warm: each game scored once, only the journal's list and the statistics), everyone with the evenings
(`table_json`), one person (`person_json`) and the end-of-game line (`highlight`), in CPU seconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_host.core.history import highlight, person_json, table_json  # noqa: E402
from firmware_host.journal import Journal  # noqa: E402
from firmware_host.paths import journal_path  # noqa: E402
from firmware_host.played_games import PlayedGames  # noqa: E402
from tests.history_games import SCRIPTS  # noqa: E402
from tests.history_journal import archive  # noqa: E402


def journal_of(state: Path, count: int) -> Path:
    kinds = list(SCRIPTS)
    with Journal.open(journal_path(state)) as journal, journal.batch():
        for n in range(count):
            day, slot = divmod(n, len(kinds))
            start = f"2026-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T{18 + slot:02d}:00:00Z"
            end = start.replace(":00:00Z", ":50:00Z")
            archive(journal, kinds[slot], start, end)
    return journal_path(state)


def cpu(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def measure(count: int, runs: int) -> tuple[float, ...]:
    """(cold read, warm read, everyone, a person, the end line) over a journal of `count` games."""
    with tempfile.TemporaryDirectory() as folder:
        path = journal_of(Path(folder), count)
        cold = cpu(lambda: PlayedGames().read(path), runs)
        played = PlayedGames()
        games = played.read(path)
        return (cold, cpu(lambda: played.read(path), runs), cpu(lambda: table_json(games), runs),
                cpu(lambda: person_json(games, "Geli"), runs), cpu(lambda: highlight(games, games[-1].id, 0.0), runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    heads = ("games", "cold read", "warm read", "everyone", "a person", "end line")
    print("  ".join(f"{head:>10}" for head in heads) + "  (CPU s)")
    for count in args.games:
        print(f"{count:>10}  " + "  ".join(f"{value:>10.3f}" for value in measure(count, args.runs)))


if __name__ == "__main__":
    main()
