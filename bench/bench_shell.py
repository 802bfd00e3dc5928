"""Benchmark of the real shell on mock pins: end-alarm error at the buzzer pin, button → frame latency
(luma's dummy display, and the real luma panel over a wire-timed I²C bus at 100 and 400 kHz: until the
last byte is on the wire), the journal's share of it, CPU and memory, beside a naive `sleep(1)`-per-second
countdown. Prints a table; asserts nothing.

    python bench/bench_shell.py            # 20 countdowns of 5 s idle and 20 under load (~5 min)
    python bench/bench_shell.py --quick    # 5 + 5 countdowns, 100 presses per panel
    python bench/bench_shell.py --alarm-only --sched fifo   # only the countdowns, at SCHED_FIFO (root)

End-alarm error: the first rising edge on the buzzer's mock pin after the countdown, minus (the START
button's release edge on its mock pin + the countdown's length). The countdowns run on the appliance
whose panel `--panel` names (default: an SSD1306 on the 100 kHz wire, the slowest case), both cores
loaded for the second set by one busy process per core. Button latency: START's release edge → the frame
handed to the display (`on_frame`; dummy) or → the last bit of the write that put it (or a newer frame
that stopped it part-way) whole on the panel (wire: `harness.OnGlass`; a clock tick's frame that merely
follows it is not counted). The
journal's share is the time of each input's journal write inside the same presses (the frame goes out
after it); the storage's sync of that write runs while the frame is on the wire, and is shown beside.
On a wire, each press's bytes from its release edge to its last byte are shown too: a press alone sends
its own frame; more bytes mean it waited for, or carried the rest of, another frame (a clock tick's digits
drawn at the same moment), which is where the wire's tail comes from. See bench/harness.py for the wire
model.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import multiprocessing
import os
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import OnGlass, TimedJournal, WireBus, on_wire, start_appliance, stats, wire_profile
from firmware_host.appliance import Appliance, settle_heap
from firmware_host.config import resolve
from firmware_host.core.events import TextEntry, Tick
from firmware_host.core.screens import BigScreen
from firmware_host.core.sounds import notes
from firmware_host.render import render
from firmware_host.shell import Outputs

PROFILE = resolve("sim", None, environ={}).profile
START_PIN, BACK_PIN, BUZZER_PIN = PROFILE.buttons.start, PROFILE.buttons.back, PROFILE.buzzer.pin
RATES = (100_000, 400_000)
ALARM = notes("alarm", "normal")


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Probe:
    """Wraps the shell's outputs to time-stamp what reaches the hardware."""

    def __init__(self) -> None:
        self.alarms: list[float] = []
        self.frames: list[float] = []
        self.frame_drawn = threading.Condition()
        self.alarm_seen = threading.Event()
        self.buzzer_edges: list[float] = []  # monotonic times the buzzer pin went from silent to sounding
        self.ticks: list[float] = []  # monotonic times the shell loop took up a Tick
        self.alarm_thread = False  # the experiment: a thread armed at the deadline sounds the alarm, not the loop

    def frame_after(self, since: float, timeout_s: float) -> float | None:
        """When the first frame at or after `since` was drawn (None: none within `timeout_s`)."""
        def found() -> float | None:
            return min((t for t in self.frames if t >= since), default=None)

        with self.frame_drawn:
            self.frame_drawn.wait_for(lambda: found() is not None, timeout_s)
            return found()

    def hook(self, outputs: Outputs) -> Outputs:
        def on_frame(screen: Any, image: Any) -> None:
            with self.frame_drawn:
                self.frames.append(time.monotonic())
                self.frame_drawn.notify_all()

        def on_sound(pattern: str, notes: Any) -> None:
            if pattern == "alarm":
                self.alarms.append(time.monotonic())
                self.alarm_seen.set()

        probe, sounder = self, outputs.sounder

        class LoopSilentOnAlarm:
            """The sounder, minus the loop's alarm when a dedicated thread plays it (the experiment)."""

            def play(self, played: Any, *args: Any) -> None:
                if not (probe.alarm_thread and tuple(played) == ALARM):
                    sounder.play(played, *args)

            def stop(self) -> None:
                sounder.stop()

            def close(self) -> None:
                sounder.close()

        return replace(outputs, on_frame=on_frame, on_sound=on_sound, sounder=LoopSilentOnAlarm())

    def watch_buzzer(self, appliance: Appliance) -> None:
        pin = appliance.hardware.pin_factory.pin(BUZZER_PIN)
        change = pin._change_state

        def watched(value: float) -> None:
            before = pin.state
            change(value)
            if value and not before:
                self.buzzer_edges.append(time.monotonic())

        pin._change_state = watched

    def watch_ticks(self, appliance: Appliance) -> None:
        """Time-stamp the shell loop taking up each clock tick (its wake-up at a deadline)."""
        shell = appliance.shell
        handle = shell.handle

        def timed(event: Any) -> Any:
            if isinstance(event, Tick):
                self.ticks.append(time.monotonic())
            return handle(event)

        shell.handle = timed  # type: ignore[method-assign]


