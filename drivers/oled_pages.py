"""SSD1306, SSD1309 and SH1106 panels that send only what changed: luma's own device classes (their init,
contrast, power and serial interface untouched) with a `display` that writes only the pages whose bytes
changed, each as its changed column runs (the page and column window, then the data): a page's changes
that unchanged columns part go as runs of their own when those columns cost more than a window
(`changed_runs`: two digits of a clock, not the colon between them). On the SSD1306 family, runs of
neighbouring pages go out as one window (the union of their columns) when that is fewer bytes than a
window each: every window costs a command and a data transaction besides its data.

The data goes out in pieces of whole page rows, at most PIECE_BYTES each (a row is at most a page wide);
the pieces of small windows share a transfer up to the same size. The panel's RAM is tracked per page as
each transfer lands, so a write can stop between two transfers when a newer frame waits (`display(image,
stale)`): the bus is never held longer than one piece, and the newer frame sends what differs from what the
panel then holds. On I²C a transfer is one combined write (`CombinedI2C`): its window commands and data go
in one kernel call, each message with its address and control byte.

A page goes out whole when its RAM is not known: every page on the first frame, after `contrast`, `show`
or `hide`, after a write that failed (which leaves every page unknown), and after `invalidate()` (the
driver's recovery after a bus error). The driver's periodic refresh sends every page of the frame on the
glass again (`every_page`) without forgetting what the panel holds, so a newer frame that stops it has
only its own changes to send.

Addressing: the SSD1306/SSD1309 take a column and page window (horizontal addressing, which luma's init
selects); the SH1106 has page addressing only, so each span is "set page, set column" (with its column
offset, luma's `page_address_offset`), then the data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import luma.core.interface.serial
import luma.oled.device
from PIL import Image

SET_PAGE = 0xB0  # SH1106 (and page mode): 0xB0 | page
COLUMN_WINDOW = 0x21  # SSD1306: column start, end
PAGE_WINDOW = 0x22  # SSD1306: page start, end


def ram_pages(image: Image.Image) -> list[bytes]:
    """The panel RAM a 1-bit image in the panel's own orientation stands for: one `bytes` per 8-row page,
    a byte per column, its lowest bit the page's top row."""
    height = image.size[1]
    count = height // 8
    # Turned a quarter clockwise, row x of the image is column x bottom-up, packed MSB first: byte k of
    # each row is page count-1-k of that column, top row in bit 0.
    rows = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [rows[count - 1 - page :: count] for page in range(count)]


Window = tuple[int, int, int, int]  # first page, last page, first column, last column (inclusive)
WINDOW_COST = (2 + 6) + 2  # wire bytes of a window besides its data: the command and the data transaction
PIECE_BYTES = 128  # the most data one transfer carries (at 100 kHz: 11.6 ms the bus is not free)
PIECE_COST = 2  # wire bytes of each further piece of a window: its address and control byte

COMMAND, DATA = False, True
Message = tuple[bool, bytes]  # (DATA or COMMAND, the bytes): one write, its control byte added on the wire


class CombinedI2C(luma.core.interface.serial.i2c):
    """luma's I²C interface (smbus2) that also takes several command and data writes as one combined
    transfer (`transfer`): a single I2C_RDWR call (8 pages need at most 16 messages; the kernel takes 42),
    so a piece of a frame enters the kernel once instead of twice per window. The Pi's i2c-bcm2835 (and
    the Pi 5's designware) driver puts the messages on the wire back to back, joined by repeated STARTs,
    which the panel takes as the START of a new write: the bytes on the wire are the same. In luma's
    SMBus mode (a bus handed in) the writes go one by one."""

    def transfer(self, messages: Sequence[Message]) -> None:
        if not self._managed:
            _send_each(self, messages)
            return
        mode = {COMMAND: self._cmd_mode, DATA: self._data_mode}
        self._bus.i2c_rdwr(*(self._i2c_msg_write(self._addr, [mode[kind], *payload]) for kind, payload in messages))


def _send(serial: Any, messages: Sequence[Message]) -> None:
    """`messages` through luma's serial interface: as one transfer where it can (`CombinedI2C`)."""
    if isinstance(serial, CombinedI2C):
        serial.transfer(messages)
    else:
        _send_each(serial, messages)


