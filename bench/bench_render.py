"""Render speed per layout and the cost of a frame on the display bus. Prints numbers; asserts nothing.

    python bench/bench_render.py [--runs N]

Bus bytes are counted by driving the real luma.oled device classes over a counting fake bus (no
hardware). I²C time assumes 9 clocks per byte (8 bits + ACK) plus ~2 clocks for START/STOP per
transaction; the kernel driver's gaps between transactions come on top.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from luma.core.framebuffer import diff_to_previous, full_frame
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306, ssd1322

from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen
from firmware_host.render import render
from firmware_host.textscreen import frame
from tests.screens import PANEL_SIZES, REFERENCE_SCREENS

I2C_RATES = (100_000, 400_000)
SPI_RATE = 8_000_000


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[98]


def time_ms(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    fn()  # warm the font caches
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return percentiles(samples)


class CountingSMBus:
    """An smbus stand-in that counts the bytes each transaction puts on the wire (address byte included)."""

    def __init__(self) -> None:
        self.bytes = 0
        self.transactions = 0

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        self.bytes += 2 + len(data)  # address+W, control byte, payload
        self.transactions += 1

    def i2c_rdwr(self, *messages: tuple[int, list[int]]) -> None:
        for _addr, payload in messages:
            self.bytes += 1 + len(payload)
            self.transactions += 1

    def reset(self) -> None:
        self.bytes = self.transactions = 0


def i2c_on(bus: CountingSMBus, large_writes: bool) -> i2c:
    """luma's i2c interface over `bus`; `large_writes` mimics its smbus2 mode (one i2c_rdwr per data call)."""
    serial = i2c(bus=bus, address=0x3C)
    if large_writes:
        serial._managed = True  # as when luma opens smbus2 itself
        serial._i2c_msg_write = lambda addr, payload: (addr, payload)
    return serial


def i2c_ms(nbytes: int, transactions: int, rate: int) -> float:
    return (9 * nbytes + 2 * transactions) / rate * 1000


class CountingSPI:
    """A luma serial interface for SPI panels counting command and data bytes."""

    def __init__(self) -> None:
        self.bytes = 0

    def command(self, *cmd: int) -> None:
        self.bytes += len(cmd)

    def data(self, data: Any) -> None:
        self.bytes += len(data)

    def cleanup(self) -> None:
        pass


def bench_renders(runs: int) -> None:
    print(f"Render time per layout ({runs} runs, ms)")
    print(f"{'screen':<22}{'size':>9}{'p50':>8}{'p99':>8}{'+text p50':>11}")
    for name, screen in REFERENCE_SCREENS.items():
        for size in PANEL_SIZES:
            p50, p99 = time_ms(lambda s=screen, z=size: render(s, z), runs)
            image = render(screen, size)
            t50, _ = time_ms(lambda i=image: frame(i, [1.0] * 10, None, "keys"), runs)
            print(f"{name:<22}{size[0]:>5}×{size[1]:<3}{p50:>8.2f}{p99:>8.2f}{t50:>11.2f}")
    # the timer's steady state: a new second, a new size search per distinct string
    seconds = [f"{s // 60}:{s % 60:02d}" for s in range(180, 0, -1)]
    it = iter(seconds * (runs // len(seconds) + 2))
    p50, p99 = time_ms(lambda: render(BigScreen("Sanduhr", next(it)), (128, 64)), runs)
    print(f"{'timer tick (new text)':<22}{128:>5}×{64:<3}{p50:>8.2f}{p99:>8.2f}")


def bench_poison(runs: int) -> None:
    """Texts the edge refuses, drawn anyway (a journal from before the edge checked them): the renderer
    cuts a text to what a panel can show before it measures."""
    print()
    print(f"Poison and huge texts, 128×64 ({runs} runs, ms)")
    word = "Q" * 1_000_000
    cases = {
        "1,000,000-char big value": BigScreen("Sanduhr", word),
        "1,000,000-char title": MessageScreen(word, ("x",)),
        "1,000,000-char message": MessageScreen("Quiddler", (word,)),
        "1,000,000-char list row": ListScreen("Spieler", (ListItem(word, word),)),
        "30,000-char word (11.7)": MessageScreen("Quiddler", ("Q" * 30_000,)),
        "line breaks (11.3)": MessageScreen("a\nb\rc\x1cd\x85e\u2029f", ("a\u2028b",), "x\ny"),
    }
    for name, screen in cases.items():
        p50, p99 = time_ms(lambda s=screen: render(s, (128, 64)), runs)
        print(f"{name:<28}{p50:>8.2f}{p99:>8.2f}")


def bench_bus() -> None:
    image = render(REFERENCE_SCREENS["timer_running"], (128, 64))
    print()
    print("One full 128×64 frame on I²C (1024 bytes of pixels)")
    header = f"{'panel / luma write mode':<34}{'bytes':>7}{'msgs':>6}"
    print(header + "".join(f"{f'ms @{rate // 1000} kHz':>13}" for rate in I2C_RATES))
    for make, label in ((ssd1306, "ssd1306"), (sh1106, "sh1106")):
        for large, mode in ((True, "smbus2 (i2c_rdwr)"), (False, "32-byte SMBus blocks")):
            bus = CountingSMBus()
            device = make(i2c_on(bus, large), width=128, height=64)
            bus.reset()
            device.display(image.copy())
            times = "".join(f"{i2c_ms(bus.bytes, bus.transactions, rate):>13.1f}" for rate in I2C_RATES)
            print(f"{label + ', ' + mode:<34}{bus.bytes:>7}{bus.transactions:>6}{times}")
    print()
    print(f"256×64 SSD1322 on SPI at {SPI_RATE // 1_000_000} MHz (4-bit greyscale: 2 pixels per byte)")
    before = render(BigScreen("Sanduhr", "0:42"), (256, 64))
    after = render(BigScreen("Sanduhr", "0:41"), (256, 64))
    for framebuffer, label in ((full_frame(), "full frame"), (diff_to_previous(), "changed region only")):
        spi = CountingSPI()
        panel = ssd1322(spi, width=256, height=64, mode="1", framebuffer=framebuffer)
        panel.display(before)
        spi.bytes = 0
        panel.display(after)
        print(f"  0:42 → 0:41, {label:<22}{spi.bytes:>6} bytes{spi.bytes * 8 / SPI_RATE * 1000:>8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    bench_renders(args.runs)
    bench_poison(max(10, args.runs // 10))
    bench_bus()


if __name__ == "__main__":
    main()
