"""Button → glass: from a button's edge on its mock pin to the moment the panel's memory holds the frame.

    python bench/bench_glass.py [--rate 400000] [--presses 20] [--building] [--pi]

The real appliance (sim profile, its mock pins and buttons) drives a real luma SSD1306 over luma's own
`i2c` interface on a bus that both takes the wire's time (`harness.WireBus`, at `--rate`) and decodes
every command and data byte into the controller's memory (`tests.helpers.fake_panel.FakePanel`). After
each write the bench keeps a copy of that memory; a press's latency is from its edge (the release for a
short press, the hold time for a long one, the last quadrature step for the encoder) to the end of the
first write after which the memory equals the first frame the shell handed over after the edge (or a
later one). Every button is pressed in turn, short and long, and the encoder turned; then a Zugzeit game
is played, START ending each turn: turn switch → the next player's clock on the glass. `--building`
builds the German word index (/usr/share/dict/ngerman) over and over while it measures, as the service
does at its first start and whenever the list changed (`word_index.open_index`). Rows print p50/p99/max
(bench/pi_speed.py: `--pi` prints them at full speed and at a Pi Zero 2 W core's share side by side).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import WireBus, on_wire, start_appliance, wire_profile
from open_games import opening
from pi_speed import add_pi_argument, pi_or_run, row

from firmware_host.appliance import Appliance
from firmware_host.word_index import open_index
from tests.helpers.fake_panel import FakePanel, FakeSMBus

GERMAN = Path("/usr/share/dict/ngerman")
HANDED_S = 0.3  # a frame handed over later than this after a press is not the press's (a clock tick's)


def pages(image: Any, columns: int = 128) -> bytes:
    """A 1-bit frame as the SSD1306's memory holds it: 8 pages of `columns` bytes, bit k = row 8p+k."""
    width, height = image.size
    data = image.convert("1").tobytes()
    stride = (width + 7) // 8
    out = bytearray(8 * columns)
    for y in range(min(height, 64)):
        line = data[y * stride : (y + 1) * stride]
        bit = 1 << (y % 8)
        base = (y // 8) * columns
        for x in range(min(width, columns)):
            if line[x >> 3] & (0x80 >> (x & 7)):
                out[base + x] |= bit
    return bytes(out)


class GlassBus(WireBus):
    """A `WireBus` whose bytes also land in a `FakePanel`; keeps (end of write, memory after it)."""

    def __init__(self, rate: int) -> None:
        super().__init__(rate)
        self.panel = FakePanel("ssd1306")
        self.decoder = FakeSMBus(self.panel)
        self.memory: list[tuple[float, bytes]] = []
        self.cond = threading.Condition()

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        super().write_i2c_block_data(addr, register, data)
        self.decoder.write_i2c_block_data(addr, register, data)
        self._keep()

    def i2c_rdwr(self, *messages: Any) -> None:
        super().i2c_rdwr(*messages)
        self.decoder.i2c_rdwr(*messages)
        self._keep()

    def _keep(self) -> None:
        snapshot = b"".join(bytes(page) for page in self.panel.ram)
        with self.cond:
            self.memory.append((time.monotonic(), snapshot))
            self.cond.notify_all()


class Frames:
    """The frames the shell hands to the display, with when (monotonic)."""

    def __init__(self, display: Any) -> None:
        self.handed: list[tuple[float, Any]] = []
        self.cond = threading.Condition()
        show = display.show

        def kept(image: Any) -> None:
            with self.cond:
                self.handed.append((time.monotonic(), image))
                self.cond.notify_all()
            show(image)

        display.show = kept


def on_glass(bus: GlassBus, frames: Frames, edge: float, timeout_s: float = 3.0) -> float | None:
    """Seconds from `edge` until the memory equals the first frame handed over after it (or a later one);
    None when no frame is handed over within `HANDED_S` of the edge (the press drew nothing)."""
    with frames.cond:
        frames.cond.wait_for(lambda: any(at >= edge for at, _ in frames.handed), HANDED_S)
        frames.handed = [(at, image) for at, image in frames.handed if at >= edge - 5]
        first = next((i for i, (at, _) in enumerate(frames.handed) if edge <= at <= edge + HANDED_S), None)
    if first is None:
        return None
    targets: set[bytes] = set()
    taken = first  # frames.handed[first:taken] are in `targets`
    deadline = time.monotonic() + timeout_s
    seen = 0
    while time.monotonic() < deadline:
        with frames.cond:
            fresh = [image for _, image in frames.handed[taken:]]
        taken += len(fresh)
        targets.update(pages(image) for image in fresh)
        with bus.cond:
            if len(bus.memory) <= seen:
                bus.cond.wait(0.05)
            memory = bus.memory[seen:]
        seen += len(memory)
        for end, snapshot in memory:
            if end >= edge and snapshot in targets:
                return end - edge
    return None


class Hands:
    """Presses on the appliance's mock pins."""

    def __init__(self, appliance: Appliance) -> None:
        self.factory = appliance.hardware.pin_factory
        profile_buttons = appliance_resolved.profile.buttons
        self.pins = {"start": profile_buttons.start, "next": profile_buttons.next, "back": profile_buttons.back,
                     "menu": profile_buttons.menu, "turn": profile_buttons.turn}
        self.hold_s = profile_buttons.hold_ms / 1000
        encoder = appliance_resolved.profile.encoder
        self.encoder = (encoder.a, encoder.b)

    def short(self, name: str) -> float:
        """A short press; its edge is the release (the turn button is reported at its press edge)."""
        pin = self.factory.pin(self.pins[name])
        edge = time.monotonic()
        pin.drive_low()
        time.sleep(0.05)
        if name != "turn":
            edge = time.monotonic()
        pin.drive_high()
        return edge

    def long(self, name: str) -> float:
        pin = self.factory.pin(self.pins[name])
        pin.drive_low()
        edge = time.monotonic() + self.hold_s
        time.sleep(self.hold_s + 0.25)
        pin.drive_high()
        return edge

    def turn(self, steps: int) -> float:
        a, b = (self.factory.pin(p) for p in self.encoder)
        a.drive_high()  # at rest both contacts are open: pulled up
        b.drive_high()
        sequence = [(0, 1), (0, 0), (1, 0), (1, 1)] if steps > 0 else [(1, 0), (0, 0), (0, 1), (1, 1)]
        edge = time.monotonic()
        for _ in range(abs(steps)):
            for va, vb in sequence:
                (a.drive_high if va else a.drive_low)()
                (b.drive_high if vb else b.drive_low)()
                time.sleep(0.002)
            edge = time.monotonic()
        return edge


appliance_resolved = wire_profile("ssd1306")

# (label, action, argument): what each press is, in an order that gives every press a frame to draw
BUTTONS = (
    ("START short (timer: start)", "short", "start"),
    ("START short (timer: pause)", "short", "start"),
    ("BACK short (timer: reset)", "short", "back"),
    ("NEXT short (timer: next length)", "short", "next"),
    ("START long (timer: flip)", "long", "start"),
    ("BACK short (timer: reset)", "short", "back"),
    ("TURN short (timer: start/pause)", "short", "turn"),
    ("TURN short (timer: start/pause)", "short", "turn"),
    ("BACK short (timer: reset)", "short", "back"),
    ("MENU short (the menu)", "short", "menu"),
    ("encoder +1 (menu: down)", "turn", 1),
    ("encoder -1 (menu: up)", "turn", -1),
    ("NEXT short (menu: down)", "short", "next"),
    ("NEXT long (menu: up)", "long", "next"),
    ("BACK short (menu: out)", "short", "back"),
    ("NEXT long (timer: the join QR / its notice)", "long", "next"),
    ("BACK short (out again)", "short", "back"),
    ("BACK long (timer: reset the timer)", "long", "back"),
    ("MENU long (switch off: asks)", "long", "menu"),
    ("BACK short (not off)", "short", "back"),
)


def build_forever(stop: threading.Event, scratch: Path) -> None:
    while not stop.is_set():
        for old in (scratch / "words").glob("*.idx"):
            old.unlink()
        open_index(GERMAN, "de", scratch)


def measure(args: argparse.Namespace) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="wordtable-glass-"))
    bus = GlassBus(args.rate)
    with on_wire(bus):
        appliance, _ = start_appliance(scratch / "state", lambda outputs: outputs, resolved=appliance_resolved)
    frames = Frames(appliance.hardware.display)
    hands = Hands(appliance)
    stop = threading.Event()
    if args.building:
        threading.Thread(target=build_forever, args=(stop, scratch / "build"), daemon=True).start()
        time.sleep(0.5)
    suffix = " while the word index builds" if args.building else ""
    try:
        time.sleep(1.0)
        results: dict[str, list[float]] = {}
        missed: dict[str, int] = {}
        for _ in range(args.rounds):
            for label, action, arg in BUTTONS:
                edge = getattr(hands, action)(arg)
                latency = on_glass(bus, frames, edge)
                if latency is None:
                    missed[label] = missed.get(label, 0) + 1
                else:
                    results.setdefault(label, []).append(latency * 1000)
                time.sleep(0.15)
        print(f"button -> glass at {args.rate // 1000} kHz{suffix} ({args.rounds} rounds):")
        for label in dict.fromkeys(label for label, _, _ in BUTTONS):
            if label in results:
                row(f"{label}{suffix}", results[label])
        row(f"every button{suffix}", [v for values in results.values() for v in values])
        if missed:
            print(f"  presses that drew no frame within {HANDED_S * 1000:.0f} ms: {missed}")
        switches = turn_switches(appliance, hands, bus, frames, args.turns)
        row(f"turn switch -> next player's clock{suffix}", switches)
    finally:
        stop.set()
        appliance.shell.stop()


def turn_switches(appliance: Appliance, hands: Hands, bus: GlassBus, frames: Frames, turns: int) -> list[float]:
    """A Zugzeit game begun from its script (the events put in the shell's queue), START ending each turn."""
    for event in opening("turn-timer")[0]:
        appliance.shell.put(replace(event, at=time.monotonic()))  # type: ignore[type-var]
        time.sleep(0.03)
    time.sleep(0.5)
    hands.short("start")  # the first player's clock runs
    time.sleep(0.3)
    out = []
    for _ in range(turns):
        edge = hands.short("start")
        latency = on_glass(bus, frames, edge)
        if latency is not None:
            out.append(latency * 1000)
        time.sleep(0.25)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=int, default=400_000)
    parser.add_argument("--rounds", type=int, default=3, help="how many times every button is pressed")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--building", action="store_true", help="build the word index meanwhile")
    add_pi_argument(parser)
    args = parser.parse_args()
    pi_or_run(args, lambda: measure(args))


if __name__ == "__main__":
    main()
