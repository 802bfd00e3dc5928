"""Render speed per layout and the cost of frames on the display bus. Prints numbers; asserts nothing.

    python bench/bench_render.py [--runs N] [--countdown S]

Render times: cold (every text cache emptied before each draw, fonts loaded: a screen seen for the first
time) and warm (the same screen again: the rasterised lines and the size search come from the caches).

Bus bytes are counted by driving the real luma.oled device classes over a counting fake bus (no
hardware). I²C time assumes 9 clocks per byte (8 bits + ACK) plus ~2 clocks for START/STOP per
message; the kernel's cost per call comes on top (bench/harness.py's `WireBus` adds 50 µs per ioctl,
which may carry several messages). The countdown compares luma's full-frame `ssd1306` with the changed-pages
`drivers.oled_pages.ssd1306` on the same frames: those the appliance draws (simulator, virtual clock)
during an S-second countdown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import luma.oled.device
from luma.core.framebuffer import diff_to_previous, full_frame
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306, ssd1322

from bench.harness import WireBus, on_wire, percentile
from firmware_host import render as render_module
from firmware_host import render_fonts, render_lines, render_screens, render_text
from firmware_host.config import resolve
from firmware_host.core.events import Button, Press, TextEntry
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen
from firmware_host.render import render
from firmware_host.shell import Outputs
from firmware_host.simulator import Simulator
from firmware_host.textscreen import frame
from tests.screens import PANEL_SIZES, REFERENCE_SCREENS

I2C_RATES = (100_000, 400_000)
SPI_RATE = 8_000_000


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    return statistics.median(samples), percentile(samples, 99), max(samples)


def clear_text_caches() -> None:
    """Empty the renderer's caches of rasterised lines, clipped texts and size searches (not the fonts)."""
    for module in (render_module, render_fonts, render_text, render_lines, render_screens):
        for name in dir(module):
            cached = getattr(module, name)
            if hasattr(cached, "cache_clear") and name != "font":
                cached.cache_clear()


def time_ms(fn: Callable[[], object], runs: int, *, cold: bool = False) -> tuple[float, float, float]:
    fn()  # load the fonts
    samples = []
    for _ in range(runs):
        if cold:
            clear_text_caches()
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
    print(f"Render time per layout ({runs} runs, ms): cold = text caches empty, warm = the same screen again")
    print(f"{'screen':<22}{'size':>9}{'cold p50':>10}{'p99':>7}{'max':>7}{'warm p50':>10}{'p99':>7}{'max':>7}"
          f"{'+text p50':>11}")
    for name, screen in REFERENCE_SCREENS.items():
        for size in PANEL_SIZES:
            cold = time_ms(lambda s=screen, z=size: render(s, z), runs, cold=True)
            warm = time_ms(lambda s=screen, z=size: render(s, z), runs)
            image = render(screen, size)
            t50 = time_ms(lambda i=image: frame(i, [1.0] * 10, None, "keys"), runs)[0]
            print(f"{name:<22}{size[0]:>5}×{size[1]:<3}{cold[0]:>10.2f}{cold[1]:>7.2f}{cold[2]:>7.2f}"
                  f"{warm[0]:>10.2f}{warm[1]:>7.2f}{warm[2]:>7.2f}{t50:>11.2f}")
    # the timer's steady state: a new second each frame (its size search and digits not cached yet)
    seconds = [f"{s // 60}:{s % 60:02d}" for s in range(180, 0, -1)]
    it = iter(seconds * (runs // len(seconds) + 2))
    tick = time_ms(lambda: render(BigScreen("Sanduhr", next(it)), (128, 64)), runs, cold=True)
    print(f"{'timer tick (new text)':<22}{128:>5}×{64:<3}{tick[0]:>10.2f}{tick[1]:>7.2f}{tick[2]:>7.2f}")


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
        p50, p99, _ = time_ms(lambda s=screen: render(s, (128, 64)), runs)
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


def countdown_frames(seconds: int) -> list[Any]:
    """The frames the appliance draws from START of a `seconds` countdown until its alarm (sim profile,
    virtual clock), the one on the glass before START first."""
    frames: list[Any] = []

    class Collecting(Simulator):
        def _observe(self, outputs: Outputs) -> Outputs:
            observed = super()._observe(outputs)

            def on_frame(screen: Any, image: Any) -> None:
                observed.on_frame(screen, image)
                frames.append(image)

            return replace(observed, on_frame=on_frame)

    with tempfile.TemporaryDirectory(prefix="wordtable-bench-") as scratch:
        sim = Collecting(resolve("sim", None, environ={}), Path(scratch))
        sim.send(TextEntry(f"{seconds // 60}:{seconds % 60:02d}", sim.clock.now))
        start = len(frames) - 1
        sim.send(Press(Button.START, sim.clock.now))
        sim.wait_until(sim.clock.now + seconds + 1)
        sim.close()
    return frames[start:]


def bench_countdown(seconds: int) -> None:
    frames = countdown_frames(seconds)
    print()
    print(f"A {seconds} s countdown on a 128×64 SSD1306 over I²C: {len(frames) - 1} frames after START, "
          "the same frames for both paths")
    print(f"{'path':<34}{'bytes/s':>9}{'msgs/s':>8}" + "".join(f"{f'wire ms/s @{r // 1000}k':>16}" for r in I2C_RATES)
          + f"{'share':>8}")
    results = {}
    for label, make in (("luma ssd1306 (full frames)", luma.oled.device.ssd1306),
                        ("changed pages (oled_pages)", None)):
        buses = {rate: WireBus(rate, sleep=False) for rate in I2C_RATES}
        for bus in buses.values():
            with on_wire(bus):
                if make is None:
                    from drivers.display import open_device

                    cfg = replace(resolve("default", None, environ={}).profile.display, driver="ssd1306")
                    device = open_device(cfg)
                else:
                    device = make(i2c(port=1, address=0x3C), width=128, height=64)
            device.display(frames[0])  # what is on the glass at START
            bus.reset()
            for image in frames[1:]:
                device.display(image)
        bus = buses[I2C_RATES[0]]
        results[label] = bus.bytes
        share = bus.bytes / results["luma ssd1306 (full frames)"] * 100
        wire = "".join(f"{b.wire_s / seconds * 1000:>16.1f}" for b in buses.values())
        print(f"{label:<34}{bus.bytes / seconds:>9.0f}{bus.transactions / seconds:>8.1f}{wire}{share:>7.1f}%")
        if make is None:  # the driver's whole-frame refresh comes on top, once every refresh_s without one
            refresh_s, last = cfg.refresh_s, buses[I2C_RATES[-1]]  # `device` is on the last bus
            last.reset()
            device.display(frames[-1], every_page=True)
            added = last.bytes * (seconds // refresh_s) if refresh_s else 0
            total = (results[label] + added) / results["luma ssd1306 (full frames)"] * 100
            print(f"{f'  + whole frame every {refresh_s} s':<34}{(results[label] + added) / seconds:>9.0f}"
                  f"{'':>8}{'':>32}{total:>7.1f}%")
    print("target: the changed pages ≤ 20 % of luma's full-frame bytes (the refresh is the panel's healing, "
          "set by display.refresh_s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--countdown", type=int, default=180, help="length of the countdown in seconds")
    args = parser.parse_args()
    bench_renders(args.runs)
    bench_poison(max(10, args.runs // 10))
    bench_bus()
    bench_countdown(args.countdown)


if __name__ == "__main__":
    main()
