"""A fake OLED controller that rebuilds its RAM from the bytes luma sends, and a fake smbus in front of it.

`FakePanel("ssd1306")` / `FakePanel("sh1106")` is a luma serial interface stand-in (`command`, `data`,
`cleanup`) that applies each command the way the controller does: the SSD1306's addressing modes
(horizontal, page) with its column and page windows, the SH1106's page addressing with its 132-column RAM.
`visible()` is the picture the glass shows (the RAM window the panel maps, as a 1-bit image).

`FakeSMBus(panel)` stands in for smbus2's `SMBus` under luma's real `i2c` interface: it splits each I²C
write into the control byte (0x00 commands, 0x40 data) and the payload, hands them to the panel and counts
what went over the wire (address byte included), and the calls (one ioctl each: a combined `i2c_rdwr`
of several messages is one call). `on_write(nbytes)` is called after every transaction
(the benchmarks' wire timing hooks in there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

COMMAND, DATA = 0x00, 0x40

# Commands that take argument bytes after them: opcode -> how many.
SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2,
                0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
HORIZONTAL, VERTICAL, PAGE = 0, 1, 2


class FakePanel:
    """The controller's RAM and address pointers, fed by luma's `command` and `data` calls."""

    def __init__(self, kind: str, *, width: int = 128, height: int = 64, column_offset: int | None = None) -> None:
        if kind not in ("ssd1306", "sh1106"):
            raise ValueError(kind)
        self.kind = kind
        self.columns = 132 if kind == "sh1106" else 128
        self.width, self.height = width, height
        self.column_offset = (2 if kind == "sh1106" else 0) if column_offset is None else column_offset
        self.ram = [bytearray(self.columns) for _ in range(8)]
        self.mode = PAGE if kind == "sh1106" else HORIZONTAL  # SSD1306 resets to page mode; luma sets 0
        self.col = self.page = 0
        self.col_window = (0, self.columns - 1)
        self.page_window = (0, 7)
        self.pending: list[int] = []  # a command waiting for its argument bytes
        self.commands = 0
        self.data_bytes = 0
        self.errors: list[str] = []  # writes the controller could not place
        self.on = False
        self.contrast: int | None = None

    # --- the serial interface luma talks to ------------------------------------------------------------

    def command(self, *cmd: int) -> None:
        args = SH1106_ARGS if self.kind == "sh1106" else SSD1306_ARGS
        for byte in cmd:
            self.commands += 1
            self.pending.append(byte)
            if len(self.pending) > args.get(self.pending[0], 0):
                self._apply(self.pending)
                self.pending = []

    def data(self, data: Any) -> None:
        if self.pending:
            self.errors.append(f"data while command 0x{self.pending[0]:02X} waits for its arguments")
        for byte in data:
            self._write(int(byte))

    def cleanup(self) -> None:
        pass

    # --- the controller ---------------------------------------------------------------------------------

    def _apply(self, cmd: list[int]) -> None:
        op = cmd[0]
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif self.kind == "ssd1306" and op == 0x20:
            self.mode = cmd[1] & 0x03
        elif self.kind == "ssd1306" and op == 0x21:
            self.col_window = (cmd[1] & 0x7F, cmd[2] & 0x7F)
            self.col = self.col_window[0]
        elif self.kind == "ssd1306" and op == 0x22:
            self.page_window = (cmd[1] & 0x07, cmd[2] & 0x07)
            self.page = self.page_window[0]

    def _write(self, byte: int) -> None:
        self.data_bytes += 1
        if self.col >= self.columns:
            self.errors.append(f"byte past the last column (page {self.page})")
            return
        self.ram[self.page][self.col] = byte
        if self.kind == "sh1106" or self.mode == PAGE:
            self.col += 1  # page addressing: the column moves on, the page stays
            if self.kind == "ssd1306" and self.col > self.col_window[1]:
                self.col = self.col_window[0]
        elif self.mode == HORIZONTAL:
            self.col += 1
            if self.col > self.col_window[1]:
                self.col = self.col_window[0]
                self.page = self.page + 1 if self.page < self.page_window[1] else self.page_window[0]
        else:
            self.errors.append("vertical addressing is not modelled")

    def visible(self) -> Image.Image:
        """What the glass shows: the RAM columns the panel maps, as a 1-bit image (white = lit)."""
        image = Image.new("1", (self.width, self.height))
        pixels = image.load()
        assert pixels is not None
        for y in range(self.height):
            row = self.ram[y // 8]
            bit = 1 << (y % 8)
            for x in range(self.width):
                if row[self.column_offset + x] & bit:
                    pixels[x, y] = 255
        return image


class FakeSMBus:
    """smbus2's `SMBus` as luma's `i2c` uses it (`write_i2c_block_data`, `i2c_rdwr` with `i2c_msg`s),
    in front of a `FakePanel`. Counts wire bytes (address byte and control byte included) and transactions."""

    def __init__(self, panel: FakePanel, address: int = 0x3C, on_write: Callable[[int], None] | None = None) -> None:
        self.panel = panel
        self.address = address
        self.on_write = on_write
        self.bytes = 0
        self.transactions = 0  # messages
        self.calls = 0  # write_i2c_block_data and i2c_rdwr calls
        self.fail: Callable[[], OSError | None] = lambda: None  # an error to raise instead of writing

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        self.calls += 1
        self._transfer(addr, [register, *data])

    def i2c_rdwr(self, *messages: Any) -> None:
        self.calls += 1
        for message in messages:
            self._transfer(message.addr, list(message))

    def close(self) -> None:
        pass

    def _transfer(self, addr: int, payload: list[int]) -> None:
        error = self.fail()
        if error is not None:
            raise error
        assert addr == self.address, f"write to 0x{addr:02X}, the panel is at 0x{self.address:02X}"
        control, body = payload[0], payload[1:]
        if control == COMMAND:
            self.panel.command(*body)
        elif control == DATA:
            self.panel.data(body)
        else:
            self.panel.errors.append(f"unknown control byte 0x{control:02X}")
        self.bytes += 1 + len(payload)
        self.transactions += 1
        if self.on_write is not None:
            self.on_write(1 + len(payload))


def panel_image_matches(panel: FakePanel, image: Image.Image) -> bool:
    return panel.visible().tobytes() == image.convert("1").tobytes()


def full_frame_bytes(width: int = 128, height: int = 64) -> int:
    """Wire bytes of a whole frame from `drivers.oled_pages` on the SSD1306 family: the window command
    (address, control byte, 6 command bytes), then one transaction (address, control byte, data) per piece
    of whole page rows."""
    from drivers.oled_pages import PIECE_BYTES

    pages = height // 8
    pieces = -(-pages // max(1, PIECE_BYTES // width))
    return (2 + 6) + pieces * 2 + width * pages
