"""The box under a flood from the LAN (issue 35), as `wordtable run` assembles it (sim profile, mock pins, the
journal, the table page on 127.0.0.1), beside the same box left alone.

Per run it starts a sand timer of `--seconds` and, while it runs, floods the page with 2,000 connections that
never finish their request (from 100 addresses) after takeover claims at 500 a second for a seat a phone
holds (from one address, then from 50); meanwhile a NEXT is pressed every 0.25 s. It prints:
- the end alarm's error: when the core's alarm sound was carried out, less the timer's deadline (ms);
- press → sound: a press put on the shell's queue until its (error) beep was carried out: p50/p99/max (ms);
- what the flood got: connections the server still held, claims waiting (202) / refused (409, 429) / shut
  out (0: closed before an answer).

    python bench/bench_flood.py [--runs 3] [--seconds 6]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_host.core.events import Button, Press
from tests.helpers.flood import (
    claim_flood,
    close_all,
    join,
    slow_connections,
    start_box,
    still_open,
)


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(v * 1000 for v in values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered):.2f} / p99 {p99:.2f} / max {ordered[-1]:.2f} ms (n={len(ordered)})"


def run(seconds: int, flood: bool) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    box = start_box(scratch, duration_s=seconds)
    held: list = []
    statuses: list[int] = []
    try:
        assert asyncio.run(join(box.url, box.server.code, 0))[0] == 200
        shell = box.appliance.shell

        def attack() -> None:
            async def go() -> None:
                statuses.extend(await claim_flood(box.server.port, box.server.code, 0, 500, seconds / 4, 1))
                statuses.extend(await claim_flood(box.server.port, box.server.code, 0, 500, seconds / 4, 50))
                held.extend(await slow_connections(box.server.port, 2000, 100))
            asyncio.run(go())

        attacker = threading.Thread(target=attack)
        shell.put(Press(Button.START, time.monotonic()))
        while not shell.state.timer.running:
            time.sleep(0.001)
        deadline = shell.state.timer.countdown.deadline
        assert deadline is not None
        if flood:
            attacker.start()
        presses: list[float] = []
        latencies: list[float] = []
        while time.monotonic() < deadline - 0.3:
            time.sleep(0.25)
            heard = len(box.sounds)
            put = time.monotonic()
            shell.put(Press(Button.NEXT, put))
            presses.append(put)
            while len(box.sounds) == heard and time.monotonic() - put < 5:
                time.sleep(0.0005)
            if len(box.sounds) > heard:
                latencies.append(box.sounds[heard][1] - put)
        while not [t for s, t in box.sounds if s == "alarm"] and time.monotonic() < deadline + 10:
            time.sleep(0.001)
        alarm = next((t for s, t in box.sounds if s == "alarm"), None)
        if flood:
            attacker.join()
        label = "flooded" if flood else "alone  "
        error = "never" if alarm is None else f"{(alarm - deadline) * 1000:+.2f} ms"
        print(f"{label}: alarm error {error}; press -> sound {ms(latencies)}")
        if flood:
            counts = {code: statuses.count(code) for code in sorted(set(statuses))}
            print(f"         slow connections still held by the server: {still_open(held)} of {len(held)}; "
                  f"claims by answer: {counts}")
    finally:
        close_all(held)
        box.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=6)
    args = parser.parse_args()
    for _ in range(args.runs):
        run(args.seconds, flood=False)
        run(args.seconds, flood=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
