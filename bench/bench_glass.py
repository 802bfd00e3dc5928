"""Button → glass: from a button's edge on its mock pin to the moment the panel's memory holds the frame.

    python bench/bench_glass.py [--rate 400000] [--rounds 3] [--building] [--no-page] [--policy unit|other]
                                [--profile] [--pi]

The real appliance (sim profile, its mock pins and buttons; the table page on, as the service on the Pi
has it) drives a real luma SSD1306 (`drivers.oled_pages`) over luma's own `i2c` interface on a bus that
takes the wire's time (`harness.WireBus`, at `--rate`) and keeps every call's bytes with when they were
on the wire. The bytes are decoded into the controller's memory (`tests.helpers.fake_panel.FakePanel`)
after each press, off the measured path (decoding in the writer thread would slow the very writes it
times). A press's frame is the first frame the shell draws while it handles the press's own event (a
press that changes nothing on the screen draws none and is counted apart; a page turn or a clock tick
that happens to follow is not the press's). For every press the rows give

- latency: its edge (the release for a short press, the hold time for a long one, the last quadrature
  step for the encoder) to the end of the first write after which the memory equals that frame (or a
  later one);
- first change: the edge to the first byte on the wire that changes the memory towards the frame (the
  SSD1306 shows its memory live: the user sees the change begin then);
- wire: the bus time of the writes after the edge up to the latency's end, and their bytes (each with
  its address and control byte, at 9 bits a byte + START/STOP + `harness.OVERHEAD_S` a call); "whole
  pages" is what sending every changed page whole would have cost;
- box: latency − wire, the box's own part (the pin's callback, the loop, the core's step, the journal's
  commit, the render, the diff, the writer's wake-up).

Then a Zugzeit game is played, START ending each turn: turn switch → the next player's clock.
`--building` builds the German word index (/usr/share/dict/ngerman) over and over while it measures, as
the service does at its first start and whenever the list changed (`word_index.open_index`), from a
thread named as the service's (`word-lists`). `--policy unit` (the default) runs the process as the unit
does on the Pi (SCHED_FIFO 10, nice −10, the threads that may wait moved down: `thread_priority`).
`--profile` prints where the loop's and the writer's time goes (cProfile around each handled input and
each write). Rows print p50/p99/max (bench/pi_speed.py: `--pi` prints them at full speed and at a Pi
Zero 2 W core's share side by side).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import WireBus, on_wire, start_appliance, wire_profile
from open_games import opening
from pi_speed import add_pi_argument, pi_or_run, row

from firmware_host import thread_priority
from firmware_host.appliance import Appliance
from firmware_host.core.events import Tick
from firmware_host.word_index import open_index
from tests.helpers.fake_panel import DATA, FakePanel

GERMAN = Path("/usr/share/dict/ngerman")
DRAWN_S = 1.0  # a press whose frame the loop has not drawn by then drew none (its screen did not change)
QUIET_S = 0.3  # a press's frames are on the glass once the bus has been quiet this long
WHOLE_PAGE = 128 + 10  # wire bytes of a page sent whole in a window of its own (oled_pages.WINDOW_COST)


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


@dataclass(frozen=True, slots=True)
class Call:
    """One call on the bus: its wire time and its messages (control byte, payload)."""

    start: float
    end: float
    nbytes: int
    messages: tuple[tuple[int, bytes], ...]


class GlassBus(WireBus):
    """A `WireBus` that keeps every call (`Call`); nothing is decoded while the writer writes."""

    def __init__(self, rate: int) -> None:
        super().__init__(rate)
        self.log: list[Call] = []

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        super().write_i2c_block_data(addr, register, data)
        self._keep(((register, bytes(data)),))

    def i2c_rdwr(self, *messages: Any) -> None:
        super().i2c_rdwr(*messages)
        self._keep(tuple((data[0], data[1:]) for data in map(bytes, messages)))

    def _keep(self, messages: tuple[tuple[int, bytes], ...]) -> None:
        start, end, nbytes = self.calls[-1]  # only the display writer writes: this call's
        self.log.append(Call(start, end, nbytes, messages))

    def quiet_since(self) -> float:
        with self.lock:
            return max(self.free_at, self.last_end)


@dataclass(frozen=True, slots=True)
class Landed:
    """A decoded call: when it ended, the memory after it, and the first byte it changed (when, where)."""

    call: Call
    memory: bytes
    changes: tuple[tuple[float, int, int], ...]  # (when on the wire, offset in memory, new byte)


class Glass:
    """The controller's memory rebuilt from the bus's log, a call at a time."""

    def __init__(self, bus: GlassBus) -> None:
        self.bus = bus
        self.panel = FakePanel("ssd1306")
        self.seen = 0

    def memory(self) -> bytes:
        return b"".join(bytes(page) for page in self.panel.ram)

    def replay(self) -> list[Landed]:
        """Decode the calls logged since the last replay."""
        calls, self.seen = self.bus.log[self.seen :], len(self.bus.log)
        return [self._land(call) for call in calls]

    def _land(self, call: Call) -> Landed:
        panel, rate = self.panel, self.bus.rate
        bits = 0
        changes = []
        for control, payload in call.messages:
            bits += 2 + 9 * 2  # START/STOP, address byte, control byte
            if control != DATA:
                panel.command(*payload)
                bits += 9 * len(payload)
                continue
            for byte in payload:
                bits += 9
                page, column = panel.page, panel.col
                before = panel.ram[page][column] if column < panel.columns else byte
                panel.data((byte,))
                if before != byte:
                    at = call.start + self.bus.overhead_s + bits / rate
                    changes.append((at, page * panel.columns + column, byte))
        return Landed(call, self.memory(), tuple(changes))


class Frames:
    """The frames the shell hands to the display: (when, image, drawn for an input rather than a tick or a
    page turn)."""

    def __init__(self, appliance: Appliance) -> None:
        self.handed: list[tuple[float, Any, bool]] = []
        self.lock = threading.Lock()
        self.input = False
        shell, display = appliance.shell, appliance.hardware.display
        show, handle = display.show, shell.handle

        def kept(image: Any) -> None:
            with self.lock:
                self.handed.append((time.monotonic(), image, self.input))
            show(image)

        def handled(event: Any) -> Any:
            self.input = not isinstance(event, Tick)
            try:
                return handle(event)
            finally:
                self.input = False

        display.show, shell.handle = kept, handled  # type: ignore[method-assign]

    def since(self, edge: float) -> list[tuple[float, Any, bool]]:
        with self.lock:
            self.handed = [entry for entry in self.handed if entry[0] >= edge - 5]
            return [entry for entry in self.handed if entry[0] >= edge]


@dataclass(frozen=True, slots=True)
class Seen:
    """What one press put on the glass (seconds from its edge; bytes)."""

    latency: float
    first_change: float
    wire: float
    nbytes: int
    whole_pages: int


def on_glass(bus: GlassBus, glass: Glass, frames: Frames, edge: float, timeout_s: float = 3.0) -> Seen | None:
    """Wait until the bus is quiet, then what the press at `edge` put on the glass; None when the shell
    drew no frame for it (the screen did not change)."""
    drawn, deadline = time.monotonic() + DRAWN_S, time.monotonic() + timeout_s
    while time.monotonic() < drawn and not any(for_input for _, _, for_input in frames.since(edge)):
        time.sleep(0.02)  # the loop may take a while (a QR code at the Pi share)
    while time.monotonic() < deadline and time.monotonic() - max(bus.quiet_since(), edge) < QUIET_S:
        time.sleep(0.05)
    before = glass.memory()
    landed = glass.replay()
    earlier = [entry for entry in landed if entry.call.end <= edge]
    if earlier:
        before = earlier[-1].memory
    handed = frames.since(edge)
    first = next((i for i, (_, _, for_input) in enumerate(handed) if for_input), None)
    if first is None:
        return None
    target = pages(handed[first][1])
    targets = {pages(image) for _, image, _ in handed[first:]}
    after = [entry for entry in landed if entry.call.end > edge]
    done = next((i for i, entry in enumerate(after) if entry.memory in targets), None)
    if done is None:
        return None
    written = [entry for entry in after[: done + 1] if entry.call.start >= edge]
    change = next((at for entry in after[: done + 1] for at, offset, byte in entry.changes
                   if at >= edge and target[offset] == byte), after[done].call.end)
    changed_pages = sum(before[p * 128 : (p + 1) * 128] != target[p * 128 : (p + 1) * 128] for p in range(8))
    return Seen(after[done].call.end - edge, change - edge, sum(e.call.end - e.call.start for e in written),
                sum(e.call.nbytes for e in written), changed_pages * WHOLE_PAGE)


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
        edge = time.monotonic() + self.hold_s  # the hold's timer starts in drive_low: a little later
        pin.drive_low()
        time.sleep(self.hold_s + 0.25)
        pin.drive_high()
        return edge

    def turn(self, steps: int) -> float:
        """`steps` detents; the edge is the last quadrature step's (the one that completes a detent)."""
        a, b = (self.factory.pin(p) for p in self.encoder)
        a.drive_high()  # at rest both contacts are open: pulled up
        b.drive_high()
        sequence = [(0, 1), (0, 0), (1, 0), (1, 1)] if steps > 0 else [(1, 0), (0, 0), (0, 1), (1, 1)]
        edge = time.monotonic()
        for _ in range(abs(steps)):
            for va, vb in sequence:
                edge = time.monotonic()
                (a.drive_high if va else a.drive_low)()
                (b.drive_high if vb else b.drive_low)()
                time.sleep(0.002)
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


