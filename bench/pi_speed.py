"""Pi-speed harness: run a benchmark (or `wordtable run`) on one CPU limited to a Raspberry Pi Zero 2 W
core's share of this machine, and print its figures beside the full-speed ones.

    python bench/pi_speed.py calibrate          # the share: this CPU against a Cortex-A53 at 1 GHz
    python bench/pi_speed.py run -- CMD ...     # CMD pinned to one CPU at that share

How the share is limited: a cgroup with the kernel's CPU bandwidth controller — cgroup v2 `cpu.max`
when /sys/fs/cgroup/cgroup.controllers offers `cpu`, else cgroup v1 `cpu.cfs_quota_us` /
`cpu.cfs_period_us` under /sys/fs/cgroup/cpu (this VM has v1 only) — and the process pinned to one CPU
(`sched_setaffinity`, as `taskset -c`). Where no cgroup can be written, a duty-cycling limiter stops and
continues the process group (SIGSTOP/SIGCONT) in `PERIOD_S` slices instead; the output says which.
The bandwidth controller lets the group run for its quota, then stops it until the period ends; the
kernel's smallest quota is 1 ms, so the period is the shortest that gives the share with it:
`MIN_QUOTA_US / share` (6.25 ms at 0.16). A latency measured at the share therefore carries up to
`(1 - share) × period` (5.25 ms) of throttling on top of the slower CPU (a real Pi is slow all the time
instead; the throttle makes p99/max at the Pi share pessimistic, not optimistic): bench/README.md.
Real-time threads (the unit's SCHED_FIFO) escape the cfs quota, so the v1 group's `cpu.rt_period_us` /
`cpu.rt_runtime_us` are set alike. `$WORDTABLE_PI_METHOD=spin` makes the share with a spinner instead
(`spin`: a SCHED_FIFO 90 process on the same CPU taking the rest in ~0.1 ms slices; not calibrated yet).

Calibration (`calibrate`): the published single-core figure is sysbench 1.0.20 `cpu --threads=1`
(primes up to 10 000): 687.45 events/s on a Raspberry Pi 3 Model B+ (Cortex-A53 at 1.4 GHz), from
https://leoncode.co.uk/articles/raspberry-pi-benchmarks ; the Zero 2 W's Cortex-A53 runs at 1.0 GHz,
so scaled by clock: 687.45 × 1.0 / 1.4 = 491 events/s (`A53_1GHZ_EVENTS_S`). The same command here,
pinned to one CPU, gives `here`; the share is 491 / here. Measured on this 2-core x86 VM (shared, loaded):
see bench/README.md. Python's own speed is checked against it: `calibrate` also times a fixed pure-Python
workload at full speed and inside the limited cgroup and prints the ratio, which should be the share.
Caveat: sysbench's primes are integer C code; CPython on an in-order A53 with small caches loses a bit
more than that against x86, so the share is if anything generous to the Pi.

A benchmark takes `--pi` with `add_pi_argument` and calls `pi_or_run(args, main)`: with `--pi` it runs
itself twice as child processes (full speed, then at the Pi share), each printing its rows with `row()`,
and prints every row side by side: figure, full p50/p99/max, Pi p50/p99/max.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

A53_1GHZ_EVENTS_S = 687.45 * 1.0 / 1.4  # sysbench cpu, Pi 3B+ at 1.4 GHz scaled to the Zero 2 W's 1.0 GHz
DEFAULT_SHARE = 0.16  # sysbench here (2-core x86 VM): 3054 events per CPU-second -> 491 / 3054 (bench/README.md)
MIN_QUOTA_US = 1000  # the kernel's least cfs quota (cgroup v1 and v2)
PERIOD_S = 0.00625  # the SIGSTOP/SIGCONT fallback's slice: as the cgroup's period at the default share
CPU = 1  # the CPU the limited process is pinned to
ROW_MARK = "@row "
PI_ENV = "WORDTABLE_BENCH_PI"  # set in a child that runs at the Pi share (its value: the share)
SHARE_ENV = "WORDTABLE_PI_SHARE"  # overrides the calibrated share
METHOD_ENV = "WORDTABLE_PI_METHOD"  # "cgroup" (the default) or "spin": how the share is made
SPIN_PRIORITY = 90  # the spinner's SCHED_FIFO priority: above the unit's 10
SPIN_GAP_S = 100e-6  # the spinner's sleep, as asked (a wake-up on this VM takes longer)


def sysbench_events_s(cpu: int = CPU, seconds: int = 5) -> float | None:
    """sysbench's single-thread events per second of CPU time on `cpu` (its events over the user+system
    time it got: on a shared, loaded machine its wall-clock rate understates the CPU), or None without
    sysbench."""
    if shutil.which("sysbench") is None:
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(["taskset", "-c", str(cpu), "sysbench", "cpu", "--threads=1", f"--time={seconds}", "run"],
                         capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    for line in out.splitlines():
        if "total number of events" in line:
            return float(line.split(":")[1]) / cpu_s
    return None


def share() -> float:
    """The Pi Zero 2 W core's share of one CPU here: $WORDTABLE_PI_SHARE, else `DEFAULT_SHARE`."""
    return float(os.environ.get(SHARE_ENV, DEFAULT_SHARE))


