"""Which of the service's threads may wait: the work that is not the table's own runs below it.

The unit starts the service at SCHED_FIFO (systemd/wordtable.service `CPUSchedulingPolicy=fifo`), so
every thread it starts inherits the real-time policy: the loop, the display writer and the buzzer (the
alarm) — and also the table page's web server, the league's MQTT threads and the word lists' opener,
which then compete with the alarm at the same priority. `let_wait` moves the threads of `CAN_WAIT` to
SCHED_OTHER at nice `WAIT_NICE` (lowering needs no privilege, and `RestrictRealtime=` stays on); the
loop, the display writer and the buzzer keep what the unit gave. The interpreter's switch interval is
shortened too (`SWITCH_S`), so a thread that may wait holds the GIL for at most that long while the loop
or the alarm wants it.

`run_when_idle` puts a whole process (the word index's builder child) where it cannot compete with the
service at all: SCHED_IDLE for the processor and the idle class for the storage (`ioprio_set`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterable

# Name prefixes of the threads that may wait (the page's and the league's servers are `web.Served`
# threads named "page" and "league"; paho names its network loop "paho-mqtt-client-…"; network.feed "wifi-feed").
CAN_WAIT = ("page", "league", "paho-mqtt-client", "end-summary", "word-lists", "wifi-feed")
WAIT_NICE = 10
SWITCH_S = 0.001  # the GIL handed on after at most 1 ms (CPython's default: 5 ms)


def may_wait(name: str) -> bool:
    return name.startswith(CAN_WAIT)


def let_wait(threads: Iterable[threading.Thread] | None = None, done: set[int] | None = None) -> list[str]:
    """Move the live threads that may wait (of `threads`, default all) to SCHED_OTHER at `WAIT_NICE`;
    the names of those moved. `done` holds the thread ids moved before (skipped, and added to)."""
    moved = []
    for thread in threading.enumerate() if threads is None else threads:
        tid = thread.native_id
        if tid is None or not thread.is_alive() or not may_wait(thread.name) or (done is not None and tid in done):
            continue
        with contextlib.suppress(AttributeError, OSError):  # not Linux, or the thread just ended
            os.sched_setscheduler(tid, os.SCHED_OTHER, os.sched_param(0))
            os.setpriority(os.PRIO_PROCESS, tid, max(WAIT_NICE, os.getpriority(os.PRIO_PROCESS, tid)))
            moved.append(thread.name)
            if done is not None:
                done.add(tid)
    return moved


def hand_the_gil_on_sooner() -> None:
    sys.setswitchinterval(SWITCH_S)


# ioprio_set/ioprio_get have no wrapper in Python or glibc: their syscall numbers per machine
IOPRIO_SYSCALLS = {"x86_64": (251, 252), "aarch64": (30, 31), "armv7l": (314, 315), "armv6l": (314, 315),
                   "i686": (289, 290)}
IOPRIO_WHO_PROCESS = 1
IOPRIO_CLASS_SHIFT = 13
IOPRIO_CLASS_IDLE = 3


def run_when_idle() -> list[str]:
    """Put this process in the idle class: SCHED_IDLE (it runs only when no other thread wants the
    processor; the kernel still gives it a sliver of a busy core, so it ends) and the idle I/O class (its
    reads and writes wait while others use the storage, where the I/O scheduler honours classes: BFQ,
    mq-deadline). What was set, e.g. ["SCHED_IDLE", "ioprio idle"]; a refusal or another OS leaves that part."""
    done = []
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        done.append("SCHED_IDLE")
    if _ioprio(0, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT) == 0:
        done.append("ioprio idle")
    return done


def io_class(pid: int) -> int | None:
    """The I/O scheduling class of process `pid` (3: idle), or None where it cannot be read."""
    value = _ioprio(pid, None)
    return None if value is None or value < 0 else value >> IOPRIO_CLASS_SHIFT


def _ioprio(pid: int, value: int | None) -> int | None:
    """ioprio_set (`value`) or ioprio_get (None) of process `pid` (0: this one); None without the syscall."""
    numbers = IOPRIO_SYSCALLS.get(os.uname().machine) if sys.platform.startswith("linux") else None
    if numbers is None:
        return None
    import ctypes  # only here: the service never needs it

    libc = ctypes.CDLL(None, use_errno=True)
    if value is None:
        return int(libc.syscall(numbers[1], IOPRIO_WHO_PROCESS, pid))
    return int(libc.syscall(numbers[0], IOPRIO_WHO_PROCESS, pid, value))