def _send_each(serial: Any, messages: Sequence[Message]) -> None:
    for kind, payload in messages:
        if kind == DATA:
            serial.data(list(payload))
        else:
            serial.command(*payload)


def merged_windows(runs: list[tuple[int, int, int]]) -> list[Window]:
    """Windows covering the changed runs (page, first column, last column; pages ascending, then columns):
    the fewer bytes of two plans, each joining what it places into the window that saves most bytes to
    join it (one that ends on its page or the page above) or starting a window: every run on its own, or
    each page's runs as one span (its first to its last changed column). A tie goes to the spans."""
    spans: dict[int, tuple[int, int]] = {}
    for page, first, last in runs:
        spans[page] = (spans.get(page, (first, last))[0], last)
    plans = (_joined([(page, *span) for page, span in spans.items()]), _joined(runs))
    return min(plans, key=lambda windows: sum(map(_cost, windows)))


def _joined(runs: list[tuple[int, int, int]]) -> list[Window]:
    """One plan of `merged_windows`: `runs` placed in order, each joining a window or starting one."""
    windows: list[Window] = []
    for page, first, last in runs:
        run = (page, page, first, last)
        best, saved = -1, -1
        for i, (p0, p1, c0, c1) in enumerate(windows):
            if p1 >= page - 1:
                gain = _cost(windows[i]) + _cost(run) - _cost((p0, page, min(c0, first), max(c1, last)))
                if gain > saved:
                    best, saved = i, gain
        if saved >= 0:
            p0, _, c0, c1 = windows[best]
            windows[best] = (p0, page, min(c0, first), max(c1, last))
        else:
            windows.append(run)
    return windows


