"""`wordtable score` on long records: time and peak memory for n = 10k, 40k, 80k event lines per game;
and the free scoreboard's replay: n point changes folded through `app.step` (what a resume does).
Prints tables; asserts nothing.

    python bench/bench_score.py [--sizes 10000 40000 80000] [--runs 3] [--changes 5000 10000 20000 40000]

Each record is valid and scores: Knack das Wort grows by turns (mostly draws and action cards, a game
no one ends early); Perfect Words by a merge repeated after the reveal; Das perfekte Wort by a correction
repeated (the documented examples in docs/examples/, with that line repeated). Quiddler's rules bound a
record (8 rounds, one lay per player and round, one challenge per laid word), so its longest record is
a few hundred lines: it is measured at the example's size only. Each run is a fresh interpreter running
`wordtable score FILE` (stdout discarded): the wall time of scoring (reading, parsing, replaying, the
report's text) after the program's modules are imported, the import time beside it, and the process's
peak RSS.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"

CHILD = r"""
import contextlib, io, sys, time
sys.path.insert(0, sys.argv[2])
from bench.peak import peak_mb
start = time.perf_counter()
from firmware_host import cli
import firmware_host.commands.score
imported = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    code = cli.main(["score", sys.argv[1]])
elapsed = time.perf_counter() - imported
print(code, elapsed, peak_mb(), imported - start)
"""


SCOREBOARD = r"""
import sys, time
sys.path.insert(0, sys.argv[2])
from bench.peak import peak_mb
from firmware_host.core import app
from firmware_host.core.events import Button, Press
from firmware_host.core.settings import Settings
state, _ = app.initial(Settings(player_count=4))
for button in (Button.MENU, Button.NEXT, Button.START):  # the menu's second entry: the scoreboard
    state, _ = app.step(state, Press(button, 0.0))
assert state.home == "scoreboard", state.home
events = [Press(Button.START if i % 3 else Button.NEXT, float(i)) for i in range(int(sys.argv[1]))]
start = time.perf_counter()
for event in events:
    state, _ = app.step(state, event)
elapsed = time.perf_counter() - start
print(elapsed, peak_mb(), sum(state.board.totals))
"""


def line(**fields: object) -> str:
    return json.dumps(fields, ensure_ascii=False)


def knack(n: int) -> str:
    players = ["Anna", "Ben", "Cem"]
    body = []
    turn = 0
    while len(body) < n - 1 - 1 - len(players):  # setup, end, a cards-left line per player
        player = players[turn % len(players)]
        if turn % 5 == 1:
            body.append(line(event="action", player=player, card="Zieh 2"))
        if turn < 30:
            body.append(line(event="word", player=player, word="ABC"))  # 10 words each: 30 points, no end
        else:
            body.append(line(event="draw", player=player))
        turn += 1
    tail = [line(event="end", reason="grid")] + [line(event="left", player=p, cards=2) for p in players]
    header = [line(record="wordtable", version=1, game="knack-das-wort"), line(event="setup", players=players)]
    return "\n".join(header + body[: n - 1 - len(tail)] + tail) + "\n"


def repeated(example: str, marker: str, n: int) -> str:
    """The example record with its first line containing `marker` repeated until it has n event lines."""
    lines = (EXAMPLES / example).read_text(encoding="utf-8").splitlines()
    at = next(i for i, text in enumerate(lines) if marker in text)
    copies = max(0, n - (len(lines) - 1))
    return "\n".join(lines[: at + 1] + [lines[at]] * copies + lines[at + 1 :]) + "\n"


GAMES = {
    "knack-das-wort": knack,
    "perfect-words": lambda n: repeated("perfect-words.jsonl", '"merge"', n),
    "perfektes-wort": lambda n: repeated("perfektes-wort.jsonl", '"correct"', n),
}


def measure(path: Path, source: Path) -> tuple[int, float, float, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(source)], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    code, seconds, rss, imports = out.stdout.split()
    return int(code), float(seconds), float(rss), float(imports)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 40_000, 80_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose code scores (default: this)")
    parser.add_argument("--changes", type=int, nargs="*", default=[5_000, 10_000, 20_000, 40_000])
    args = parser.parse_args()
    print(f"the scoreboard's replay: n presses (2 of 3 add a point) through app.step, {args.runs} runs each")
    print(f"{'presses':>8}{'seconds':>10}{'(min–max)':>16}{'µs/press':>10}{'peak RSS MB':>13}")
    for n in args.changes:
        runs = []
        for _ in range(args.runs):
            out = subprocess.run([sys.executable, "-c", SCOREBOARD, str(n), str(args.source)], capture_output=True,
                                 text=True, check=True, cwd=ROOT)
            seconds, rss, _total = out.stdout.split()
            runs.append((float(seconds), float(rss)))
        middle = statistics.median(r[0] for r in runs)
        spread = f"({min(r[0] for r in runs):.2f}–{max(r[0] for r in runs):.2f})"
        print(f"{n:>8}{middle:>10.2f}{spread:>16}{middle / n * 1e6:>10.0f}{max(r[1] for r in runs):>13.1f}")
    print()
    print(f"wordtable score on long records, {args.runs} runs each (median, min–max); Python {sys.version.split()[0]}")
    print(f"{'game':<16}{'lines':>8}{'score s':>10}{'(min–max)':>16}{'µs/line':>9}{'peak RSS MB':>13}"
          f"{'import s':>10}{'exit':>6}")
    with tempfile.TemporaryDirectory(prefix="wordtable-score-") as scratch:
        cases = [(game, n, make(n)) for game, make in GAMES.items() for n in args.sizes]
        quiddler = (EXAMPLES / "quiddler.jsonl").read_text(encoding="utf-8")
        cases.append(("quiddler", quiddler.count("\n") - 1, quiddler))
        for game, n, text in cases:
            path = Path(scratch) / f"{game}-{n}.jsonl"
            path.write_text(text, encoding="utf-8")
            results = [measure(path, args.source) for _ in range(args.runs)]
            seconds = [r[1] for r in results]
            rss = max(r[2] for r in results)
            middle = statistics.median(seconds)
            spread = f"({min(seconds):.2f}–{max(seconds):.2f})"
            imports = statistics.median(r[3] for r in results)
            print(f"{game:<16}{n:>8}{middle:>10.2f}{spread:>16}{middle / n * 1e6:>9.0f}{rss:>13.1f}"
                  f"{imports:>10.2f}{results[0][0]:>6}")


if __name__ == "__main__":
    main()
