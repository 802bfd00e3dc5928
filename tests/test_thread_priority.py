"""The threads that may wait (the page's and the league's servers, paho's loop, the word lists' opener, the
end summary) go below the table; the loop, the display writer and the buzzer keep what the unit gave."""

from __future__ import annotations

import os
import threading

import pytest

from firmware_host.thread_priority import WAIT_NICE, let_wait, may_wait


def test_which_threads_may_wait() -> None:
    assert all(may_wait(name) for name in ("page", "league", "league-publisher", "paho-mqtt-client-wt",
                                           "end-summary", "word-lists"))
    assert not any(may_wait(name) for name in ("MainThread", "wordtable-display", "wordtable-buzzer",
                                               "input-devices", "reader-rfid"))


@pytest.mark.skipif(not hasattr(os, "sched_setscheduler"), reason="Linux scheduling")
def test_only_the_threads_that_may_wait_are_moved_down_and_each_once() -> None:
    release = threading.Event()
    threads = [threading.Thread(target=release.wait, name=name, daemon=True)
               for name in ("league-publisher", "wordtable-display")]
    for thread in threads:
        thread.start()
    try:
        done: set[int] = set()
        assert let_wait(threads, done) == ["league-publisher"]
        waiting, display = (thread.native_id for thread in threads)
        assert waiting is not None and display is not None
        assert os.sched_getscheduler(waiting) == os.SCHED_OTHER
        assert os.getpriority(os.PRIO_PROCESS, waiting) >= WAIT_NICE
        assert os.getpriority(os.PRIO_PROCESS, display) == os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        assert done == {waiting} and let_wait(threads, done) == []  # not again
    finally:
        release.set()