def press(appliance: Appliance, number: int) -> float:
    """A short press on a mock pin (active low): the Press is emitted on release. Returns the release edge."""
    pin = appliance.hardware.pin_factory.pin(number)
    pin.drive_low()
    time.sleep(0.01)
    edge = time.monotonic()
    pin.drive_high()
    time.sleep(0.06)  # beyond the 30 ms debounce
    return edge


def countdown_errors(appliance: Appliance, probe: Probe, runs: int, seconds: int) -> dict[str, list[float]]:
    """Run `runs` countdowns. Returns, in ms: "pin": buzzer pin edge − (press edge + length); "wake": the
    shell loop taking up the final Tick − the core's deadline; "sound": pin edge − that wake-up (stepping
    the core and starting the buzzer)."""
    shell = appliance.shell
    shell.put(TextEntry(str(seconds), time.monotonic()))
    time.sleep(0.2)
    at_pin, wakes, sounds = [], [], []
    for _ in range(runs):
        probe.alarm_seen.clear()
        edge = press(appliance, START_PIN)
        give_up = time.monotonic() + 2
        while (deadline := shell.state.timer.countdown.deadline) is None and time.monotonic() < give_up:
            time.sleep(0.001)
        assert deadline is not None, "the countdown did not start"
        if probe.alarm_thread:
            arm_alarm(appliance, deadline)
        probe.alarm_seen.wait(seconds + 5)
        time.sleep(0.05)
        press(appliance, BACK_PIN)  # silence the alarm (it rings until a button) and reset the timer
        intended = edge + seconds
        sounding = [t for t in probe.buzzer_edges if t >= intended - 0.5]  # not the warning a second before
        woke = [t for t in probe.ticks if t >= deadline - 0.0005]
        if sounding:
            at_pin.append((sounding[0] - intended) * 1000)
        if woke:
            wakes.append((woke[0] - deadline) * 1000)
            if sounding:
                sounds.append((sounding[0] - woke[0]) * 1000)
    return {"pin": at_pin, "wake": wakes, "sound": sounds}


def arm_alarm(appliance: Appliance, deadline: float) -> None:
    """The experiment: a thread started now sleeps until `deadline` and drives the buzzer itself."""
    sounder = appliance.hardware.sounder

    def ring() -> None:
        while (left := deadline - time.monotonic()) > 0:
            time.sleep(left)
        sounder.play(ALARM)

    threading.Thread(target=ring, name="alarm", daemon=True).start()


def full_collections(runs: int = 10) -> tuple[list[float], list[float]]:
    """How long a full collection stops every thread with the appliance up: with start-up's objects
    thawed, and frozen again as the service leaves them (`settle_heap`), in ms."""
    def timed() -> list[float]:
        out = []
        for _ in range(runs):
            began = time.perf_counter()
            gc.collect()
            out.append((time.perf_counter() - began) * 1000)
        return out

    gc.unfreeze()
    thawed = timed()
    settle_heap()
    return thawed, timed()


