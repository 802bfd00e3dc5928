"""The OLED over luma: the device chosen by the profile (ssd1306, sh1106, ssd1309 on I2C or SPI, sending
only the changed pages: `drivers.oled_pages`; ssd1322, ssd1362 256×64 on SPI with luma's own region
handling; luma's `dummy` for the simulator and tests). luma is imported only when a device is opened.
Errors opening it (no /dev/i2c-1, nothing at the address) become a `DisplayError` naming the bus and address.

`LumaDisplay` puts frames on a panel on a bus from its own writer thread, so the shell never waits for the
wire: `show()` hands the frame over and returns; a newer frame replaces one not yet sent, and on the
changed-pages panels it also stops one being sent at the next piece (`oled_pages`: the bus is never held
for a frame that is already old, so a button's frame waits at most one piece, not a whole frame). A write that
fails (a loose wire: Errno 121/5) is logged once, retried with backoff (the newest frame), and the first
good write after it is a full frame; the timer, the buzzer and the buttons carry on meanwhile. Every
`refresh_s` seconds the frame on the glass is sent whole again, so a glitched panel heals.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from drivers.errors import HardwareError

if TYPE_CHECKING:
    from PIL import Image

log = logging.getLogger(__name__)


class DisplayError(HardwareError):
    pass


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """The panel and its bus, as the board profile's `[display]` names them (`hw.profile` fills it)."""

    driver: str
    interface: str  # i2c | spi | none
    port: int
    address: int  # I2C address (unused for SPI / dummy)
    width: int
    height: int
    rotate: int
    spi_device: int  # SPI chip select 0 / 1
    dc_pin: int | None  # SPI only
    reset_pin: int | None  # SPI only
    refresh_s: int = 30  # send the frame whole again after this long (0: never)


def describe(cfg: DisplayConfig) -> str:
    """Where the display is, for messages: 'ssd1306 on I2C bus 1 at address 0x3C'."""
    if cfg.interface == "i2c":
        return f"{cfg.driver} on I2C bus {cfg.port} at address 0x{cfg.address:02X}"
    if cfg.interface == "spi":
        pins = f"DC GPIO {cfg.dc_pin}, RST GPIO {cfg.reset_pin}"
        return f"{cfg.driver} on SPI {cfg.port}.{cfg.spi_device} ({pins})"
    return f"{cfg.driver} display"


def _hint(cfg: DisplayConfig, exc: BaseException) -> str:
    if cfg.interface == "i2c":
        if isinstance(exc, OSError) and exc.errno in (5, 6, 121):
            return f"nothing answers there: check the wiring and the address (i2cdetect -y {cfg.port})"
        return "is I2C enabled (dtparam=i2c_arm=on) and the user in group i2c?"
    if cfg.interface == "spi":
        return "is SPI enabled (dtparam=spi=on) and the user in groups spi and gpio?"
    return ""


def _error(cfg: DisplayConfig, exc: BaseException) -> DisplayError:
    hint = _hint(cfg, exc)
    return DisplayError(f"display {describe(cfg)}: {exc}" + (f" — {hint}" if hint else ""))


def open_device(cfg: DisplayConfig) -> Any:
    """Open the luma device the profile describes. Raises DisplayError."""
    try:
        if cfg.driver == "dummy":
            from luma.core.device import dummy

            return dummy(width=cfg.width, height=cfg.height, rotate=cfg.rotate, mode="1")
        import luma.oled.device
        from luma.core.interface import serial

        from drivers import oled_pages

        if cfg.interface == "i2c":
            bus: Any = oled_pages.CombinedI2C(port=cfg.port, address=cfg.address)
        else:
            bus = serial.spi(port=cfg.port, device=cfg.spi_device, gpio_DC=cfg.dc_pin, gpio_RST=cfg.reset_pin)
        make = oled_pages.DEVICES.get(cfg.driver) or getattr(luma.oled.device, cfg.driver)
        return make(bus, width=cfg.width, height=cfg.height, rotate=cfg.rotate)
    except (OSError, ImportError, RuntimeError, ValueError) as exc:
        raise _error(cfg, exc) from exc
    except Exception as exc:  # luma.core.error.Error and its kin
        if type(exc).__module__.startswith("luma."):
            raise _error(cfg, exc) from exc
        raise


