"""Board profiles: which GPIO drives what, loaded from TOML and validated as a whole.

`load_profile("default" | "sim" | path)` returns a frozen `Profile` or raises `ProfileError` listing
every problem with its dotted key: a pin used twice (both keys named), a pin of an enabled bus, a pin
outside GPIO 2–27, an unknown display driver, a wrong type, an unknown key. Pins are BCM numbers.
Card readers are the `[[readers]]` list (`drivers.reader_config`: keys like `readers[0].port`).
`[keyboard]` says whether USB keyboards are read (`drivers.keyboard`): every keyboard found, or only the
`devices` listed (on a mock board only those: the simulator never reads the machine's own keyboard).
The parts' own config types (`DisplayConfig`, `ReaderConfig`) belong to their drivers; this module fills them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from drivers.display import DisplayConfig
from drivers.reader_config import ReaderConfig, parse_readers
from firmware_host.core.text_input import shortened
from hw.schema import (
    INVALID,
    Errors,
    Field,
    ValidationError,
    boolean,
    integer,
    listing,
    load_toml,
    read_sections,
    text,
)

PROFILES_DIR = Path(__file__).with_name("profiles")
BUNDLED = ("default", "sim")

ID_PINS = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)"}
BUS_PINS: dict[str, dict[int, str]] = {
    "i2c": {2: "I2C SDA", 3: "I2C SCL"},
    "uart": {14: "UART TXD", 15: "UART RXD"},
    "spi": {7: "SPI CE1", 8: "SPI CE0", 9: "SPI MISO", 10: "SPI MOSI", 11: "SPI SCLK"},
}
PIN_FACTORIES = ("auto", "lgpio", "rpigpio", "mock")
# driver -> (interfaces, sizes the screens are drawn at). 128×64 and 256×64 are what the renderer draws.
DISPLAY_DRIVERS: dict[str, tuple[tuple[str, ...], tuple[tuple[int, int], ...]]] = {
    "ssd1306": (("i2c", "spi"), ((128, 64),)),
    "sh1106": (("i2c", "spi"), ((128, 64),)),
    "ssd1309": (("i2c", "spi"), ((128, 64),)),
    "ssd1322": (("spi",), ((256, 64),)),
    "ssd1362": (("spi",), ((256, 64),)),
    "dummy": (("none",), ((128, 64), (256, 64))),
}


class ProfileError(ValidationError):
    """The board profile is unusable; `errors` lists (dotted key, message) for every problem."""


@dataclass(frozen=True, slots=True)
class BoardConfig:
    name: str
    pin_factory: str  # auto | lgpio | rpigpio | mock


@dataclass(frozen=True, slots=True)
class BusesConfig:
    i2c: bool
    uart: bool
    spi: bool


@dataclass(frozen=True, slots=True)
class LedBarConfig:
    pins: tuple[int, ...]  # first = the segment that stays lit longest
    pwm: bool
    active_high: bool


@dataclass(frozen=True, slots=True)
class BuzzerConfig:
    kind: str  # tonal (passive piezo, TonalBuzzer) | active (Buzzer)
    pin: int


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    start: int
    next: int
    back: int
    menu: int
    bounce_ms: int
    hold_ms: int
    turn: int | None = None  # optional: a big "turn" button (the turn timer's; reported at its press edge)


@dataclass(frozen=True, slots=True)
class EncoderConfig:
    enabled: bool
    a: int
    b: int
    push: int | None


@dataclass(frozen=True, slots=True)
class KeyboardConfig:
    enabled: bool  # USB (or paired Bluetooth) keyboards type into the table
    devices: tuple[str, ...]  # only these input devices (paths); empty: every keyboard found
    grab: bool  # keys reach only the appliance (EVIOCGRAB), never the console


@dataclass(frozen=True, slots=True)
class PowerConfig:
    shutdown_pin: int | None  # kept free for the kernel's gpio-shutdown overlay


@dataclass(frozen=True, slots=True)
class Profile:
    board: BoardConfig
    buses: BusesConfig
    led_bar: LedBarConfig
    buzzer: BuzzerConfig
    buttons: ButtonsConfig
    encoder: EncoderConfig
    display: DisplayConfig
    power: PowerConfig
    source: str = "<string>"
    readers: tuple[ReaderConfig, ...] = ()  # [[readers]]: none = the button deck only
    keyboard: KeyboardConfig = KeyboardConfig(enabled=True, devices=(), grab=True)

    def used_pins(self) -> dict[int, str]:
        """Every GPIO this profile drives -> the dotted key that claims it (buses not included)."""
        return {pin: key for key, pin in _pin_claims(_as_raw(self))}


_GPIO = integer(0, 27)
SECTIONS: dict[str, tuple[dict[str, Field], bool]] = {
    "board": ({"name": Field(text(), "wordtable"), "pin_factory": Field(text(PIN_FACTORIES), "auto")}, False),
    "buses": (
        {"i2c": Field(boolean(), False), "uart": Field(boolean(), False), "spi": Field(boolean(), False)},
        False,
    ),
    "led_bar": (
        {
            "pins": Field(listing(_GPIO, min_len=1, max_len=16)),
            "pwm": Field(boolean(), True),
            "active_high": Field(boolean(), True),
        },
        True,
    ),
    "buzzer": ({"kind": Field(text(("tonal", "active")), "tonal"), "pin": Field(_GPIO)}, True),
    "buttons": (
        {
            "start": Field(_GPIO),
            "next": Field(_GPIO),
            "back": Field(_GPIO),
            "menu": Field(_GPIO),
            "bounce_ms": Field(integer(0, 500), 30),
            "hold_ms": Field(integer(100, 10_000), 800),
            "turn": Field(_GPIO, None),
        },
        True,
    ),
    "encoder": (
        {
            "enabled": Field(boolean(), False),
            "a": Field(_GPIO, 9),
            "b": Field(_GPIO, 10),
            "push": Field(_GPIO, None),
        },
        False,
    ),
    "display": (
        {
            "driver": Field(text()),
            "interface": Field(text(("i2c", "spi", "none")), "i2c"),
            "port": Field(integer(0, 10), 1),
            "address": Field(integer(0x03, 0x77), 0x3C),
            "width": Field(integer(1, 1024), 128),
            "height": Field(integer(1, 1024), 64),
            "rotate": Field(integer(0, 3), 0),
            "spi_device": Field(integer(0, 1), 0),
            "dc_pin": Field(_GPIO, None),
            "reset_pin": Field(_GPIO, None),
            "refresh_s": Field(integer(0, 3600), 30),
        },
        True,
    ),
    "power": ({"shutdown_pin": Field(_GPIO, None)}, False),
    "keyboard": (
        {
            "enabled": Field(boolean(), True),
            "devices": Field(listing(text(), max_len=8, unique=True), ()),
            "grab": Field(boolean(), True),
        },
        False,
    ),
}


def _pin_claims(raw: dict[str, dict[str, Any]]) -> list[tuple[str, int]]:
    """(dotted key, GPIO) for every pin the profile uses, in file order; invalid values skipped."""
    claims: list[tuple[str, Any]] = []
    pins = raw["led_bar"]["pins"]
    if pins is not INVALID:
        claims += [(f"led_bar.pins[{i}]", p) for i, p in enumerate(pins)]
    claims.append(("buzzer.pin", raw["buzzer"]["pin"]))
    claims += [(f"buttons.{name}", raw["buttons"][name]) for name in ("start", "next", "back", "menu", "turn")]
    if raw["encoder"]["enabled"] is True:
        claims += [(f"encoder.{name}", raw["encoder"][name]) for name in ("a", "b", "push")]
    if raw["display"]["interface"] == "spi":
        claims += [(f"display.{name}", raw["display"][name]) for name in ("dc_pin", "reset_pin")]
    claims.append(("power.shutdown_pin", raw["power"]["shutdown_pin"]))
    return [(key, pin) for key, pin in claims if pin is not None and pin is not INVALID]


def _as_raw(profile: Profile) -> dict[str, dict[str, Any]]:
    return {name: asdict(getattr(profile, name)) for name in SECTIONS}


def _check_pins(raw: dict[str, dict[str, Any]], errors: Errors) -> None:
    buses = {name: raw["buses"][name] is True for name in BUS_PINS}
    first: dict[int, str] = {}
    for key, pin in _pin_claims(raw):
        if pin in ID_PINS:
            errors.append((key, f"GPIO {pin} is reserved for {ID_PINS[pin]}; use GPIO 2–27"))
            continue
        for bus, bus_pins in BUS_PINS.items():
            if buses[bus] and pin in bus_pins:
                errors.append((key, f"GPIO {pin} is {bus_pins[pin]}, kept free while buses.{bus} = true"))
        if pin in first:
            errors.append((key, f"GPIO {pin} is also used by {first[pin]}"))
        else:
            first[pin] = key


def _check_display(raw: dict[str, dict[str, Any]], errors: Errors) -> None:
    d = raw["display"]
    driver, interface = d["driver"], d["interface"]
    if driver is INVALID:
        return
    if driver not in DISPLAY_DRIVERS:
        errors.append(
            ("display.driver", f"unknown display driver {shortened(driver)} (known: {', '.join(DISPLAY_DRIVERS)})")
        )
        return
    interfaces, sizes = DISPLAY_DRIVERS[driver]
    if interface is not INVALID and interface not in interfaces:
        errors.append(
            (
                "display.interface",
                f"{driver} needs interface {' or '.join(map(repr, interfaces))}, not {shortened(interface)}",
            )
        )
    if interface in ("i2c", "spi") and raw["buses"][interface] is False:
        errors.append(
            ("display.interface", f"the display is on {interface.upper()} but buses.{interface} = false")
        )
    if interface == "spi":
        for name in ("dc_pin", "reset_pin"):
            if d[name] is None:
                errors.append((f"display.{name}", f"missing (an SPI display needs its {name} GPIO)"))
    if d["width"] is not INVALID and d["height"] is not INVALID and (d["width"], d["height"]) not in sizes:
        supported = ", ".join(f"{w}×{h}" for w, h in sizes)
        errors.append(
            ("display.width", f"{driver} at {d['width']}×{d['height']} is not supported ({supported})")
        )


UART_DEVICES = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")


def _readers(data: Any, raw: dict[str, dict[str, Any]], errors: Errors) -> tuple[ReaderConfig, ...]:
    """The `[[readers]]` list, its errors added to `errors`; a reader on the Pi's UART needs buses.uart."""
    parsed = parse_readers({"readers": data})
    configs = tuple(item for item in parsed if isinstance(item, ReaderConfig))
    errors.extend(item for item in parsed if not isinstance(item, ReaderConfig))
    for index, config in enumerate(configs):
        if config.port in UART_DEVICES and raw["buses"]["uart"] is False:
            errors.append((f"readers[{index}].port", f"{config.port} is the Pi's UART but buses.uart = false"))
    return configs