@dataclass
class Presses:
    """What `button_latencies` measured, per press: the latency, its journal write, the latency without
    it, the storage's sync beside it (ms), and on a wire the bytes it carried from the release edge to
    the last byte (the press's frame, and any other frame's bytes it had to wait for or carry)."""

    latencies: list[float] = field(default_factory=list)
    journal: list[float] = field(default_factory=list)
    without: list[float] = field(default_factory=list)
    syncs: list[float] = field(default_factory=list)
    wire_bytes: list[float] = field(default_factory=list)


def button_latencies(appliance: Appliance, probe: Probe, presses: int, bus: WireBus | None) -> Presses:
    """START toggles start/pause; each toggle redraws. From the release edge to the frame (no bus) or to
    the last bit on the wire (see `Presses`)."""
    pin = appliance.hardware.pin_factory.pin(START_PIN)
    shell = appliance.shell
    glass = None if bus is None else OnGlass(appliance.hardware.display, bus)
    journal = TimedJournal(shell.journal)
    shell.journal = journal
    measured = Presses()
    latencies, without = measured.latencies, measured.without
    try:
        for _ in range(presses):
            journaled = len(journal.times)
            pin.drive_low()
            time.sleep(0.01)
            before = time.monotonic()
            pin.drive_high()
            # The press's frame is the first one handed over after its journal write: a clock tick's frame
            # drawn while the button was down (or just before the write) is not it.
            if journal.wait_commit(journaled, 1.0):
                since = journal.ends[journaled]
                if glass is None:
                    end = probe.frame_after(since, 1.0)
                else:
                    frame = glass.first_after(since)
                    end = None if frame is None else glass.wait(frame)
                if end is not None:
                    latencies.append((end - before) * 1000)
                    without.append(latencies[-1] - sum(journal.times[journaled:]))
                    if bus is not None:
                        measured.wire_bytes.append(bus.bytes_between(before, end))
            time.sleep(0.06)  # beyond the 30 ms debounce
    finally:
        shell.journal = journal.inner
    measured.journal, measured.syncs = journal.times, journal.sync_times
    return measured


def presses_during_refresh(appliance: Appliance, probe: Probe, presses: int, bus: WireBus) -> list[float]:
    """With the timer paused (no clock frames), wait for the panel's whole-frame refresh to start, press
    START (resume) 2 ms into it and time that press to the last byte of its frame; pause again. In ms."""
    display = appliance.hardware.display
    glass = OnGlass(display, bus)
    started = threading.Event()
    write = display._write

    def watched(image: Any, full: bool) -> Any:
        if full:
            started.set()
        return write(image, full)

    display._write = watched
    pin = appliance.hardware.pin_factory.pin(START_PIN)
    latencies = []
    for _ in range(presses):
        started.clear()
        if not started.wait(5):
            break
        time.sleep(0.002)
        pin.drive_low()
        time.sleep(0.001)
        before = time.monotonic()
        pin.drive_high()
        frame = glass.first_after(before)
        end = None if frame is None else glass.wait(frame)
        if end is not None:
            latencies.append((end - before) * 1000)
        time.sleep(0.06)
        press(appliance, START_PIN)  # paused again: the next refresh comes 1 s after its frame
    display._write = write
    return latencies


def naive_countdowns(runs: int, seconds: int, out: Any) -> None:
    """The comparison: sleep(1) per second, draw, and beep after the last second."""
    errors = []
    for _ in range(runs):
        start = time.monotonic()
        for left in range(seconds, 0, -1):
            render(BigScreen("Timer", f"0:{left:02d}"), (128, 64))
            time.sleep(1)
        errors.append((time.monotonic() - (start + seconds)) * 1000)
    out.put(errors)


def burn(stop: Any) -> None:
    os.nice(max(0, -os.nice(0)))  # the load runs at the ordinary priority, whatever the benchmark's own
    with contextlib.suppress(AttributeError, PermissionError):
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    x = 0
    while not stop.is_set():
        for _ in range(100000):
            x += 1


def with_load(job: Callable[[], Any]) -> Any:
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,)) for _ in range(os.cpu_count() or 2)]
    for p in burners:
        p.start()
    try:
        return job()
    finally:
        stop.set()
        for p in burners:
            p.join()


