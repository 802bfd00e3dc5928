"""End-alarm error at the buzzer pin, idle and with every core loaded, as the unit runs the service.

    python bench/bench_alarm.py [--runs 10] [--seconds 5] [--policy unit|other] [--pi]

The real appliance on the sim profile counts down `--seconds` `--runs` times; the error is the buzzer
pin's first edge minus (START's release + the length) (`bench_shell.countdown_errors`). `--policy unit`
(the default) runs it as systemd/wordtable.service does: SCHED_FIFO 10 and Nice=-10 for the process, the
threads that may wait moved down (`thread_priority.let_wait`) and the GIL's switch interval shortened;
`other` as a plain process. The load is one busy process per core at the ordinary priority. `--pi` runs it
all (the load too) on one CPU at a Pi Zero 2 W core's share (bench/pi_speed.py), beside full speed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_shell import Probe, countdown_errors, open_panel, with_load
from bench.pi_speed import add_pi_argument, pi_or_run, row
from firmware_host import thread_priority


def measure(args: argparse.Namespace) -> None:
    if args.policy == "unit":
        with contextlib.suppress(PermissionError, OSError):
            os.nice(-10)
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))  # threads started later inherit it
            policy = "SCHED_FIFO 10, nice -10"
        except (PermissionError, OSError) as exc:
            policy = f"SCHED_FIFO refused ({exc.strerror}), nice {os.nice(0)}"
        thread_priority.hand_the_gil_on_sooner()
    else:
        policy = "SCHED_OTHER"
    probe = Probe()
    with tempfile.TemporaryDirectory() as scratch:
        appliance, thread, _ = open_panel(Path(scratch), "alarm", probe, "dummy")
        if args.policy == "unit":
            thread_priority.let_wait()
        probe.watch_buzzer(appliance)
        probe.watch_ticks(appliance)
        idle = countdown_errors(appliance, probe, args.runs, args.seconds)
        loaded = with_load(lambda: countdown_errors(appliance, probe, args.runs, args.seconds))
        appliance.shell.stop()
        thread.join(10)
    print(f"end-alarm error at the buzzer pin ({policy}), {args.runs} countdowns of {args.seconds} s:")
    row("end-alarm error, idle", idle["pin"])
    row("end-alarm error, every core loaded", loaded["pin"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--policy", choices=("unit", "other"), default="unit")
    add_pi_argument(parser)
    args = parser.parse_args()
    pi_or_run(args, lambda: measure(args))


if __name__ == "__main__":
    main()
