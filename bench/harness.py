"""What the benchmarks share: the real appliance on the sim profile running in its own thread, a
wire-timed fake I²C bus for its display, and the p50/p99/max line they print.

The wire-timed bus (`WireBus`) stands in for smbus2's `SMBus` under luma's own `i2c` interface and the
real luma device the profile names (`on_wire`: `open_device` runs unchanged, in luma's smbus2 mode, as on
the Pi). Each call (one ioctl: an SMBus block write, or an I2C_RDWR of one or more messages) occupies the
wire for

    per message: (address byte + control byte + payload) × 9 bits (8 data + ACK) / rate
                 + 2 bit times (START, STOP)
    + `overhead_s` once per call (the kernel's cost per ioctl; 50 µs by default, an assumption),

and the calling thread SLEEPS until its last bit is out (real time, like the blocking ioctl on the Pi;
`time.sleep` releases the GIL as the ioctl does). Calls queue behind each other (`free_at`). The same time
is also ACCUMULATED as virtual wire time (`wire_s`), which is what byte-rate figures use.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

# $WORDTABLE_ROOT: another checkout of the program to measure (e.g. the main branch, for the figures before)
sys.path.insert(0, os.environ.get("WORDTABLE_ROOT") or str(Path(__file__).resolve().parent.parent))

from firmware_host.appliance import Appliance, open_appliance, settle_heap
from firmware_host.config import Resolved, resolve
from firmware_host.shell import Outputs

OVERHEAD_S = 50e-6


class WireBus:
    """smbus2's `SMBus` as luma uses it, taking the wire's time (see the module docstring)."""

    def __init__(self, rate: int, overhead_s: float = OVERHEAD_S, *, sleep: bool = True) -> None:
        self.rate = rate
        self.overhead_s = overhead_s
        self.sleep = sleep
        self.lock = threading.Lock()
        self.bytes = 0
        self.transactions = 0  # messages (each with its address byte)
        self.wire_s = 0.0  # accumulated wire time
        self.free_at = 0.0  # monotonic time the wire is free again
        self.last_end = 0.0  # monotonic time of the last byte of the last transaction
        self.calls: deque[tuple[float, float, int]] = deque(maxlen=4096)  # (start, end, bytes) of recent calls

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        self._transfer([2 + len(data)])

    def i2c_rdwr(self, *messages: Any) -> None:
        self._transfer([1 + len(message) for message in messages])

    def close(self) -> None:
        pass

    def duration(self, *messages: int) -> float:
        """Wire time of one call writing messages of these sizes (address byte included)."""
        return sum(nbytes * 9 + 2 for nbytes in messages) / self.rate + self.overhead_s

    def _transfer(self, messages: list[int]) -> None:
        seconds = self.duration(*messages)
        with self.lock:
            start = max(time.monotonic(), self.free_at)
            end = self.free_at = start + seconds
            self.bytes += sum(messages)
            self.transactions += len(messages)
            self.wire_s += seconds
            self.calls.append((start, end, sum(messages)))
        if self.sleep:
            while (left := end - time.monotonic()) > 0:
                time.sleep(left)
        with self.lock:
            self.last_end = max(self.last_end, end)  # the last bit (the thread itself may wake later)

    def bytes_between(self, since: float, until: float) -> int:
        """Bytes of the recent calls whose wire time overlaps `since`..`until` (monotonic): what the wire
        carried in that time, a call already under way at `since` included."""
        with self.lock:
            return sum(nbytes for start, end, nbytes in self.calls if start < until and end > since)

    def reset(self) -> None:
        with self.lock:
            self.bytes = self.transactions = 0
            self.wire_s = 0.0


def wire_profile(driver: str = "ssd1306", refresh_s: int | None = None) -> Resolved:
    """The sim profile with its display as a real I²C panel (`driver`) at 0x3C on bus 1; `refresh_s`:
    another period of the whole-frame refresh than the profile's."""
    resolved = resolve("sim", None, environ={})
    display = replace(resolved.profile.display, driver=driver, interface="i2c", port=1, address=0x3C)
    if refresh_s is not None:
        display = replace(display, refresh_s=refresh_s)
    return replace(resolved, profile=replace(resolved.profile, display=display))


@contextmanager
def on_wire(bus: Any) -> Iterator[Any]:
    """While open, luma's `i2c` opens `bus` instead of /dev/i2c-N."""
    with mock.patch("smbus2.SMBus", lambda port: bus):
        yield bus


