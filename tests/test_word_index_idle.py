"""The word index's builder child runs in the idle class: SCHED_IDLE for the processor and the idle I/O
class, so a build never competes with the service's loop, display writer or alarm."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from firmware_host import word_index
from firmware_host.thread_priority import IOPRIO_CLASS_IDLE, io_class

pytestmark = [pytest.mark.slow,  # a child process
              pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling")]


def test_the_builder_child_is_idle_class_while_it_builds(tmp_path: Path) -> None:
    source = tmp_path / "liste"
    os.mkfifo(source)  # the child blocks reading it: it can be looked at while it builds
    built: list[word_index.WordIndex] = []
    opener = threading.Thread(target=lambda: built.append(word_index.open_index(source, "de", tmp_path)))
    opener.start()
    try:
        deadline = time.monotonic() + 30
        while not word_index._building and time.monotonic() < deadline:
            time.sleep(0.01)
        (child,) = word_index._building
        def idle() -> bool:
            return (os.sched_getscheduler(child.pid) == os.SCHED_IDLE
                    and io_class(child.pid) in (IOPRIO_CLASS_IDLE, None))

        while not idle() and time.monotonic() < deadline:
            time.sleep(0.01)  # the child sets both itself, first thing
        assert os.sched_getscheduler(child.pid) == os.SCHED_IDLE
        assert io_class(child.pid) in (IOPRIO_CLASS_IDLE, None)  # None: no ioprio syscall here
        assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the service itself is left alone
    finally:
        if word_index._building:  # else opening the pipe would wait for a reader forever
            with open(source, "w", encoding="utf-8") as words:
                words.write("Apfel\nBaum\nStraße\n")
        opener.join(30)
    assert built and "STRAßE" in built[0]