def parse_profile(data: dict[str, Any], source: str = "<string>") -> Profile:
    """Validate a parsed TOML document into a Profile, or raise ProfileError with every error."""
    errors: Errors = []
    raw = read_sections({k: v for k, v in data.items() if k != "readers"}, SECTIONS, errors)
    _check_pins(raw, errors)
    _check_display(raw, errors)
    readers = _readers(data.get("readers", []), raw, errors)
    if errors:
        raise ProfileError(errors)
    return Profile(
        board=BoardConfig(**raw["board"]),
        buses=BusesConfig(**raw["buses"]),
        led_bar=LedBarConfig(**raw["led_bar"]),
        buzzer=BuzzerConfig(**raw["buzzer"]),
        buttons=ButtonsConfig(**raw["buttons"]),
        encoder=EncoderConfig(**raw["encoder"]),
        display=DisplayConfig(**raw["display"]),
        power=PowerConfig(**raw["power"]),
        source=source,
        readers=readers,
        keyboard=KeyboardConfig(**raw["keyboard"]),
    )


def profile_path(name_or_path: str | Path) -> Path:
    """A bundled profile's file ("default", "sim") or the given path."""
    if isinstance(name_or_path, str) and name_or_path in BUNDLED:
        return PROFILES_DIR / f"{name_or_path}.toml"
    return Path(name_or_path)


def load_profile(name_or_path: str | Path = "default") -> Profile:
    """Load and validate a bundled profile by name or a profile file by path. Raises ProfileError."""
    path = profile_path(name_or_path)
    try:
        data = load_toml(path, "profile")
    except ValidationError as exc:
        raise ProfileError(exc.errors) from None
    return parse_profile(data, str(path))