def start_spinner(fraction: float) -> subprocess.Popen[str] | None:
    """The spinner (`spin`) in a process of its own, once it runs at its real-time priority; None where it
    may not (no privilege)."""
    spinner = subprocess.Popen([sys.executable, __file__, "spin", str(fraction)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    assert spinner.stdout is not None
    if spinner.stdout.readline().strip() == "ready":
        return spinner
    spinner.wait()
    return None


def spin(fraction: float) -> None:
    """Take `1 - fraction` of CPU `CPU` from everything below SCHED_FIFO `SPIN_PRIORITY`, in slices of
    about a tenth of a millisecond: sleep `SPIN_GAP_S` (the others run), then spin until the time spun is
    (1 - fraction)/fraction of the time slept, both as measured (a late wake-up only lengthens the next
    spin). Ends when its parent does."""
    os.sched_setaffinity(0, {CPU})
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(SPIN_PRIORITY))
    except OSError as exc:
        print(f"refused: {exc.strerror}", flush=True)
        return
    print("ready", flush=True)
    parent, clock = os.getppid(), time.perf_counter
    ratio = (1 - fraction) / fraction
    slept = spun = 0.0
    rounds = 0
    while True:
        start = clock()
        time.sleep(SPIN_GAP_S)
        woke = clock()
        slept += woke - start
        until = woke + slept * ratio - spun
        while clock() < until:
            pass
        spun += clock() - woke
        rounds += 1
        if rounds % 1000 == 0 and os.getppid() != parent:
            return


def period_for(fraction: float) -> tuple[int, int]:
    """(quota, period) in µs giving `fraction` of a CPU in the shortest period the kernel accepts: the
    least quota (1 ms), and the period that quota over the share (6250 µs at 0.16)."""
    fraction = min(1.0, max(fraction, 0.001))
    return MIN_QUOTA_US, max(MIN_QUOTA_US, round(MIN_QUOTA_US / fraction))


class Limiter:
    """A CPU-bandwidth cgroup for one child (v2 `cpu.max` or v1 cfs quota), or the SIGSTOP/SIGCONT duty
    cycle where none can be made. `preexec` joins it and pins to `CPU` (run in the child before exec)."""

    def __init__(self, fraction: float, method: str | None = None) -> None:
        self.fraction = fraction
        self.procs: Path | None = None
        self._stop = threading.Event()
        self.spinner: subprocess.Popen[str] | None = None
        if (method or os.environ.get(METHOD_ENV, "cgroup")) == "spin":
            self.spinner = start_spinner(fraction)
            if self.spinner is not None:
                self.kind = f"spinner at SCHED_FIFO {SPIN_PRIORITY} taking {1 - fraction:.3f} of CPU {CPU}"
                return
        quota_us, period_us = period_for(fraction)
        self.kind = "SIGSTOP/SIGCONT duty cycle (no writable cgroup)"
        name = f"wordtable-pi-{os.getpid()}"
        v2 = Path("/sys/fs/cgroup")
        try:
            if "cpu" in (v2 / "cgroup.controllers").read_text().split():
                self.dir = v2 / name
                self.dir.mkdir()
                (self.dir / "cpu.max").write_text(f"{quota_us} {period_us}\n")
                self.procs, self.kind = self.dir / "cgroup.procs", f"cgroup v2 cpu.max {quota_us} {period_us}"
        except OSError:
            pass
        if self.procs is None:
            try:
                self.dir = Path("/sys/fs/cgroup/cpu") / name
                self.dir.mkdir()
                (self.dir / "cpu.cfs_period_us").write_text(f"{period_us}\n")
                (self.dir / "cpu.cfs_quota_us").write_text(f"{quota_us}\n")
                with contextlib.suppress(OSError):  # real-time threads escape the cfs quota: the same share
                    (self.dir / "cpu.rt_period_us").write_text(f"{period_us}\n")
                    (self.dir / "cpu.rt_runtime_us").write_text(f"{quota_us}\n")
                self.procs = self.dir / "cgroup.procs"
                self.kind = f"cgroup v1 cfs_quota_us={quota_us} cfs_period_us={period_us} (rt_ alike)"
            except OSError:
                self.procs = None

    def preexec(self) -> None:
        os.sched_setaffinity(0, {CPU})
        if self.spinner is not None:
            return
        if self.procs is not None:
            self.procs.write_text(f"{os.getpid()}\n")
        else:
            os.setpgid(0, 0)

    def started(self, pid: int) -> None:
        """Begin duty-cycling `pid`'s process group when there is neither a spinner nor a cgroup."""
        if self.spinner is None and self.procs is None:
            threading.Thread(target=self._duty, args=(pid,), daemon=True).start()

    def _duty(self, pid: int) -> None:
        on, off = self.fraction * PERIOD_S, (1 - self.fraction) * PERIOD_S
        while not self._stop.is_set():
            try:
                time.sleep(on)
                os.killpg(pid, signal.SIGSTOP)
                time.sleep(off)
                os.killpg(pid, signal.SIGCONT)
            except ProcessLookupError:
                return

    def close(self) -> None:
        self._stop.set()
        if self.spinner is not None:
            self.spinner.kill()
            self.spinner.wait()
        if self.procs is not None:
            for _ in range(50):  # the group empties when its processes are reaped
                try:
                    self.dir.rmdir()
                    return
                except OSError:
                    time.sleep(0.05)


def run_limited(argv: Sequence[str], fraction: float | None = None, *, env: dict[str, str] | None = None,
                capture: bool = True, timeout: float | None = None) -> tuple[subprocess.CompletedProcess[str], str]:
    """`argv` to its end at the Pi share (or `fraction`), pinned to one CPU; its result and how it was limited."""
    limiter = Limiter(share() if fraction is None else fraction)
    try:
        pipe = subprocess.PIPE if capture else None
        child = subprocess.Popen(list(argv), env=env, preexec_fn=limiter.preexec, text=True, stdout=pipe, stderr=pipe)
        limiter.started(child.pid)
        out, err = child.communicate(timeout=timeout)
        return subprocess.CompletedProcess(list(argv), child.returncode, out, err), limiter.kind
    finally:
        limiter.close()


def popen_limited(argv: Sequence[str], fraction: float | None = None,
                  **kwargs: object) -> tuple[subprocess.Popen[str], Limiter]:
    """`argv` started at the Pi share, pinned to one CPU (a service); close the limiter after it ends."""
    limiter = Limiter(share() if fraction is None else fraction)
    child: subprocess.Popen[str] = subprocess.Popen(list(argv), preexec_fn=limiter.preexec, text=True, **kwargs)  # type: ignore[call-overload]
    limiter.started(child.pid)
    return child, limiter


# ---- rows: what a bench prints, and the side-by-side table of --pi ----

def row(figure: str, samples: Sequence[float], unit: str = "ms") -> None:
    """Print one figure: its p50/p99/max over `samples` for a reader, and a machine line for `--pi`."""
    p50, p99, top = stats(samples)
    print(f"  {figure:<64} p50 {p50:9.2f}  p99 {p99:9.2f}  max {top:9.2f} {unit}  (n={len(samples)})", flush=True)
    print(ROW_MARK + json.dumps({"figure": figure, "unit": unit, "p50": p50, "p99": p99, "max": top,
                                 "n": len(samples)}), flush=True)


def stats(samples: Sequence[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    if not ordered:
        return (float("nan"),) * 3
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99, ordered[-1]


def add_pi_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pi", action="store_true", help="run at full speed and at a Pi Zero 2 W core's share "
                        "(bench/pi_speed.py), and print the figures side by side")


def at_pi_share() -> bool:
    """Whether this process is the child `--pi` runs at the Pi share."""
    return PI_ENV in os.environ


def pi_or_run(args: argparse.Namespace, main: Callable[[], None]) -> None:
    """`main()`, or with `--pi` this script at full speed and at the Pi share, side by side."""
    if not getattr(args, "pi", False):
        main()
        return
    argv = [sys.executable, *[a for a in sys.argv if a != "--pi"]]
    print(f"full speed: {' '.join(argv[1:])}", flush=True)
    full = subprocess.run(argv, capture_output=True, text=True, check=False)
    env = {**os.environ, PI_ENV: str(share())}
    print(f"Pi Zero 2 W share {share():.3f} of CPU {CPU} ...", flush=True)
    pi, kind = run_limited(argv, env=env)
    for name, result in (("full speed", full), ("Pi share", pi)):
        if result.returncode:
            print(f"{name}: exit {result.returncode}\n{result.stderr[-2000:]}")
    print(f"\n{'figure':<64} {'full p50':>9} {'p99':>9} {'max':>9} | {'Pi p50':>9} {'p99':>9} {'max':>9}")
    pi_rows = {r["figure"]: r for r in _rows(pi.stdout)}
    for r in _rows(full.stdout):
        p = pi_rows.get(r["figure"], {"p50": float("nan"), "p99": float("nan"), "max": float("nan")})
        print(f"{r['figure']:<64} {r['p50']:9.2f} {r['p99']:9.2f} {r['max']:9.2f} | "
              f"{p['p50']:9.2f} {p['p99']:9.2f} {p['max']:9.2f} {r['unit']}")
    print(f"(Pi share: {kind}, pinned to CPU {CPU})")


def _rows(out: str) -> list[dict[str, object]]:
    return [json.loads(line[len(ROW_MARK):]) for line in out.splitlines() if line.startswith(ROW_MARK)]


# ---- calibration ----

PY_WORK = "sum(i * i % 7 for i in range(2_000_000))"


def calibrate() -> None:
    here = sysbench_events_s()
    if here is None:
        print("sysbench not found (apt-get install sysbench); the default share stands:", DEFAULT_SHARE)
        fraction = DEFAULT_SHARE
    else:
        fraction = A53_1GHZ_EVENTS_S / here
        print(f"sysbench cpu --threads=1 on CPU {CPU}: {here:.1f} events per CPU-second here; Cortex-A53 @ 1 GHz "
              f"{A53_1GHZ_EVENTS_S:.1f} events/s (687.45 at 1.4 GHz, scaled) -> share {fraction:.3f} "
              f"(this machine is {1 / fraction:.1f}x a Zero 2 W core)")
    cpu_code = f"import time; s = time.process_time(); {PY_WORK}; print(time.process_time() - s)"
    full = [float(subprocess.run([sys.executable, "-c", cpu_code], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(3)]  # CPU time: the machine is shared
    for policy, setup in (("SCHED_OTHER", ""), ("SCHED_FIFO 10, as the unit",
                                                 "os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10)); ")):
        code = f"import os, time; {setup}s = time.perf_counter(); {PY_WORK}; print(time.perf_counter() - s)"
        limited = []
        for _ in range(3):
            result, kind = run_limited([sys.executable, "-c", code], fraction)
            limited.append(float(result.stdout))
        ratio = statistics.median(full) / statistics.median(limited)
        print(f"python workload ({PY_WORK}) at {policy}: full {statistics.median(full) * 1000:.0f} ms CPU, limited "
              f"{statistics.median(limited) * 1000:.0f} ms ({kind}): ratio {ratio:.3f} (target {fraction:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("calibrate")
    spinner = sub.add_parser("spin")
    spinner.add_argument("fraction", type=float)
    runner = sub.add_parser("run")
    runner.add_argument("argv", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.command == "calibrate":
        calibrate()
        return
    if args.command == "spin":
        spin(args.fraction)
        return
    argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    result, kind = run_limited(argv, capture=False)
    print(f"(ran at share {share():.3f}: {kind})", file=sys.stderr)
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
