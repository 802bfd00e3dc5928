"""What the table page's web stack costs in resident memory, today's (aiohttp) beside lighter ones, for issue 40.

    python bench/bench_page_stacks.py [--runs 3] [--path DIR]

Each stack is imported in a fresh interpreter that first loads what `wordtable run` has loaded with the page
off and the league on (the appliance, the drivers, Pillow, paho), with `ssl` kept out (`firmware_host.tls`)
and aiohttp's frozenlist in pure Python, as the service runs them: a row is the VmRSS the stack's import
adds on top, in MB. The lighter stacks are not the project's dependencies: `--path` names a site-packages
that has them (`pip install --target DIR h11 wsproto microdot websockets`); a stack missing there is
skipped with a note. Import only: running and serving 8 WebSockets adds ~0.3 MB to either kind.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pi_speed import row

ROOT = Path(__file__).resolve().parent.parent
STACKS = {
    "aiohttp.web (the page today)": "import asyncio, aiohttp.web",
    "asyncio + h11 + wsproto": "import asyncio, h11, wsproto",
    "microdot (asyncio) + microdot.websocket": "import asyncio, microdot, microdot.websocket",
    "websockets' asyncio server": "import asyncio, websockets.asyncio.server",
    "selectors + h11 + wsproto (no asyncio)": "import selectors, h11, wsproto",
    "http.server (threads) + wsproto": "import http.server, wsproto",
}
CHILD = r"""
import gc, os, sys
from firmware_host import tls
tls.keep_out("bench")
os.environ["FROZENLIST_NO_EXTENSIONS"] = "1"
import firmware_host.commands.run, firmware_host.appliance, firmware_host.startup, firmware_host.render
import firmware_host.league.publisher, gpiozero.pins.mock, luma.core.device, serial, sqlite3, PIL.ImageFont
if len(sys.argv) > 2:
    sys.path.append(sys.argv[2])


def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


gc.collect()
base = rss()
try:
    exec(sys.argv[1])
except ImportError as exc:
    print(f"missing {exc.name}")
    sys.exit(0)
gc.collect()
print(f"{rss() - base:.3f} {base:.3f}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--path", type=Path, help="a site-packages with h11, wsproto, microdot, websockets")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"VmRSS an import adds to what `wordtable run` (league on, page off) holds, {args.runs} runs:")
    for label, statement in STACKS.items():
        values: list[float] = []
        for _ in range(args.runs):
            argv = [sys.executable, "-c", CHILD, statement, *([str(args.path)] if args.path else [])]
            out = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, check=True).stdout.split()
            if out[0] == "missing":
                print(f"  {label}: skipped, {out[1]} is not installed (--path)")
                break
            values.append(float(out[0]))
        if values:
            row(label, values, "MB")


if __name__ == "__main__":
    main()
