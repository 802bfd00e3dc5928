"""A card reader on a serial port (RDM6300 RFID or a line-based barcode/QR scanner), read in its own thread.

Events go onto the shell's queue, stamped by the injected clock (monotonic seconds):
- `ReaderStatus(name, present=True)` when the port opens, `present=False` when it cannot be opened or
  vanishes (unplugged); the thread then retries with a growing delay (`retry` = first, longest) and
  reports `present=True` again when the reader is back.
- `CardScan(name, code)`: an RDM6300 tag placed (its repeated frames collapse into one scan) or a
  scanner code (every line is a scan). `CardRemoved(name, code)` after an RDM6300 tag's quiet gap.
A tag resting on a reader that vanishes is forgotten without a `CardRemoved`.

The port is opened by `opener(url, baudrate=, timeout=)` — `serial.serial_for_url` by default, so tests
use `loop://` or a pty — found by path or, for `usb = "vvvv:pppp"`, by `list_ports()` (default
`serial.tools.list_ports.comports`). pyserial is imported only when those defaults are used.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from drivers.rdm6300 import FrameParser, TagDebouncer, TagEvent, TagPlaced
from drivers.reader_config import ReaderConfig, ReaderKind
from drivers.scanner import LineParser
from firmware_host.core.events import CardRemoved, CardScan, Event, ReaderStatus

log = logging.getLogger(__name__)


class Port(Protocol):
    """What the reader needs of a pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


Opener = Callable[..., Port]


def _default_opener(url: str, *, baudrate: int, timeout: float) -> Port:
    import serial

    port: Port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout)
    return port


def _default_list_ports() -> Iterable[Any]:
    from serial.tools import list_ports

    return list(list_ports.comports())


def find_usb_port(vid_pid: tuple[int, int], ports: Iterable[Any]) -> str | None:
    """The device path of the first port with that USB VID:PID (objects as `comports()` yields)."""
    for info in ports:
        if (getattr(info, "vid", None), getattr(info, "pid", None)) == vid_pid:
            return str(info.device)
    return None


class CardReader:
    """One configured reader. `start()` launches the thread; `close()` stops and joins it (idempotent)."""

    def __init__(
        self,
        config: ReaderConfig,
        events: queue.Queue[Event],
        *,
        opener: Opener | None = None,
        list_ports: Callable[[], Iterable[Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        retry: tuple[float, float] = (0.5, 8.0),
        read_timeout: float = 0.25,  # also how often a resting tag is checked for removal: 4 wake-ups a second
    ) -> None:
        self.config = config
        self._events = events
        self._opener: Opener = opener or _default_opener
        self._list_ports = list_ports or _default_list_ports
        self._clock = clock
        self._retry = retry
        self._read_timeout = read_timeout
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._present: bool | None = None

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def present(self) -> bool | None:
        """True while the port is open, False while it is missing, None before the first attempt."""
        return self._present

    def start(self) -> CardReader:
        if self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name=f"reader-{self.name}", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def __enter__(self) -> CardReader:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the thread ---

    def _emit(self, event: Event) -> None:
        self._events.put(event)

    def _status(self, present: bool) -> None:
        if self._present is not present:
            self._present = present
            log.info("reader %s (%s) %s", self.name, self.config.where(), "present" if present else "missing")
            self._emit(ReaderStatus(self.name, present, self._clock()))

    def _open(self) -> Port | None:
        url = self.config.port
        try:
            if self.config.usb is not None:
                url = find_usb_port(self.config.usb, self._list_ports())
            if url is None:
                return None
            return self._opener(url, baudrate=self.config.baud, timeout=self._read_timeout)
        except (OSError, ValueError) as exc:  # serial.SerialException is an OSError
            log.debug("reader %s: cannot open %s: %s", self.name, url, exc)
            return None

    def _run(self) -> None:
        first, longest = self._retry
        delay = first
        while not self._stop.is_set():
            port = self._open()
            if port is None:
                self._status(False)
                self._stop.wait(delay)
                delay = min(delay * 2, longest)
                continue
            delay = first
            self._status(True)
            try:
                self._pump(port)
            except (OSError, ValueError, TypeError, AttributeError) as exc:
                # OSError covers SerialException; the others are what pyserial raises on a port closed
                # under it by another thread.
                log.warning("reader %s (%s) lost: %s", self.name, self.config.where(), exc)
            finally:
                with contextlib.suppress(OSError, ValueError):
                    port.close()
            if not self._stop.is_set():
                self._status(False)

    def _pump(self, port: Port) -> None:
        name = self.name
        if self.config.kind is ReaderKind.RDM6300:
            frames = FrameParser()
            debouncer = TagDebouncer(self.config.removal_gap_ms / 1000)
            # The debouncer lives only as long as the port: a held tag is forgotten when the port goes.
            while not self._stop.is_set():
                data = port.read(max(port.in_waiting, 1))
                now = self._clock()
                for tag in frames.feed(data):
                    for seen in debouncer.seen(tag, now):
                        self._emit_tag(seen, name)
                for seen in debouncer.poll(now):
                    self._emit_tag(seen, name)
        else:
            lines = LineParser(self.config.max_length)
            while not self._stop.is_set():
                data = port.read(max(port.in_waiting, 1))
                codes = lines.feed(data)
                now = self._clock()
                for code in codes:
                    self._emit(CardScan(name, code, now))
                while lines.rejected:
                    rejected = lines.rejected.popleft()
                    log.info("reader %s dropped a line (%s): %r", name, rejected.reason, rejected.preview)

    def _emit_tag(self, seen: TagEvent, name: str) -> None:
        if isinstance(seen, TagPlaced):
            self._emit(CardScan(name, seen.tag, seen.at))
        else:
            self._emit(CardRemoved(name, seen.tag, seen.at))


def open_readers(
    configs: Iterable[ReaderConfig], events: queue.Queue[Event], **options: Any
) -> list[CardReader]:
    """Start a `CardReader` for each config (options as for `CardReader`); close them in reverse order."""
    return [CardReader(config, events, **options).start() for config in configs]