def as_the_unit() -> str:
    """The process as systemd/wordtable.service starts it (threads started later inherit it)."""
    with contextlib.suppress(PermissionError, OSError):
        os.nice(-10)
    thread_priority.hand_the_gil_on_sooner()
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    except (PermissionError, OSError) as exc:
        return f"SCHED_FIFO refused ({exc.strerror}), nice {os.nice(0)}"
    return "SCHED_FIFO 10, nice -10"


def with_page(resolved: Any, on: bool) -> Any:
    """The bench's profile with the table page on (on a free port of 127.0.0.1) or off."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    page = replace(resolved.config.page, enabled=on, bind="127.0.0.1", port=port)
    return replace(resolved, config=replace(resolved.config, page=page))


class Profiles:
    """cProfile around each input the loop handles and each write of the display's writer."""

    def __init__(self, appliance: Appliance) -> None:
        self.loop, self.writer = cProfile.Profile(), cProfile.Profile()
        shell, display = appliance.shell, cast(Any, appliance.hardware.display)  # a LumaDisplay: its `_write`
        shell.handle = self._around(self.loop, shell.handle, lambda args: not isinstance(args[0], Tick))  # type: ignore[method-assign]
        display._write = self._around(self.writer, display._write, lambda args: True)

    @staticmethod
    def _around(profile: cProfile.Profile, call: Callable[..., Any], when: Callable[[tuple[Any, ...]], bool]) -> Any:
        def profiled(*args: Any) -> Any:
            if not when(args):
                return call(*args)
            profile.enable()
            try:
                return call(*args)
            finally:
                profile.disable()

        return profiled

    def print(self) -> None:
        for name, profile in (("the loop, per input", self.loop), ("the display writer", self.writer)):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(14)
            print(f"profile of {name} (cProfile, sorted by own time):")
            print("\n".join(line for line in out.getvalue().splitlines()[4:] if line.strip()))


