"""SSD1306, SSD1309 and SH1106 panels that send only what changed: luma's own device classes (their init,
contrast, power and serial interface untouched) with a `display` that writes only the pages whose bytes
changed, each as its changed column span (the page and column window, then the data). On the SSD1306
family, neighbouring changed pages go out as one window (the union of their spans) when that is fewer
bytes than a window each: every window costs a command and a data transaction besides its data.

A full frame goes out when the panel's RAM is not known: the first frame, after `contrast`, `show` or
`hide`, after a write that failed half-way, and after `invalidate()` (the driver's periodic refresh and
its recovery after a bus error). The bytes of a full frame are those of luma's own `display`.

Addressing: the SSD1306/SSD1309 take a column and page window (horizontal addressing, which luma's init
selects); the SH1106 has page addressing only, so each span is "set page, set column" (with its column
offset, luma's `page_address_offset`), then the data.
"""

from __future__ import annotations

from typing import Any

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


def merged_windows(spans: list[tuple[int, int, int]]) -> list[Window]:
    """Windows covering the changed spans (page, first column, last column; pages ascending), each
    neighbouring span taken into the window before it when that sends fewer bytes than a window of its own."""
    windows: list[Window] = []
    for page, first, last in spans:
        if windows:
            p0, _, c0, c1 = windows[-1]
            merged = (p0, page, min(c0, first), max(c1, last))
            if _cost(merged) <= _cost(windows[-1]) + _cost((page, page, first, last)):
                windows[-1] = merged
                continue
        windows.append((page, page, first, last))
    return windows


def _cost(window: Window) -> int:
    p0, p1, c0, c1 = window
    return WINDOW_COST + (p1 - p0 + 1) * (c1 - c0 + 1)


def changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last column whose byte differs (inclusive); None when the page is unchanged."""
    if old == new:
        return None
    first = next(i for i in range(len(new)) if old[i] != new[i])
    last = next(i for i in range(len(new) - 1, first - 1, -1) if old[i] != new[i])
    return first, last


class _ChangedPages:
    """The `display` of a page-organised 1-bit panel. The class using it provides `_send_changes(pages,
    spans)` and `_send_full(pages)`; luma's device provides the rest."""

    _ram: list[bytes] | None = None  # what the panel holds, as far as we know (None: unknown)
    mode: str
    size: tuple[int, int]

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame goes out whole."""
        self._ram = None

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        pages = ram_pages(self.preprocess(image))
        known, self._ram = self._ram, None  # unknown until every byte is out (a failed write leaves it so)
        if known is None:
            self._send_full(pages)
        else:
            spans = [(page, *span) for page, (old, new) in enumerate(zip(known, pages, strict=True))
                     if (span := changed_span(old, new)) is not None]
            self._send_changes(pages, spans)
        self._ram = pages

    def contrast(self, level: int) -> None:
        super().contrast(level)
        self.invalidate()

    def show(self) -> None:
        super().show()
        self.invalidate()

    def hide(self) -> None:
        super().hide()
        self.invalidate()

    def _send_changes(self, pages: list[bytes], spans: list[tuple[int, int, int]]) -> None:
        raise NotImplementedError

    def _send_full(self, pages: list[bytes]) -> None:
        raise NotImplementedError


class _WindowAddressing(_ChangedPages):
    """SSD1306 family: a column and page window, filled in horizontal addressing mode."""

    _colstart: int
    _w: int

    def _send_changes(self, pages: list[bytes], spans: list[tuple[int, int, int]]) -> None:
        for window in merged_windows(spans):
            self._send_window(pages, window)

    def _send_full(self, pages: list[bytes]) -> None:
        self._send_window(pages, (0, len(pages) - 1, 0, self._w - 1))

    def _send_window(self, pages: list[bytes], window: Window) -> None:
        p0, p1, c0, c1 = window
        start = self._colstart
        self.command(COLUMN_WINDOW, start + c0, start + c1, PAGE_WINDOW, p0, p1)
        self.data(list(b"".join(pages[page][c0 : c1 + 1] for page in range(p0, p1 + 1))))


class ssd1306(_WindowAddressing, luma.oled.device.ssd1306):
    """luma's `ssd1306`, sending only the changed column span of each changed page."""


class ssd1309(_WindowAddressing, luma.oled.device.ssd1309):
    """luma's `ssd1309`, sending only the changed column span of each changed page."""


class sh1106(_ChangedPages, luma.oled.device.sh1106):
    """luma's `sh1106` (page addressing only), sending only the changed column span of each changed page."""

    _page_address_offset: int

    def _send_changes(self, pages: list[bytes], spans: list[tuple[int, int, int]]) -> None:
        for page, first, last in spans:
            self._send_span(page, first, pages[page][first : last + 1])

    def _send_full(self, pages: list[bytes]) -> None:
        for page, data in enumerate(pages):
            self._send_span(page, 0, data)

    def _send_span(self, page: int, column: int, data: bytes) -> None:
        at = self._page_address_offset + column
        self.command(SET_PAGE | page, at & 0x0F, 0x10 | at >> 4)
        self.data(list(data))


DEVICES: dict[str, Any] = {"ssd1306": ssd1306, "ssd1309": ssd1309, "sh1106": sh1106}
"""The panels that get the changed-pages path; every other driver is luma's own class."""
