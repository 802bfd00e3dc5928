"""The OLED over luma: the device chosen by the profile (ssd1306, sh1106, ssd1309 on I2C or SPI;
ssd1322, ssd1362 256×64 on SPI; luma's `dummy` for the simulator and tests). luma is imported only when
a device is opened. OS errors (no /dev/i2c-1, nothing at the address) become a `DisplayError` that names
the bus and address.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from drivers.errors import HardwareError

if TYPE_CHECKING:
    from PIL import Image


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

        if cfg.interface == "i2c":
            bus: Any = serial.i2c(port=cfg.port, address=cfg.address)
        else:
            bus = serial.spi(port=cfg.port, device=cfg.spi_device, gpio_DC=cfg.dc_pin, gpio_RST=cfg.reset_pin)
        return getattr(luma.oled.device, cfg.driver)(
            bus, width=cfg.width, height=cfg.height, rotate=cfg.rotate
        )
    except (OSError, ImportError, RuntimeError, ValueError) as exc:
        raise _error(cfg, exc) from exc
    except Exception as exc:  # luma.core.error.Error and its kin
        if type(exc).__module__.startswith("luma."):
            raise _error(cfg, exc) from exc
        raise


class LumaDisplay:
    """`Display` over a luma device. `cfg` only names the panel in error messages."""

    def __init__(self, device: Any, cfg: DisplayConfig | None = None) -> None:
        self._device = device
        self._cfg = cfg
        self._closed = False

    @property
    def device(self) -> Any:
        return self._device

    @property
    def size(self) -> tuple[int, int]:
        return (int(self._device.width), int(self._device.height))

    def _call(self, what: str, *args: Any) -> None:
        try:
            getattr(self._device, what)(*args)
        except OSError as exc:
            where = describe(self._cfg) if self._cfg else "display"
            raise DisplayError(f"display {where}: {exc}") from exc

    def show(self, image: Image.Image) -> None:
        if self._closed:
            return
        if image.size != self.size:
            raise ValueError(
                f"image is {image.size[0]}×{image.size[1]}, the display {self.size[0]}×{self.size[1]}"
            )
        mode = self._device.mode
        self._call("display", image if image.mode == mode else image.convert(mode))

    def clear(self) -> None:
        if not self._closed:
            self._call("clear")

    def set_contrast(self, level: int) -> None:
        """The panel's contrast 0–255 (luma's `contrast`: the OLED's drive current, so its brightness)."""
        if not self._closed:
            self._call("contrast", min(255, max(0, int(level))))

    def set_visible(self, visible: bool) -> None:
        """Switch the panel on or off, keeping what it shows (luma's `show`/`hide`: no pixel is lit)."""
        if not self._closed:
            self._call("show" if visible else "hide")

    def close(self) -> None:
        """Blank the panel and release the bus (luma's cleanup: hide + clear unless persist)."""
        if self._closed:
            return
        self._closed = True
        self._call("cleanup")

    def __enter__(self) -> LumaDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