def measure(args: argparse.Namespace) -> None:
    policy = as_the_unit() if args.policy == "unit" else "SCHED_OTHER"
    scratch = Path(tempfile.mkdtemp(prefix="wordtable-glass-"))
    bus = GlassBus(args.rate)
    resolved = with_page(appliance_resolved, args.page)
    with on_wire(bus):
        if args.page:
            from firmware_host.page.attach import serve_page

            def before_run(appliance: Appliance) -> object:
                return serve_page(appliance, resolved, scratch / "state")
        else:
            def before_run(appliance: Appliance) -> object:
                return None

        appliance, _ = start_appliance(scratch / "state", lambda outputs: outputs, resolved=resolved,
                                       before_run=before_run)
    glass = Glass(bus)
    frames = Frames(appliance)
    profiles = Profiles(appliance) if args.profile else None
    hands = Hands(appliance)
    stop = threading.Event()
    if args.building:
        threading.Thread(target=build_forever, args=(stop, scratch / "build"), name="word-lists", daemon=True).start()
        time.sleep(0.5)
    if args.policy == "unit":
        thread_priority.let_wait()
    suffix = " while the word index builds" if args.building else ""
    try:
        time.sleep(1.0)
        results: dict[str, list[Seen]] = {}
        missed: dict[str, int] = {}
        for _ in range(args.rounds):
            for label, action, arg in BUTTONS:
                edge = getattr(hands, action)(arg)
                seen = on_glass(bus, glass, frames, edge)
                if seen is None:
                    missed[label] = missed.get(label, 0) + 1
                else:
                    results.setdefault(label, []).append(seen)
        page = "on" if args.page else "off"
        print(f"button -> glass at {args.rate // 1000} kHz{suffix} ({args.rounds} rounds; {policy}; page {page}):")
        for label in dict.fromkeys(label for label, _, _ in BUTTONS):
            if label in results:
                rows(f"{label}{suffix}", results[label])
        rows(f"every button{suffix}", [seen for values in results.values() for seen in values])
        if missed:
            print(f"  presses whose screen did not change (no frame drawn): {missed}")
        switches = turn_switches(appliance, hands, bus, glass, frames, args.turns)
        rows(f"turn switch -> next player's clock{suffix}", switches)
        if profiles is not None:
            profiles.print()
    finally:
        stop.set()
        appliance.shell.stop()