def _cost(window: Window) -> int:
    p0, p1, c0, c1 = window
    width = c1 - c0 + 1
    pieces = -(-(p1 - p0 + 1) // max(1, PIECE_BYTES // width))
    return WINDOW_COST + (pieces - 1) * PIECE_COST + (p1 - p0 + 1) * width


def changed_runs(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """The differing columns as runs (first, last; inclusive), ascending: a run starts and ends on a
    differing column, and two runs are parted by more than `gap` unchanged columns. [] when unchanged."""
    if old == new:
        return []
    differ = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    return [(match.start(), match.end() - 1) for match in _runs(gap).finditer(differ)]


@cache
def _runs(gap: int) -> re.Pattern[bytes]:
    return re.compile(rb"[^\x00](?:\x00{0,%d}[^\x00])*" % gap)


class _ChangedPages:
    """The `display` of a page-organised 1-bit panel. The class using it provides `_windows(runs)` and
    `_piece(window, first_page, last_page, pages)`; luma's device provides the rest."""

    stops_when_stale = True  # `display` takes `stale` (drivers.display asks for this)
    RUN_GAP = WINDOW_COST  # unchanged columns worth sending rather than parting a page's runs
    _ram: list[bytes | None] | None = None  # what the panel holds per page, as far as we know (None: unknown)
    mode: str
    size: tuple[int, int]
    _w: int

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame goes out whole."""
        self._ram = None

    def display(self, image: Image.Image, stale: Callable[[], bool] | None = None, *, every_page: bool = False) -> bool:
        """Put `image` on the panel: the changed span of every changed page (every page whose RAM is not
        known, or every page with `every_page`: whole). With `stale`, asked before each transfer of at most
        PIECE_BYTES of data: when it says True (a newer frame waits) the write stops there and returns False;
        what went out is known, so the next frame sends what is still missing (a refresh, `every_page` of
        the frame on the glass, stopped part-way leaves nothing missing). True when all of `image` is on
        the panel. Bus errors are raised, and leave the panel's RAM unknown."""
        assert image.mode == self.mode
        assert image.size == self.size
        pages = ram_pages(self.preprocess(image))
        known, self._ram = self._ram or [None] * len(pages), None  # unknown while a write is out
        whole = [(0, self._w - 1)]
        runs = [(page, *run) for page, (old, new) in enumerate(zip(known, pages, strict=True))
                for run in (whole if old is None or every_page else changed_runs(old, new, self.RUN_GAP))]
        transfer: list[Message] = []  # the messages of the next transfer
        landing: list[tuple[int, int, int, int]] = []  # the page rows they write: (first, last, c0, c1)
        data = 0  # data bytes in `transfer`

        def send() -> None:
            _send(self._serial_interface, transfer)
            for first, last, c0, c1 in landing:
                for page in range(first, last + 1):
                    held = known[page]
                    known[page] = pages[page] if held is None else held[:c0] + pages[page][c0 : c1 + 1] + held[c1 + 1 :]
            transfer.clear()
            landing.clear()

        for window in self._windows(runs):
            p0, p1, c0, c1 = window
            rows = max(1, PIECE_BYTES // (c1 - c0 + 1))  # page rows per piece
            for first in range(p0, p1 + 1, rows):
                last = min(p1, first + rows - 1)
                size = (last - first + 1) * (c1 - c0 + 1)
                if transfer and data + size > PIECE_BYTES:
                    send()
                if not transfer:
                    if stale is not None and stale():
                        self._ram = known
                        return False
                    data = 0
                transfer += self._piece(window, first, last, pages)
                landing.append((first, last, c0, c1))
                data += size
        if transfer:
            send()
        self._ram = known
        return True

    def contrast(self, level: int) -> None:
        super().contrast(level)  # type: ignore[misc]
        self.invalidate()

    def show(self) -> None:
        super().show()  # type: ignore[misc]
        self.invalidate()

    def hide(self) -> None:
        super().hide()  # type: ignore[misc]
        self.invalidate()

    def _windows(self, runs: list[tuple[int, int, int]]) -> list[Window]:
        """The windows that write the changed runs (page, first column, last column)."""
        raise NotImplementedError

    def _piece(self, window: Window, first: int, last: int, pages: list[bytes]) -> list[Message]:
        """The messages that write page rows `first`..`last` of `window`."""
        raise NotImplementedError


class _WindowAddressing(_ChangedPages):
    """SSD1306 family: a column and page window, filled in horizontal addressing mode; its rows go out
    one piece after another, the window set once."""

    _colstart: int

    def _windows(self, runs: list[tuple[int, int, int]]) -> list[Window]:
        return merged_windows(runs)

    def _piece(self, window: Window, first: int, last: int, pages: list[bytes]) -> list[Message]:
        p0, p1, c0, c1 = window
        rows = (DATA, b"".join(pages[page][c0 : c1 + 1] for page in range(first, last + 1)))
        if first > p0:
            return [rows]
        start = self._colstart
        return [(COMMAND, bytes((COLUMN_WINDOW, start + c0, start + c1, PAGE_WINDOW, p0, p1))), rows]


class ssd1306(_WindowAddressing, luma.oled.device.ssd1306):
    """luma's `ssd1306`, sending only the changed column runs of each changed page."""


class ssd1309(_WindowAddressing, luma.oled.device.ssd1309):
    """luma's `ssd1309`, sending only the changed column runs of each changed page."""


class sh1106(_ChangedPages, luma.oled.device.sh1106):
    """luma's `sh1106` (page addressing only), sending only the changed column runs of each changed page."""

    _page_address_offset: int
    RUN_GAP = (2 + 3) + 2  # a run's "set page, set column" command and its data transaction

    def _windows(self, runs: list[tuple[int, int, int]]) -> list[Window]:
        return [(page, page, first, last) for page, first, last in runs]

    def _piece(self, window: Window, first: int, last: int, pages: list[bytes]) -> list[Message]:
        _, _, c0, c1 = window
        at = self._page_address_offset + c0
        return [message for page in range(first, last + 1)
                for message in ((COMMAND, bytes((SET_PAGE | page, at & 0x0F, 0x10 | at >> 4))),
                                (DATA, pages[page][c0 : c1 + 1]))]


DEVICES: dict[str, Any] = {"ssd1306": ssd1306, "ssd1309": ssd1309, "sh1106": sh1106}
"""The panels that get the changed-pages path; every other driver is luma's own class."""