def start_appliance(
    state_dir: Path, hook: Callable[[Outputs], Outputs], pin_factory: Any = None, resolved: Resolved | None = None,
    before_run: Callable[[Appliance], object] = lambda appliance: None,
) -> tuple[Appliance, threading.Thread]:
    """Open the appliance inside the loop's thread (the journal belongs to the thread that opens it);
    `pin_factory`: another gpiozero factory than the sim profile's mock one; `resolved`: another
    configuration than the sim profile's; `before_run`: what the service starts before its loop runs (the
    table page: `page.attach.serve_page`)."""
    resolved = resolved or resolve("sim", None, environ={})
    holder: list[Appliance] = []
    ready = threading.Event()

    def main() -> None:
        appliance = open_appliance(resolved, state_dir, outputs_hook=hook, power_off=lambda: None,
                                   pin_factory=pin_factory)
        before_run(appliance)
        settle_heap()  # as the service does once it is up
        holder.append(appliance)
        ready.set()
        try:
            appliance.shell.run()
        finally:
            appliance.close()

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    ready.wait(30)
    return holder[0], thread


class OnGlass:
    """When the frames the shell hands to a `LumaDisplay` on a `WireBus` are on the glass. Frames are
    numbered as they are shown; `wait(n)` is the last byte of the first write that leaves frame n, or a
    newer one, whole on the panel (a newer frame may stop frame n part-way: then the newer one carries it).
    A frame that only follows n (the next clock tick) does not count against n."""

    def __init__(self, display: Any, bus: WireBus) -> None:
        self.bus = bus
        self.shown = 0  # frames handed to the display so far
        self.shown_at: list[float] = []  # when each was handed over (monotonic)
        self._numbers: dict[int, int] = {}  # id(image) -> its number
        self._whole: list[tuple[int, float]] = []  # (number, last byte) of each frame written whole
        self._cond = threading.Condition()
        show, write = display.show, display._write

        def numbered_show(image: Any) -> None:
            with self._cond:
                self._numbers[id(image)] = self.shown
                self.shown += 1
                self.shown_at.append(time.monotonic())
                self._cond.notify_all()
            show(image)

        def timed_write(image: Any, full: bool) -> Any:
            written = write(image, full)
            if written in ("whole", True):  # True: a writer before frames could be stopped part-way
                with self._cond:
                    self._whole.append((self._numbers.get(id(image), -1), bus.last_end))
                    self._cond.notify_all()
            return written

        display.show, display._write = numbered_show, timed_write

    def first_after(self, since: float, timeout_s: float = 2.0) -> int | None:
        """The number of the first frame handed over after `since` (None: none within `timeout_s`)."""
        def found() -> int | None:
            return next((n for n, at in enumerate(self.shown_at) if at >= since), None)

        with self._cond:
            self._cond.wait_for(lambda: found() is not None, timeout_s)
            return found()

    def wait(self, number: int, timeout_s: float = 2.0) -> float | None:
        """The last byte of the first whole write of frame `number` or a newer one (None: not within
        `timeout_s`)."""
        def done() -> float | None:
            return next((end for n, end in self._whole if n >= number), None)

        with self._cond:
            self._cond.wait_for(lambda: done() is not None, timeout_s)
            end = done()
            self._whole = [(n, e) for n, e in self._whole if n >= number]
            return end


class TimedJournal:
    """The shell's journal, timing each write of an input (the shell's `commit`, before any of the core's
    effects is carried out) and each sync (`sync`: while the input's frame is on the wire, before the
    other effects); every other call passes through."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.times: list[float] = []  # ms per committed input
        self.ends: list[float] = []  # when each commit of an input returned (monotonic)
        self.sync_times: list[float] = []  # ms per sync
        self._committed = threading.Condition()

    def commit(self, event: Any, *args: Any, **kwargs: Any) -> None:
        start = time.perf_counter()
        self.inner.commit(event, *args, **kwargs)
        if event is not None:
            with self._committed:
                self.times.append((time.perf_counter() - start) * 1000)
                self.ends.append(time.monotonic())
                self._committed.notify_all()

    def sync(self) -> None:
        start = time.perf_counter()
        self.inner.sync()
        self.sync_times.append((time.perf_counter() - start) * 1000)

    def wait_commit(self, count: int, timeout_s: float) -> bool:
        """Wait until more than `count` inputs are committed: True, or False after `timeout_s`."""
        with self._committed:
            return self._committed.wait_for(lambda: len(self.ends) > count, timeout_s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def stats(values: list[float], digits: int = 3) -> str:
    """"p50 p99 max (n=…)" with `digits` decimals (ms: 3), aligned for the benchmarks' tables."""
    if not values:
        return "   (no samples)"
    return (f"{statistics.median(values):8.{digits}f} {percentile(values, 99):8.{digits}f} "
            f"{max(values):8.{digits}f}   (n={len(values)})")