def open_panel(
    scratch: Path, name: str, probe: Probe, panel: str, refresh_s: int | None = None
) -> tuple[Appliance, threading.Thread, WireBus | None]:
    """The appliance with luma's dummy display ("dummy") or an SSD1306 on a wire at `panel` Hz (its
    whole-frame refresh every `refresh_s`, default the profile's)."""
    state = scratch / name
    state.mkdir()
    if panel == "dummy":
        appliance, thread = start_appliance(state, probe.hook)
        return appliance, thread, None
    bus = WireBus(int(panel))
    with on_wire(bus):
        appliance, thread = start_appliance(state, probe.hook, resolved=wire_profile("ssd1306", refresh_s))
    return appliance, thread, bus


def run_countdowns(scratch: Path, probe: Probe, args: argparse.Namespace, runs: int) -> dict[str, Any]:
    """The countdowns idle and with every core loaded, beside the naive countdown; CPU while counting."""
    appliance, thread, _bus = open_panel(scratch, "countdowns", probe, args.panel)
    probe.watch_buzzer(appliance)
    probe.watch_ticks(appliance)
    probe.alarm_thread = args.alarm_thread
    queue: Any = multiprocessing.Queue()
    naive = multiprocessing.Process(target=naive_countdowns, args=(runs, args.seconds, queue))
    naive.start()
    cpu0, wall0 = cpu_seconds(), time.monotonic()
    idle = countdown_errors(appliance, probe, runs, args.seconds)
    countdown_cpu = (cpu_seconds() - cpu0) / (time.monotonic() - wall0) * 100
    naive_idle = queue.get()
    naive.join()

    def loaded() -> tuple[dict[str, list[float]], list[float]]:
        q: Any = multiprocessing.Queue()
        p = multiprocessing.Process(target=naive_countdowns, args=(runs, args.seconds, q))
        p.start()
        errors = countdown_errors(appliance, probe, runs, args.seconds)
        naive_errors = q.get()
        p.join()
        return errors, naive_errors

    under_load, naive_loaded = with_load(loaded)
    appliance.shell.stop()
    thread.join(10)
    return {"idle": idle, "loaded": under_load, "naive_idle": naive_idle, "naive_loaded": naive_loaded,
            "cpu": countdown_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=int, default=5, help="length of each countdown (min 5)")
    parser.add_argument("--journal-dir", type=Path, help="where the journal lives (default: a temporary folder)")
    parser.add_argument("--nice", type=int, default=0,
                        help="run at this niceness, as systemd/wordtable.service does (Nice=-10; needs root)")
    parser.add_argument("--sched", choices=("other", "fifo", "rr"), default="other",
                        help="scheduling policy, as the unit's CPUSchedulingPolicy= would set it (needs root)")
    parser.add_argument("--panel", default="100000", help="the countdowns' panel: dummy or an I2C rate in Hz")
    parser.add_argument("--alarm-only", action="store_true", help="only the countdowns (no latency, no idle CPU)")
    parser.add_argument("--latency-only", action="store_true", help="only the button latencies and idle CPU")
    parser.add_argument("--during-refresh", type=int, default=0, metavar="N",
                        help="also N presses on each wire panel that land just as its whole-frame refresh starts "
                             "(the refresh period set to 1 s; on the table: the first press after 30 s idle)")
    parser.add_argument("--alarm-thread", action="store_true",
                        help="experiment: a thread armed at each countdown's start sounds the alarm at the deadline")
    args = parser.parse_args()
    runs = 5 if args.quick else 20
    presses = 100 if args.quick else 200  # even: ends paused
    if args.nice:
        os.nice(args.nice)  # the naive countdown inherits it (a fair comparison); the load resets itself to 0
    if args.sched != "other":
        policy = os.SCHED_FIFO if args.sched == "fifo" else os.SCHED_RR
        os.sched_setscheduler(0, policy, os.sched_param(10))  # threads started later inherit it
    idle_window = 10.0 if args.quick else 30.0

    probe = Probe()
    latencies: dict[str, Presses] = {}
    during_refresh: dict[str, list[float]] = {}
    idle_cpu = None
    collections: tuple[list[float], list[float]] | None = None
    with tempfile.TemporaryDirectory(prefix="wordtable-bench-", dir=args.journal_dir) as scratch:
        if not args.alarm_only:
            for panel in ("dummy", *map(str, RATES)):
                appliance, thread, bus = open_panel(Path(scratch), f"latency-{panel}", probe, panel)
                time.sleep(2.0)  # let start-up settle (the panel's init and first full frame are on the wire)
                if panel == "dummy":
                    cpu0, wall0 = cpu_seconds(), time.monotonic()
                    time.sleep(idle_window)
                    idle_cpu = (cpu_seconds() - cpu0) / (time.monotonic() - wall0) * 100
                    collections = full_collections()
                latencies[panel] = button_latencies(appliance, probe, presses, bus)
                appliance.shell.stop()
                thread.join(10)
                if bus is not None and args.during_refresh:
                    appliance, thread, bus = open_panel(Path(scratch), f"refresh-{panel}", probe, panel, 1)
                    time.sleep(1.0)
                    during_refresh[panel] = presses_during_refresh(appliance, probe, args.during_refresh, bus)
                    appliance.shell.stop()
                    thread.join(10)

        countdowns = None if args.latency_only else run_countdowns(Path(scratch), probe, args, runs)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    panel = "luma dummy" if args.panel == "dummy" else f"SSD1306 on {int(args.panel) // 1000} kHz wire"
    print(f"wordtable shell benchmark — {runs} countdowns of {args.seconds} s each ({panel}); "
          f"{os.cpu_count()} cores; Python {sys.version.split()[0]}; niceness {os.nice(0)}; "
          f"policy {args.sched}" + ("; alarm from a dedicated thread" if args.alarm_thread else ""))
    print(f"{'measure':<52} {'p50':>8} {'p99':>8} {'max':>8}")
    if countdowns is not None:
        for name in ("idle", "loaded"):
            errors = countdowns[name]
            print(f"{'end alarm error at the buzzer pin, ' + name + ' (ms)':<52} {stats(errors['pin'])}")
            print(f"{'  shell loop wakes − core deadline (ms)':<52} {stats(errors['wake'])}")
            print(f"{'  buzzer pin − wake-up: step + buzzer (ms)':<52} {stats(errors['sound'])}")
        print(f"{'naive sleep(1) countdown end error, idle (ms)':<52} {stats(countdowns['naive_idle'])}")
        print(f"{'naive sleep(1) countdown end error, loaded (ms)':<52} {stats(countdowns['naive_loaded'])}")
    for name, measured in latencies.items():
        where = "frame (luma dummy)" if name == "dummy" else f"last byte, {int(name) // 1000} kHz I2C"
        print(f"{'button → ' + where + ' (ms)':<52} {stats(measured.latencies)}")
        print(f"{'  of which: journal write of the press (ms)':<52} {stats(measured.journal)}")
        print(f"{'  each press without its journal write (ms)':<52} {stats(measured.without)}")
        print(f"{'  beside it: the storage sync of each write (ms)':<52} {stats(measured.syncs)}")
        if measured.wire_bytes:
            print(f"{'  bytes on the wire, release to last byte':<52} {stats(measured.wire_bytes, 0)}")
    for name, lat in during_refresh.items():
        print(f"{'button as the refresh starts → last byte, ' + str(int(name) // 1000) + ' kHz (ms)':<52} {stats(lat)}")
    if idle_cpu is not None:
        print(f"{'CPU while idle (% of one core)':<52} {idle_cpu:8.3f}   over {idle_window:.0f} s")
    if collections is not None:
        print(f"{'a full garbage collection, start-up unfrozen (ms)':<52} {stats(collections[0])}")
        print(f"{'a full garbage collection, as the service (ms)':<52} {stats(collections[1])}")
    if countdowns is not None:
        print(f"{'CPU during countdowns (% of one core)':<52} {countdowns['cpu']:8.3f}")
    print(f"{'peak RSS (MB)':<52} {rss_mb:8.1f}")


if __name__ == "__main__":
    main()
