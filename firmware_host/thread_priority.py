"""Which of the service's threads may wait: the work that is not the table's own runs below it.

The unit starts the service at SCHED_FIFO (systemd/wordtable.service `CPUSchedulingPolicy=fifo`), so
every thread it starts inherits the real-time policy: the loop, the display writer and the buzzer (the
alarm) — and also the table page's web server, the league's MQTT threads and the word lists' opener,
which then compete with the alarm at the same priority. `let_wait` moves the threads of `CAN_WAIT` to
SCHED_OTHER at nice `WAIT_NICE` (lowering needs no privilege, and `RestrictRealtime=` stays on); the
loop, the display writer and the buzzer keep what the unit gave. The interpreter's switch interval is
shortened too (`SWITCH_S`), so a thread that may wait holds the GIL for at most that long while the loop
or the alarm wants it.
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