@dataclass(frozen=True, slots=True)
class Backoff:
    """How long the writer waits before retrying a failed write: `first_s`, doubling up to `max_s`."""

    first_s: float = 0.05
    max_s: float = 2.0

    def delay(self, failures: int) -> float:
        return min(self.max_s, self.first_s * 2 ** max(0, failures - 1))


Written = Literal["whole", "stopped", ""]
"""How a frame went to the device: all of it, stopped part-way for a newer frame, or not at all ("": failed)."""


class LumaDisplay:
    """`Display` over a luma device. `cfg` names the panel in messages and sets the refresh; a panel on a
    bus (`cfg.interface` i2c or spi) is written from a writer thread, any other device (luma's `dummy`)
    in the caller. `refresh_s` overrides the profile's; `clock` and `backoff` are injectable for tests."""

    def __init__(
        self,
        device: Any,
        cfg: DisplayConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff = Backoff(),
        refresh_s: float | None = None,
    ) -> None:
        self._device = device
        self._cfg = cfg
        self._clock = clock
        self._backoff = backoff
        if refresh_s is None:
            refresh_s = cfg.refresh_s if cfg is not None else 0
        self._refresh_s = float(refresh_s) if refresh_s > 0 else None
        self._closed = False
        self._cond = threading.Condition()
        self._pending: Image.Image | None = None  # the newest frame not yet on the glass
        self._controls: list[tuple[str, tuple[int, ...]]] = []  # contrast/show/hide not yet sent, in order
        self._shown: Image.Image | None = None  # the last frame written (what the refresh sends again)
        self._busy = False
        self._failures = 0  # failed writes in a row
        self._retry_at = 0.0
        self._refresh_at = float("inf")
        self.writes = 0  # frames written, full and partial
        self._thread: threading.Thread | None = None
        if cfg is not None and cfg.interface in ("i2c", "spi"):
            self._thread = threading.Thread(target=self._run, name="wordtable-display", daemon=True)
            self._thread.start()

    @property
    def device(self) -> Any:
        return self._device

    @property
    def size(self) -> tuple[int, int]:
        return (int(self._device.width), int(self._device.height))

    @property
    def failing(self) -> bool:
        """True while writes fail (the writer is retrying)."""
        return self._failures > 0

    def show(self, image: Image.Image) -> None:
        if self._closed:
            return
        if image.size != self.size:
            raise ValueError(
                f"image is {image.size[0]}×{image.size[1]}, the display {self.size[0]}×{self.size[1]}"
            )
        mode = self._device.mode
        frame = image if image.mode == mode else image.convert(mode)
        if self._thread is None:
            if self._write(frame, full=False) == "whole":
                self._shown = frame
            return
        with self._cond:
            self._pending = frame
            self._cond.notify_all()

    def clear(self) -> None:
        from PIL import Image

        self.show(Image.new(self._device.mode, self.size))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the newest frame (and every contrast or on/off change) is on the panel: True, or False
        after `timeout` (writes failing)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._pending is None and not self._controls and not self._busy, timeout
            )

    def set_contrast(self, level: int) -> None:
        """The panel's contrast 0–255 (luma's `contrast`: the OLED's drive current, so its brightness)."""
        self._control("contrast", min(255, max(0, int(level))))

    def set_visible(self, visible: bool) -> None:
        """Switch the panel on or off, keeping what it shows (luma's `show`/`hide`: no pixel is lit)."""
        self._control("show" if visible else "hide")

    def _control(self, what: str, *args: int) -> None:
        """A contrast or power command: from the writer thread too, in order with the frames."""
        if self._closed:
            return
        if self._thread is None:
            self._apply([(what, args)])
            return
        with self._cond:
            self._controls.append((what, args))
            self._cond.notify_all()

    def close(self) -> None:
        """Stop the writer, blank the panel and release the bus (luma's cleanup: hide + clear)."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            with self._cond:
                self._cond.notify_all()
            self._thread.join(5.0)
        try:
            self._device.cleanup()
        except Exception as exc:
            if isinstance(exc, OSError) or type(exc).__module__.startswith("luma."):
                raise DisplayError(f"display {self._where()}: {exc}") from exc
            raise

    def __enter__(self) -> LumaDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the writer ---------------------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                job = self._next_job()
                while job is None:
                    if self._closed:
                        return
                    self._cond.wait(self._wait_s())
                    job = self._next_job()
                if self._closed:
                    return
                image, full = job
                controls, self._controls = self._controls, []
                self._pending, self._busy = None, True
            written: Written | None = None
            ok = self._apply(controls)
            if ok and image is not None:
                written = self._write(image, full)
                ok = written != ""
            with self._cond:
                self._busy = False
                if ok:
                    if image is not None and written == "whole":
                        self._shown = image
                        self._refresh_at = self._clock() + self._refresh_s if self._refresh_s else float("inf")
                else:
                    if self._pending is None:
                        self._pending = image  # retry it unless a newer frame came meanwhile
                    self._controls[:0] = controls  # sent again before anything newer (luma's are idempotent)
                    self._retry_at = self._clock() + self._backoff.delay(self._failures)
                self._cond.notify_all()

    def _next_job(self) -> tuple[Image.Image | None, bool] | None:
        """(frame or None, send it whole?) to write now with the pending controls, or None. Under the lock."""
        if self._closed:
            return None
        now = self._clock()
        if self._pending is not None or self._controls:
            return (self._pending, False) if not self._failures or now >= self._retry_at else None
        if self._shown is not None and now >= self._refresh_at:
            return (self._shown, True)
        return None

    def _wait_s(self) -> float | None:
        at = self._retry_at if self._pending is not None or self._controls else self._refresh_at
        return None if at == float("inf") else max(0.0, at - self._clock())

    def _apply(self, controls: list[tuple[str, tuple[int, ...]]]) -> bool:
        """Contrast and power commands to the device, in order; an error counts like a failed frame."""
        try:
            for what, args in controls:
                getattr(self._device, what)(*args)
        except Exception as exc:
            self._failed(exc)
            return False
        return True

    def _write(self, image: Image.Image, full: bool) -> Written:
        """One frame to the device; an error is logged (once per outage) and counted, never raised. A
        device that can (`stops_when_stale`) stops part-way when a newer frame is pending."""
        stoppable = getattr(self._device, "stops_when_stale", False)
        if self._failures or (full and not stoppable):
            self._invalidate()
        try:
            if stoppable:
                whole = self._device.display(image, stale=self._stale, every_page=full)
            else:
                self._device.display(image)
                whole = True
        except Exception as exc:
            self._failed(exc)
            return ""
        if self._failures:
            log.warning("display %s answers again (after %d failed writes)", self._where(), self._failures)
            self._failures = 0
        if not whole:
            return "stopped"
        self.writes += 1
        return "whole"

    def _stale(self) -> bool:
        """A newer frame waits (asked by the device between pieces, without the lock: one attribute read)."""
        return self._pending is not None

    def _failed(self, exc: BaseException) -> None:
        """Log the first failure of an outage (the rest are counted)."""
        if not self._failures:
            bus = isinstance(exc, OSError) or type(exc).__module__.startswith("luma.")
            log.warning("display %s: %s — retrying; the timer and the buttons carry on", self._where(), exc,
                        exc_info=not bus)
        self._failures += 1

    def _invalidate(self) -> None:
        """Make the device's next write a full frame (our page-diff panels, luma's region framebuffers)."""
        invalidate = getattr(self._device, "invalidate", None)
        if callable(invalidate):
            invalidate()
        elif getattr(self._device, "framebuffer", None) is not None and hasattr(self._device.framebuffer, "prev_image"):
            self._device.framebuffer.prev_image = None

    def _where(self) -> str:
        return describe(self._cfg) if self._cfg is not None else "display"
