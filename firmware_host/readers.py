"""The board profile's card readers, started for the shell: one `CardReader` thread per `[[readers]]`.

Each reader puts its events (`CardScan`, `CardRemoved`, `ReaderStatus`) on the shell's inbox. On a mock
board (`board.pin_factory = "mock"`, the simulator) every reader gets a `SimulatedPort` instead of its
real port, so nothing real is opened; `simulated[name]` then lets the simulator or a benchmark send
frames (`send_tag`, `send_line`) and unplug/replug it.
A reader found at start is not news: its first "present" is not passed on, only "missing" and the
"present" after it ("reader X is back").
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drivers.cardreader import CardReader
from drivers.sim_reader import SimulatedPort
from firmware_host.core.events import Event, ReaderStatus
from hw.profile import Profile

log = logging.getLogger("wordtable")


class _Inbox:
    """The shell's inbox, minus each reader's "present" until it was once missing."""

    def __init__(self, inbox: Any) -> None:
        self._inbox = inbox
        self._missed: set[str] = set()

    def put(self, event: Event) -> None:
        if isinstance(event, ReaderStatus):
            if event.present and event.reader not in self._missed:
                return
            self._missed.add(event.reader)
        self._inbox.put(event)


@dataclass
class Readers:
    """The running readers; `close()` (idempotent) stops them, the last started first."""

    readers: list[CardReader] = field(default_factory=list)
    simulated: dict[str, SimulatedPort] = field(default_factory=dict)

    def close(self) -> None:
        while self.readers:
            reader = self.readers.pop()
            try:
                reader.close()
            except Exception:  # one stuck reader must not keep the others open
                log.exception("closing reader %s failed", reader.name)


def open_readers(
    profile: Profile, inbox: Any, *, clock: Callable[[], float] = time.monotonic, **options: Any
) -> Readers:
    """Start a reader thread per configured reader, putting events on `inbox` (anything with `put`).
    `options` go to `CardReader` (e.g. `retry`, or `opener` to replace the serial port)."""
    simulate = profile.board.pin_factory == "mock" and "opener" not in options
    running = Readers()
    events: Any = _Inbox(inbox)  # CardReader only calls put()
    try:
        for config in profile.readers:
            opener = options.get("opener")
            if simulate:
                opener = running.simulated[config.name] = SimulatedPort()
            reader = CardReader(config, events, clock=clock, **{**options, "opener": opener})
            running.readers.append(reader.start())
    except BaseException:
        with contextlib.suppress(Exception):
            running.close()
        raise
    return running
