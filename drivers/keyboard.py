"""Keyboards and keyboard-mode barcode scanners on /dev/input, read in one thread.

One thread waits on every open device with a selector; once a second (`poll_s`) it asks `find` which
devices there are, opens the new ones and lets go of those gone — a keyboard plugged in, or pulled out,
mid-game is noticed within that second (no udev monitor: a directory listing a second costs nothing).
Each device is opened read-only and grabbed (`EVIOCGRAB`): its keys reach only this program, never the
console's login prompt or another program; closing the device (the service stopping) lets it go.

A keyboard's keys go through its `KeyDecoder` into the table's one `LineEditor` (several keyboards
type into the same line) and come out as `Typing`, `TextEntry`, `Press`/`LongPress` events, a run of
`Typing`s coalesced to the last. A keyboard pulled out mid-word leaves its line as it was. A device
`find` names as a reader (a `[[readers]]` entry of kind "hid") is a scanner: its lines (US layout, as
scanners ship) are `CardScan`s of that reader, never text; `ReaderStatus` tells when it comes and goes.

Everything is injected: `find` (which paths are keyboards, which readers), `line` (how a line becomes a
`TextEntry`: `core.text_field.typed`), `opener` (os.open by default; tests hand in a pipe), `clock` (event
times). `system_finder` is the board's `find`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import selectors
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from drivers.input_event import EVIOCGRAB, EventParser, has_keys
from drivers.keymap import KEY_A, KEY_ENTER, KEY_SPACE, KEY_Z, US, Keys
from drivers.keys import KeyDecoder, LineEditor, ScanLine, coalesce
from drivers.reader_config import ReaderConfig
from firmware_host.core.events import CardScan, Event, ReaderStatus, TextEntry

log = logging.getLogger(__name__)

Emit = Callable[[Event], None]
KEYBOARD_KEYS = (KEY_A, KEY_Z, KEY_ENTER, KEY_SPACE)  # what makes an input device a keyboard (not a power key)


@dataclass(frozen=True, slots=True)
class Found:
    """An input device: its path, and the reader it is (None: a keyboard)."""

    path: str
    reader: ReaderConfig | None = None


Finder = Callable[[], Iterable[Found]]


def _open_device(path: str) -> int:
    return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)


@dataclass
class _Device:
    path: str
    fd: int
    reader: ReaderConfig | None
    decoder: KeyDecoder
    parser: EventParser = field(default_factory=EventParser)
    scan: ScanLine | None = None


class InputDevices:
    """The keyboards and keyboard-mode scanners `find` names. `start()` runs the thread; `close()` stops
    it and lets every device go (idempotent)."""

    def __init__(
        self,
        emit: Emit,
        *,
        find: Finder,
        layout: Keys,
        line: Callable[[str, float], TextEntry],
        readers: Sequence[ReaderConfig] = (),
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[str], int] = _open_device,
        grab: bool = True,
        poll_s: float = 1.0,
    ) -> None:
        self._emit, self._find, self._layout, self._clock = emit, find, layout, clock
        self._readers = tuple(readers)
        self._opener, self._grab, self._poll_s = opener, grab, poll_s
        self._devices: dict[str, _Device] = {}
        self._refused: set[str] = set()  # paths that could not be opened (said once in the log)
        self._present: dict[str, bool] = {}
        self.editor = LineEditor(line)
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.scans = 0  # how many times `find` was asked (tests wait on it)

    @property
    def open_paths(self) -> list[str]:
        return sorted(self._devices)

    def start(self) -> InputDevices:
        if self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name="input-devices", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        if self._stop.is_set() and self._thread is None:
            return
        self._stop.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        for device in list(self._devices.values()):
            self._let_go(device, gone=False)
        self._selector.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> InputDevices:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the thread ---

    def _run(self) -> None:
        next_scan = 0.0
        while not self._stop.is_set():
            if time.monotonic() >= next_scan:
                self._scan()
                next_scan = time.monotonic() + self._poll_s
            for key, _ in self._selector.select(max(0.0, next_scan - time.monotonic())):
                if key.data is None:
                    with contextlib.suppress(OSError):
                        os.read(self._wake_r, 64)
                    continue
                self._read(key.data)

    def _scan(self) -> None:
        try:
            found = {item.path: item for item in self._find()}
        except OSError as exc:
            log.warning("input devices: cannot look for keyboards: %s", exc)
            return
        self.scans += 1
        for path, device in list(self._devices.items()):
            if path not in found:
                self._let_go(device, gone=True)
        for path, item in found.items():
            if path not in self._devices:
                self._take(item)
        for reader in self._readers:
            present = any(d.reader == reader for d in self._devices.values())
            self._status(reader, present)

    def _take(self, item: Found) -> None:
        try:
            fd = self._opener(item.path)
        except OSError as exc:
            if item.path not in self._refused:
                self._refused.add(item.path)
                log.warning("input device %s cannot be opened: %s", item.path, exc)
            return
        self._refused.discard(item.path)
        grabbed = self._grab and _grab(fd, item.path)
        layout = US if item.reader is not None else self._layout
        device = _Device(item.path, fd, item.reader, KeyDecoder(layout))
        if item.reader is not None:
            device.scan = ScanLine(item.reader.max_length)
        self._devices[item.path] = device
        self._selector.register(fd, selectors.EVENT_READ, device)
        what = f"scanner of reader {item.reader.name}" if item.reader else "keyboard"
        log.info("%s at %s%s", what, item.path, " (grabbed)" if grabbed else "")

    def _let_go(self, device: _Device, *, gone: bool) -> None:
        self._devices.pop(device.path, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(device.fd)
        with contextlib.suppress(OSError):
            os.close(device.fd)  # closing lets go of the grab
        if gone:
            log.info("input device %s gone", device.path)
            if device.reader is not None:
                self._status(device.reader, False)

    def _status(self, reader: ReaderConfig, present: bool) -> None:
        if self._present.get(reader.name) is not present:
            self._present[reader.name] = present
            self._emit(ReaderStatus(reader.name, present, self._clock()))

    def _read(self, device: _Device) -> None:
        try:
            data = os.read(device.fd, 64 * device.parser.size)
        except BlockingIOError:
            return
        except OSError as exc:  # ENODEV: the device was pulled out
            log.debug("input device %s: %s", device.path, exc)
            data = b""
        if not data:
            self._let_go(device, gone=True)
            return
        events: list[Event] = []
        now = self._clock()
        for raw in device.parser.feed(data):
            action = device.decoder.feed(raw)
            if action is None:
                continue
            if device.scan is not None and device.reader is not None:
                code = device.scan.apply(action)
                if code is not None:
                    events.append(CardScan(device.reader.name, code, now))
            else:
                events += self.editor.apply(action, now)
        for event in coalesce(events):
            self._emit(event)


def _grab(fd: int, path: str) -> bool:
    """Grab the device for this program alone; False (logged) when it cannot be grabbed — a pipe
    standing in for a device, or another program holding it."""
    try:
        fcntl.ioctl(fd, EVIOCGRAB, 1)
    except OSError as exc:
        level = logging.DEBUG if exc.errno in (errno.ENOTTY, errno.EINVAL) else logging.WARNING
        log.log(level, "input device %s not grabbed: %s", path, exc)
        return False
    return True


def _text(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def _usb_id(vendor: str, product: str) -> tuple[int, int] | None:
    try:
        return int(vendor, 16), int(product, 16)
    except ValueError:
        return None


def system_finder(
    readers: Sequence[ReaderConfig],
    *,
    devices: Sequence[str] = (),
    keyboards: bool = True,
    scan_all: bool = True,
    input_dir: Path = Path("/dev/input"),
    sys_dir: Path = Path("/sys/class/input"),
) -> Finder:
    """The board's `find`: the readers (by `port`, a path such as /dev/input/by-id/…-event-kbd, or by
    `usb` VID:PID from sysfs), then the keyboards — the `devices` listed, or every /dev/input/eventN
    whose keys include A, Z, Enter and Space (a power button's device has none of them). A device is a
    reader or a keyboard, never both. `scan_all` False (a mock board, the simulator): only the paths
    given, nothing of the machine's own devices is looked at. `keyboards` False: only the readers."""

    def find() -> list[Found]:
        found: dict[str, Found] = {}
        events = sorted(input_dir.glob("event*")) if scan_all else []
        for reader in readers:
            if reader.port is not None and os.path.exists(reader.port):
                found[os.path.realpath(reader.port)] = Found(reader.port, reader)
            elif reader.usb is not None:
                for node in events:
                    ids = sys_dir / node.name / "device" / "id"
                    if _usb_id(_text(ids / "vendor"), _text(ids / "product")) == reader.usb:
                        found[os.path.realpath(node)] = Found(str(node), reader)
        if keyboards:
            listed = [Path(p) for p in devices if os.path.exists(p)]
            candidates = listed if devices else [
                node for node in events
                if has_keys(_text(sys_dir / node.name / "device" / "capabilities" / "key"), KEYBOARD_KEYS)
            ] if scan_all else []
            for node in candidates:
                real = os.path.realpath(node)
                if real not in found:
                    found[real] = Found(str(node))
        return list(found.values())

    return find
