"""Start to first frame with an open game after a long session: every kind at 10k/30k/100k journal entries.

    python bench/bench_resume.py [--sizes 10000,30000,100000] [--kinds turn-timer,quiddler] [--runs 3]
                                 [--root DIR] [--pi]

Each journal is written by `open_games.write_open_game` (the real core and journal adapter); then a fresh
interpreter opens the appliance on it (`open_appliance`, sim profile) and the time from its first line
(before any import) to the first frame the shell hands the display is taken, `--runs` times, beside the
same kind opened fresh (the script's opening only). `--root DIR` runs the children on another checkout
of the program (e.g. the main branch, for the figures before a change) over the same journals. The rows
print p50/p99/max in ms and the ratio to fresh; `--pi` prints them at full speed and at a Pi Zero 2 W
core's share side by side (bench/pi_speed.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from open_games import KINDS, write_open_game
from pi_speed import add_pi_argument, pi_or_run, row

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import time
t0 = time.perf_counter()
import dataclasses, json, pathlib, sys
sys.path.insert(0, sys.argv[1])
from firmware_host.config import resolve
from firmware_host.appliance import open_appliance
drawn = []

def first_frame(outputs):
    seen = outputs.on_frame

    def on_frame(screen, image):
        drawn.append(time.perf_counter())
        seen(screen, image)

    return dataclasses.replace(outputs, on_frame=on_frame)

t1 = time.perf_counter()
appliance = open_appliance(resolve("sim", None, environ={}), pathlib.Path(sys.argv[2]), power_off=lambda: None,
                           outputs_hook=first_frame)
flow = appliance.shell.state.flow
appliance.close()
print(json.dumps({"first_frame_ms": (drawn[0] - t0) * 1000, "after_imports_ms": (drawn[0] - t1) * 1000,
                  "game": getattr(flow, "game", None)}))
"""


def first_frames(root: Path, directory: Path, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(directory)], capture_output=True,
                              text=True, check=True, cwd=root)
        result = json.loads(done.stdout.splitlines()[-1])
        assert result["game"] is not None, f"no game open after the start from {directory}"
        out.append(result["first_frame_ms"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,30000,100000")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout the children run")
    parser.add_argument("--journals", type=Path, help="keep the journals here (reused when present)")
    add_pi_argument(parser)
    args = parser.parse_args()

    sizes = [int(n) for n in args.sizes.split(",") if n]
    kinds = args.kinds.split(",")
    if args.journals is None:  # written once, at full speed, for every child
        args.journals = Path(tempfile.mkdtemp(prefix="wordtable-resume-"))
        sys.argv += ["--journals", str(args.journals)]
    for kind in kinds:
        for size in (0, *sizes):
            directory = args.journals / f"{kind}-{size}"
            if not directory.exists():
                write_open_game(directory, kind, size)

    def bench() -> None:
        print(f"start -> first frame with an open game (children on {args.root}), {args.runs} runs each:")
        for kind in kinds:
            fresh_ms = 1.0
            for size in (0, *sizes):
                times = first_frames(args.root, args.journals / f"{kind}-{size}", args.runs)
                if size == 0:
                    fresh_ms = statistics.median(times)
                    row(f"{kind} fresh", times)
                else:
                    row(f"{kind} {size // 1000}k entries", times)
                    row(f"{kind} {size // 1000}k entries / fresh", [t / fresh_ms for t in times], "x")

    pi_or_run(args, bench)


if __name__ == "__main__":
    main()
