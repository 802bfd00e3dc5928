"""Benchmark: card scan → frame on the display, through the real shell on mock pins (sim profile).

Two paths, each timed from the input to the shell's `on_frame` (the rendered image handed to the display):
- inbox:  a `CardScan` put on the shell's inbox (what a reader thread does);
- reader: an RDM6300 frame written into the reader's simulated serial port (loop://), so the reader
  thread, the frame parser and the debouncer are included (not the 9600-baud wire time: ~10.4 ms a frame).
The appliance is in the Deck mode (Das perfekte Wort, physical cards); every scan shows another face.
Prints p50/p99/max in ms; asserts nothing.

    python bench/bench_scan.py            # 500 scans per path
    python bench/bench_scan.py --quick    # 100
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import start_appliance, stats
from firmware_host.appliance import Appliance
from firmware_host.core import app
from firmware_host.core.cards import CardTable, kept_name, table_data
from firmware_host.core.events import Button, CardScan, Press, Turn, kept_event
from firmware_host.shell import Outputs

TAGS = {"0A00000001": "K/5", "0A00000002": "M/7", "0A00000003": "S/6"}


class Probe:
    def __init__(self) -> None:
        self.frames: list[float] = []
        self.seen = threading.Event()

    def hook(self, outputs: Outputs) -> Outputs:
        def on_frame(screen: Any, image: Any) -> None:
            self.frames.append(time.monotonic())
            self.seen.set()

        return replace(outputs, on_frame=on_frame)


def enter_deck_mode(appliance: Appliance) -> None:
    """Menu → Deck → Das perfekte Wort, cards; the three tags enrolled."""
    shell, now = appliance.shell, time.monotonic()
    deck = app.main_keys(shell.state).index("game:deck")
    table = CardTable("perfektes-wort", TAGS)
    shell.put(kept_event({kept_name(table.game): table_data(table)}, now))
    for event in (Press(Button.MENU, now), Turn(deck, now), Press(Button.START, now), Press(Button.NEXT, now),
                  Press(Button.START, now)):
        shell.put(event)
    deadline = time.monotonic() + 10
    while "Deck" not in str(getattr(shell.screen, "title", "")):
        if time.monotonic() > deadline:
            raise SystemExit(f"could not reach the Deck mode; the screen shows {shell.screen}")
        time.sleep(0.01)


def timed(probe: Probe, send: Any, scans: int, first: int = 0) -> list[float]:
    """`first`: the tag to start with (each scan must change the screen, or no frame is drawn)."""
    latencies = []
    tags = list(TAGS)
    for number in range(scans):
        probe.seen.clear()
        before = time.monotonic()
        send(tags[(first + number) % len(tags)])
        if probe.seen.wait(2):
            latencies.append((probe.frames[-1] - before) * 1000)
        time.sleep(0.005)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    scans = 100 if parser.parse_args().quick else 500
    probe = Probe()
    with tempfile.TemporaryDirectory(prefix="wordtable-bench-") as scratch:
        appliance, thread = start_appliance(Path(scratch), probe.hook)
        enter_deck_mode(appliance)
        shell = appliance.shell
        inbox = timed(probe, lambda tag: shell.put(CardScan("rfid", tag, time.monotonic())), scans)
        port = appliance.hardware.readers.simulated["rfid"]
        deadline = time.monotonic() + 5
        while not port.send(b""):  # the reader thread has its port open
            if time.monotonic() > deadline:
                raise SystemExit("the simulated reader did not open its port")
            time.sleep(0.01)
        reader = timed(probe, lambda tag: port.send_tag(tag, repeats=1), scans, first=scans % len(TAGS) + 1)
        shell.stop()
        thread.join(10)
    print(f"wordtable scan → frame latency, {scans} scans per path; Python {sys.version.split()[0]}")
    print(f"{'path':<46} {'p50':>8} {'p99':>8} {'max':>8}")
    print(f"{'CardScan on the shell inbox → frame (ms)':<46} {stats(inbox)}")
    print(f"{'RDM6300 frame into loop:// → frame (ms)':<46} {stats(reader)}")
    print("target: p99 ≤ 20 ms (the 9600-baud frame itself adds ~10.4 ms on a real reader)")


if __name__ == "__main__":
    main()
