"""Benchmark of the real shell on mock pins: end-alarm error, button→effect latency, CPU and memory,
beside a naive `sleep(1)`-per-second countdown. Prints a table; asserts nothing.

    python bench/bench_shell.py            # 20 countdowns of 5 s idle and 20 under load (~4 min)
    python bench/bench_shell.py --quick    # 5 + 5 countdowns, shorter idle window
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import start_appliance, stats
from firmware_host.appliance import Appliance
from firmware_host.config import resolve
from firmware_host.core.events import TextEntry
from firmware_host.core.screens import BigScreen
from firmware_host.render import render
from firmware_host.shell import Outputs

PROFILE = resolve("sim", None, environ={}).profile
START_PIN, BACK_PIN = PROFILE.buttons.start, PROFILE.buttons.back


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Probe:
    """Wraps the shell's outputs to time-stamp what reaches the hardware."""

    def __init__(self) -> None:
        self.alarms: list[float] = []
        self.frames: list[float] = []
        self.alarm_seen = threading.Event()
        self.frame_seen = threading.Event()

    def hook(self, outputs: Outputs) -> Outputs:
        def on_frame(screen: Any, image: Any) -> None:
            self.frames.append(time.monotonic())
            self.frame_seen.set()

        def on_sound(pattern: str, notes: Any) -> None:
            if pattern == "alarm":
                self.alarms.append(time.monotonic())
                self.alarm_seen.set()

        return replace(outputs, on_frame=on_frame, on_sound=on_sound)


def countdown_errors(appliance: Appliance, probe: Probe, runs: int, seconds: int) -> list[float]:
    """Run `runs` countdowns; return alarm time minus intended end, in ms."""
    shell = appliance.shell
    shell.put(TextEntry(str(seconds), time.monotonic()))
    errors = []
    for _ in range(runs):
        probe.alarm_seen.clear()
        probe.frame_seen.clear()
        press(appliance, START_PIN)
        probe.frame_seen.wait(2)
        deadline = shell.state.timer.countdown.deadline
        assert deadline is not None, "the countdown did not start"
        probe.alarm_seen.wait(seconds + 5)
        errors.append((probe.alarms[-1] - deadline) * 1000)
        time.sleep(0.05)
    return errors


def press(appliance: Appliance, number: int) -> None:
    """A short press on a mock pin (active low): the Press is emitted on release."""
    pin = appliance.hardware.pin_factory.pin(number)
    pin.drive_low()
    time.sleep(0.01)
    pin.drive_high()
    time.sleep(0.06)  # beyond the 30 ms debounce


def button_latencies(appliance: Appliance, probe: Probe, presses: int) -> list[float]:
    """START toggles start/pause; each toggle redraws. Time from the release edge to the frame, in ms."""
    pin = appliance.hardware.pin_factory.pin(START_PIN)
    latencies = []
    for _ in range(presses):
        probe.frame_seen.clear()
        pin.drive_low()
        time.sleep(0.01)
        before = time.monotonic()
        pin.drive_high()
        if probe.frame_seen.wait(1):
            latencies.append((probe.frames[-1] - before) * 1000)
        time.sleep(0.06)  # beyond the 30 ms debounce
    return latencies


def journal_appends(directory: Path, count: int) -> list[float]:
    """The storage's share of every input: one journal transaction (WAL, synchronous=FULL), in ms."""
    from firmware_host.journal import Journal, utc_now

    times = []
    with Journal.open(directory / "bench-journal.sqlite3") as journal:
        game = journal.start_game("appliance", [])
        for n in range(count):
            t = time.perf_counter()
            journal.append(game, "input", {"type": "press", "button": "start", "at": float(n)}, utc_now())
            times.append((time.perf_counter() - t) * 1000)
    return times


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=int, default=5, help="length of each countdown (min 5)")
    parser.add_argument("--journal-dir", type=Path, help="where the journal lives (default: a temporary folder)")
    parser.add_argument("--nice", type=int, default=0,
                        help="run at this niceness, as systemd/wordtable.service does (Nice=-10; needs root)")
    args = parser.parse_args()
    runs = 5 if args.quick else 20
    if args.nice:
        os.nice(args.nice)  # the naive countdown inherits it (a fair comparison); the load resets itself to 0
    idle_window = 10.0 if args.quick else 30.0

    probe = Probe()
    with tempfile.TemporaryDirectory(prefix="wordtable-bench-", dir=args.journal_dir) as scratch:
        appends = journal_appends(Path(scratch), 200)
        appliance, thread = start_appliance(Path(scratch), probe.hook)

        time.sleep(2.0)  # let start-up settle: idle means the steady state
        cpu0, wall0 = cpu_seconds(), time.monotonic()
        time.sleep(idle_window)
        idle_cpu = (cpu_seconds() - cpu0) / (time.monotonic() - wall0) * 100

        latencies = button_latencies(appliance, probe, 100 if args.quick else 200)  # even: ends paused
        press(appliance, BACK_PIN)  # reset

        queue: Any = multiprocessing.Queue()
        naive = multiprocessing.Process(target=naive_countdowns, args=(runs, args.seconds, queue))
        naive.start()
        cpu0, wall0 = cpu_seconds(), time.monotonic()
        idle_errors = countdown_errors(appliance, probe, runs, args.seconds)
        countdown_cpu = (cpu_seconds() - cpu0) / (time.monotonic() - wall0) * 100
        naive_idle = queue.get()
        naive.join()

        def loaded() -> tuple[list[float], list[float]]:
            q: Any = multiprocessing.Queue()
            p = multiprocessing.Process(target=naive_countdowns, args=(runs, args.seconds, q))
            p.start()
            errors = countdown_errors(appliance, probe, runs, args.seconds)
            naive_errors = q.get()
            p.join()
            return errors, naive_errors

        loaded_errors, naive_loaded = with_load(loaded)
        appliance.shell.stop()
        thread.join(10)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"wordtable shell benchmark — {runs} countdowns of {args.seconds} s each; {os.cpu_count()} cores; "
          f"Python {sys.version.split()[0]}; niceness {os.nice(0)}")
    print(f"{'measure':<44} {'p50':>8} {'p99':>8} {'max':>8}")
    print(f"{'end alarm error, idle (ms)':<44} {stats(idle_errors)}")
    print(f"{'end alarm error, all cores loaded (ms)':<44} {stats(loaded_errors)}")
    print(f"{'naive sleep(1) countdown end error, idle (ms)':<44} {stats(naive_idle)}")
    print(f"{'naive sleep(1) countdown end error, loaded (ms)':<44} {stats(naive_loaded)}")
    print(f"{'button → frame latency (ms)':<44} {stats(latencies)}")
    print(f"{'  of which: journal append, fsync (ms)':<44} {stats(appends)}")
    print(f"{'CPU while idle (% of one core)':<44} {idle_cpu:8.3f}   over {idle_window:.0f} s")
    print(f"{'CPU during countdowns (% of one core)':<44} {countdown_cpu:8.3f}")
    print(f"{'peak RSS (MB)':<44} {rss_mb:8.1f}")


if __name__ == "__main__":
    main()
