"""Benchmark: card scan → frame on the display, through the real shell on mock pins (sim profile).

Two paths, each timed from the input:
- inbox:  a `CardScan` put on the shell's inbox (what a reader thread does);
- reader: an RDM6300 frame written into the reader's simulated serial port (loop://), so the reader
  thread, the frame parser and the debouncer are included (not the 9600-baud wire time: ~10.4 ms a frame).
Each on three panels: luma's dummy (until the shell's `on_frame`, the rendered image handed to the
display) and a real luma SSD1306 over a wire-timed I²C bus at 100 and 400 kHz (until the last bit of the
frame's last transaction; bench/harness.py has the wire model).
The appliance is in the Deck mode (Das perfekte Wort, physical cards); every scan shows another face.
Prints p50/p99/max in ms; asserts nothing.

    python bench/bench_scan.py            # 500 scans per path and panel
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

from bench.harness import OnGlass, WireBus, on_wire, start_appliance, stats, wire_profile
from firmware_host.appliance import Appliance
from firmware_host.core import app
from firmware_host.core.cards import CardTable, kept_name, table_data
from firmware_host.core.events import Button, CardScan, Press, Turn, kept_event
from firmware_host.core.table.deck_mode import DeckFlow
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
    """Menu → Draw cards → Das perfekte Wort, physical cards; the three tags enrolled."""
    shell, now = appliance.shell, time.monotonic()
    deck = app.main_keys(shell.state).index("game:deck")
    table = CardTable("perfektes-wort", TAGS)
    shell.put(kept_event({kept_name(table.game): table_data(table)}, now))
    for event in (Press(Button.MENU, now), Turn(deck, now), Press(Button.START, now), Press(Button.NEXT, now),
                  Press(Button.START, now)):
        shell.put(event)
    deadline = time.monotonic() + 10
    while not (isinstance(flow := shell.state.flow, DeckFlow) and flow.deck is not None):
        if time.monotonic() > deadline:
            raise SystemExit(f"could not reach the Deck mode; the screen shows {shell.screen}")
        time.sleep(0.01)


def timed(probe: Probe, send: Any, scans: int, first: int = 0, glass: OnGlass | None = None) -> list[float]:
    """`first`: the tag to start with (each scan must change the screen, or no frame is drawn). To the
    frame (no bus) or to the last bit of the write that puts it whole on the panel (`glass`)."""
    latencies = []
    tags = list(TAGS)
    for number in range(scans):
        probe.seen.clear()
        before = time.monotonic()
        send(tags[(first + number) % len(tags)])
        if probe.seen.wait(2):
            if glass is None:
                latencies.append((probe.frames[-1] - before) * 1000)
            else:
                frame = glass.first_after(before)
                last = None if frame is None else glass.wait(frame)
                if last is not None:
                    latencies.append((last - before) * 1000)
        time.sleep(0.005)
    return latencies


def run_panel(scratch: Path, panel: str, scans: int) -> tuple[list[float], list[float]]:
    probe = Probe()
    bus = None if panel == "dummy" else WireBus(int(panel))
    if bus is None:
        appliance, thread = start_appliance(scratch, probe.hook)
    else:
        with on_wire(bus):
            appliance, thread = start_appliance(scratch, probe.hook, resolved=wire_profile("ssd1306"))
    enter_deck_mode(appliance)
    shell = appliance.shell
    glass = None if bus is None else OnGlass(appliance.hardware.display, bus)
    inbox = timed(probe, lambda tag: shell.put(CardScan("rfid", tag, time.monotonic())), scans, glass=glass)
    port = appliance.hardware.readers.simulated["rfid"]
    deadline = time.monotonic() + 5
    while not port.send(b""):  # the reader thread has its port open
        if time.monotonic() > deadline:
            raise SystemExit("the simulated reader did not open its port")
        time.sleep(0.01)
    reader = timed(probe, lambda tag: port.send_tag(tag, repeats=1), scans, first=scans % len(TAGS) + 1, glass=glass)
    shell.stop()
    thread.join(10)
    return inbox, reader


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    scans = 100 if parser.parse_args().quick else 500
    results = {}
    for panel in ("dummy", "100000", "400000"):
        with tempfile.TemporaryDirectory(prefix="wordtable-bench-") as scratch:
            results[panel] = run_panel(Path(scratch), panel, scans)
    print(f"wordtable scan → frame latency, {scans} scans per path; Python {sys.version.split()[0]}")
    print(f"{'path':<56} {'p50':>8} {'p99':>8} {'max':>8}")
    for panel, (inbox, reader) in results.items():
        end = "frame (luma dummy)" if panel == "dummy" else f"last byte, {int(panel) // 1000} kHz I2C"
        print(f"{'CardScan on the shell inbox → ' + end + ' (ms)':<56} {stats(inbox)}")
        print(f"{'RDM6300 frame into loop:// → ' + end + ' (ms)':<56} {stats(reader)}")
    print("target: p99 ≤ 20 ms (the 9600-baud frame itself adds ~10.4 ms on a real reader)")


if __name__ == "__main__":
    main()