def rows(figure: str, seen: list[Seen]) -> None:
    row(figure, [s.latency * 1000 for s in seen])
    row(f"{figure} · first change", [s.first_change * 1000 for s in seen])
    row(f"{figure} · box (latency - wire)", [(s.latency - s.wire) * 1000 for s in seen])
    row(f"{figure} · wire", [s.wire * 1000 for s in seen])
    row(f"{figure} · bytes", [float(s.nbytes) for s in seen], "B")
    row(f"{figure} · whole pages", [float(s.whole_pages) for s in seen], "B")


def turn_switches(appliance: Appliance, hands: Hands, bus: GlassBus, glass: Glass, frames: Frames,
                  turns: int) -> list[Seen]:
    """A Zugzeit game begun from its script (the events put in the shell's queue), START ending each turn."""
    for event in opening("turn-timer")[0]:
        appliance.shell.put(replace(cast(Any, event), at=time.monotonic()))
        time.sleep(0.03)
    time.sleep(0.5)
    hands.short("start")  # the first player's clock runs
    on_glass(bus, glass, frames, time.monotonic())
    out = []
    for _ in range(turns):
        edge = hands.short("start")
        seen = on_glass(bus, glass, frames, edge)
        if seen is not None:
            out.append(seen)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=int, default=400_000)
    parser.add_argument("--rounds", type=int, default=3, help="how many times every button is pressed")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--building", action="store_true", help="build the word index meanwhile")
    parser.add_argument("--no-page", dest="page", action="store_false", help="the table page off")
    parser.add_argument("--policy", choices=("unit", "other"), default="unit")
    parser.add_argument("--profile", action="store_true", help="cProfile the loop's inputs and the writer")
    add_pi_argument(parser)
    args = parser.parse_args()
    pi_or_run(args, lambda: measure(args))


if __name__ == "__main__":
    main()
