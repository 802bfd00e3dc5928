"""Start to first frame with an open game after a long session: every kind at 10k/30k/100k journal entries.

    python bench/bench_resume.py [--sizes 10000,30000,100000] [--kinds turn-timer,quiddler] [--runs 3]
                                 [--root DIR] [--journals DIR] [--latency] [--unclean] [--pi]

Each journal is written by `open_games.write_open_game` (the real core and journal adapter); then a fresh
interpreter opens the appliance on it (`open_appliance`, sim profile) and the time from its first line
(before any import) to the first frame the shell hands the display is taken, `--runs` times, beside the
same kind opened fresh (the script's opening only). Each journal holds the resume snapshot the shell's
policy would have left (`open_games`), so the start loads it and replays the inputs after it. Each child
then writes a snapshot of the state it resumed (`snapshots.pack`, atomically, as the shell's writer does):
its time and size are the snapshot write at that length. `--latency`: the shell's handling of an input
(START, its frame drawn) while a snapshot of the longest journal is written on its thread, beside the same
without. `--root DIR` runs the children on another checkout of the program (e.g. the main branch, for the
figures before a change) over the same journals (it writes no snapshots then). `--unclean`: each start is
also taken as after a power cut — the journal's seal of a clean close removed before it, so the open
checks the whole file (`PRAGMA quick_check`, journal/seal.py) — in rows of their own. The rows print p50/p99/max
in ms and the ratio to fresh; `--pi` prints them at full speed and at a Pi Zero 2 W core's share side by
side (bench/pi_speed.py).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

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
shell = appliance.shell
flow = shell.state.flow
result = {"first_frame_ms": (drawn[0] - t0) * 1000, "after_imports_ms": (drawn[0] - t1) * 1000,
          "game": getattr(flow, "game", None)}
try:
    from firmware_host.paths import write_atomically
    from firmware_host.snapshots import Mark, pack
except ImportError:  # a checkout from before the snapshots
    pack = None
if pack is not None:
    mark = Mark(0, 0, 0, "", 0, None, 0, 0)
    written = pathlib.Path(sys.argv[2]) / "bench.snapshot"
    t2 = time.perf_counter()
    data = pack(b"k" * 32, 0, mark, shell.state)
    write_atomically(written, data)
    result.update(snapshot_ms=(time.perf_counter() - t2) * 1000, snapshot_kb=len(data) / 1024)
    written.unlink()
if sys.argv[3:] == ["latency"] and pack is not None:
    import threading
    from firmware_host.core.events import Button, Press

    def handled(n):
        took = []
        for _ in range(n):
            time.sleep(0.004)
            t = time.perf_counter()
            shell.handle(Press(Button.START, shell.clock()))
            took.append((time.perf_counter() - t) * 1000)
        return took

    result["idle_ms"] = handled(60)
    writes = []

    def write_snapshots():
        while len(writes) < 3:
            t = time.perf_counter()
            write_atomically(written, pack(b"k" * 32, 0, mark, shell.state))
            writes.append((time.perf_counter() - t) * 1000)

    writer = threading.Thread(target=write_snapshots)
    writer.start()
    during = []
    while writer.is_alive():
        during += handled(10)
    writer.join()
    result.update(during_ms=during, writes_ms=writes)
    written.unlink()
appliance.close()
print(json.dumps(result))
"""


def child(root: Path, directory: Path, *extra: str, unclean: bool = False) -> dict[str, Any]:
    if unclean:  # as after a power cut: no seal of a clean close, so the open checks the whole file
        (directory / "journal.sqlite3.clean").unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(directory), *extra], capture_output=True,
                          text=True, check=True, cwd=root)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    assert result["game"] is not None, f"no game open after the start from {directory}"
    return result


def first_frames(root: Path, directory: Path, runs: int,
                 unclean: bool = False) -> tuple[list[float], list[float], list[float]]:
    """The first frames' times and the snapshot writes' times and sizes of `runs` starts on `directory`."""
    results = [child(root, directory, unclean=unclean) for _ in range(runs)]
    return ([r["first_frame_ms"] for r in results], [r["snapshot_ms"] for r in results if "snapshot_ms" in r],
            [r["snapshot_kb"] for r in results if "snapshot_kb" in r])


def latency(root: Path, directory: Path, label: str) -> None:
    """An input's handling while snapshots of the journal in `directory` (a copy: it plays on) are written."""
    with tempfile.TemporaryDirectory(prefix="wordtable-latency-") as scratch:
        copy = Path(scratch) / "state"
        shutil.copytree(directory, copy)
        result = child(root, copy, "latency")
    row(f"{label}: START handled, no snapshot written", result["idle_ms"])
    row(f"{label}: START handled while snapshots are written", result["during_ms"])
    row(f"{label}: the snapshot writes meanwhile", result["writes_ms"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,30000,100000")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout the children run")
    parser.add_argument("--journals", type=Path, help="keep the journals here (reused when present)")
    parser.add_argument("--latency", action="store_true", help="an input's handling during a snapshot write")
    parser.add_argument("--unclean", action="store_true", help="each start also as after a power cut (unsealed)")
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
                times, write_ms, write_kb = first_frames(args.root, args.journals / f"{kind}-{size}", args.runs)
                label = f"{kind} fresh" if size == 0 else f"{kind} {size // 1000}k entries"
                if size == 0:
                    fresh_ms = statistics.median(times)
                    row(label, times)
                else:
                    row(label, times)
                    row(f"{label} / fresh", [t / fresh_ms for t in times], "x")
                if write_ms:
                    row(f"{label}: snapshot write", write_ms)
                    row(f"{label}: snapshot size", write_kb, "kB")
                if args.unclean:
                    times = first_frames(args.root, args.journals / f"{kind}-{size}", args.runs, unclean=True)[0]
                    row(f"{label} after a power cut", times)
                    row(f"{label} after a power cut / fresh", [t / fresh_ms for t in times], "x")
        if args.latency:
            kind, size = kinds[0], max(sizes)
            latency(args.root, args.journals / f"{kind}-{size}", f"{kind} {size // 1000}k")

    pi_or_run(args, bench)


if __name__ == "__main__":
    main()
