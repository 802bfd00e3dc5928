"""Start-up cost: from a cold interpreter to the first frame on the (dummy) display.

    python bench/bench_startup.py [--runs 5]

Prints the median of each stage over fresh interpreters, and the heaviest imports (python -X importtime),
split into the program's own modules and the libraries it loads.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STAGES = r"""
import time, tempfile, pathlib
t0 = time.perf_counter()
import firmware_host.cli
t1 = time.perf_counter()
from firmware_host.config import resolve
from firmware_host.appliance import open_appliance
t2 = time.perf_counter()
resolved = resolve("sim", None, environ={})
with tempfile.TemporaryDirectory() as d:
    appliance = open_appliance(resolved, pathlib.Path(d), power_off=lambda: None)
    t3 = time.perf_counter()
    appliance.close()
print(f"{(t1 - t0) * 1000:.1f} {(t2 - t1) * 1000:.1f} {(t3 - t2) * 1000:.1f}")
"""


def run(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *flags, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bare, cli, stack, first = [], [], [], []
    for _ in range(args.runs):
        t = time.perf_counter()
        run("pass")
        bare.append((time.perf_counter() - t) * 1000)
        a, b, c = (float(x) for x in run(STAGES).stdout.split())
        cli.append(a)
        stack.append(b)
        first.append(c)
    print(f"start-up of wordtable, median of {args.runs} fresh interpreters (Python {sys.version.split()[0]})")
    print(f"{'interpreter alone (python -c pass)':<52} {statistics.median(bare):8.1f} ms")
    print(f"{'import firmware_host.cli (what every command pays)':<52} {statistics.median(cli):8.1f} ms")
    print(f"{'import config + appliance (gpiozero, luma, PIL, sqlite)':<52} {statistics.median(stack):8.1f} ms")
    print(f"{'profile, journal, drivers, first frame':<52} {statistics.median(first):8.1f} ms")

    trace = run(STAGES, "-X", "importtime").stderr.splitlines()
    rows = []
    for line in trace:
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if parts[0].isdigit():
            rows.append((int(parts[1]), parts[2].strip()))  # cumulative µs, module
    tops: dict[str, int] = {}
    for cumulative, module in rows:  # a package's cost: its most expensive import statement
        top = module.split(".")[0]
        tops[top] = max(tops.get(top, 0), cumulative)
    own = {m: us for m, us in tops.items() if m in ("firmware_host", "hw", "drivers")}
    libraries = sorted(((us, m) for m, us in tops.items() if m not in own), reverse=True)[:8]
    print("\nheaviest top-level imports (cumulative):")
    for module, us in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {module:<30} {us / 1000:8.1f} ms   (the program's own package)")
    for us, module in libraries:
        print(f"  {module:<30} {us / 1000:8.1f} ms")


if __name__ == "__main__":
    main()
