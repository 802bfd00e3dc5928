"""Turn a board profile into running drivers: `build(profile, emit=...) -> Hardware`.

The pin factory and the luma device are injectable; by default the profile picks them ("mock":
gpiozero's MockFactory with PWM-capable mock pins; "auto": gpiozero's own choice, imported lazily).
Parts start in the order display, bar, sounder, buttons, card readers, keyboards (inputs last: no event
before the outputs exist) and close in the reverse order. The display can be started alone first
(`open_display`, then `build(display=...)`): the appliance draws its first frame before the rest.

Card readers: one `CardReader` thread per `[[readers]]`, putting its events (`CardScan`, `CardRemoved`,
`ReaderStatus`) through `emit`. On a mock board (`board.pin_factory = "mock"`, the simulator) every reader
gets a `SimulatedPort` instead of its real port, so nothing real is opened; `readers.simulated[name]` then
lets the simulator or a benchmark send frames (`send_tag`, `send_line`) and unplug/replug it. A reader
found at start is not news: its first "present" is not passed on, only "missing" and the "present" after
it ("reader X is back").

Keyboards: one `InputDevices` thread (`drivers.keyboard`) for every USB keyboard and every keyboard-mode
scanner (`[[readers]]` of kind "hid"), the keys in the user config's layout. A hid reader is read there,
not by a `CardReader`. On a mock board only the paths the profile names are opened (`[keyboard] devices`,
a hid reader's `port`): a pipe can stand in for /dev/input/eventN; the machine's own keyboard is never read.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drivers.cardreader import CardReader
from drivers.display import DisplayError, LumaDisplay, open_device
from drivers.keyboard import InputDevices, system_finder
from drivers.keymap import DEFAULT_LAYOUT, LAYOUTS
from drivers.reader_config import ReaderKind
from drivers.sim_reader import SimulatedPort
from firmware_host.core.events import Button, Event, ReaderStatus
from firmware_host.core.text_field import typed
from hw.profile import Profile
from hw.protocols import Bar, Display, Emit, HardwareError, Inputs, Sounder

log = logging.getLogger(__name__)

__all__ = ["DisplayError", "Hardware", "HardwareError", "Readers", "build", "make_pin_factory", "open_display",
           "open_readers"]


def make_pin_factory(kind: str) -> Any:
    """The gpiozero pin factory for `board.pin_factory`; None for "auto" (gpiozero chooses)."""
    if kind == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    if kind == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if kind == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    return None


@dataclass
class Hardware:
    """The running parts. `close()` (idempotent) closes them in reverse order of start-up."""

    bar: Bar
    sounder: Sounder
    display: Display
    inputs: Inputs
    readers: Readers
    pin_factory: Any = None  # the gpiozero factory in use (a MockFactory lets tests drive pins)
    keyboards: InputDevices | None = None  # USB keyboards and keyboard-mode scanners; None: none read
    _closed: bool = field(default=False, repr=False)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        _close_all([part for part in (self.keyboards, self.readers, self.inputs, self.sounder, self.bar,
                                      self.display) if part is not None])

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _close_all(parts: list[Any]) -> None:
    """Close every part even when one fails (logged): a stuck display must not leave the buzzer on."""
    for part in parts:
        try:
            part.close()
        except Exception:
            log.exception("closing %s failed", type(part).__name__)


class _NewsOnly:
    """`emit` behind a `put` (what `CardReader` calls), minus each reader's "present" until it was once
    missing."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._missed: set[str] = set()

    def put(self, event: Event) -> None:
        if isinstance(event, ReaderStatus):
            if event.present and event.reader not in self._missed:
                return
            self._missed.add(event.reader)
        self._emit(event)


@dataclass
class Readers:
    """The running card readers; `close()` (idempotent) stops them, the last started first."""

    readers: list[CardReader] = field(default_factory=list)
    simulated: dict[str, SimulatedPort] = field(default_factory=dict)

    def close(self) -> None:
        readers, self.readers = self.readers, []
        _close_all(list(reversed(readers)))  # one stuck reader must not keep the others open


def open_readers(
    profile: Profile, emit: Emit, *, clock: Callable[[], float] = time.monotonic, **options: Any
) -> Readers:
    """Start a reader thread per configured reader, putting its events through `emit`.
    `options` go to `CardReader` (e.g. `retry`, or `opener` to replace the serial port)."""
    simulate = profile.board.pin_factory == "mock" and "opener" not in options
    running = Readers()
    events: Any = _NewsOnly(emit)  # CardReader only calls put()
    try:
        for config in profile.readers:
            if config.kind is ReaderKind.HID:  # read with the keyboards (`open_keyboards`)
                continue
            opener = options.get("opener")
            if simulate:
                opener = running.simulated[config.name] = SimulatedPort()
            reader = CardReader(config, events, clock=clock, **{**options, "opener": opener})
            running.readers.append(reader.start())
    except BaseException:
        running.close()
        raise
    return running


def open_keyboards(
    profile: Profile, emit: Emit, *, layout: str = DEFAULT_LAYOUT, clock: Callable[[], float] = time.monotonic,
    **options: Any,
) -> InputDevices | None:
    """Start the thread that reads the keyboards and the keyboard-mode scanners; None when there is
    nothing to read (no hid reader, and keyboards off — or on a mock board none listed). `options` go to `InputDevices`
    (e.g. `find`, `opener`, `poll_s`)."""
    keyboard = profile.keyboard
    scanners = [config for config in profile.readers if config.kind is ReaderKind.HID]
    mock = profile.board.pin_factory == "mock"
    if not scanners and not (keyboard.enabled and (keyboard.devices or not mock)) and "find" not in options:
        return None
    find = options.pop("find", None) or system_finder(
        scanners, devices=keyboard.devices, keyboards=keyboard.enabled, scan_all=not mock
    )
    devices = InputDevices(_NewsOnly(emit).put, find=find, layout=LAYOUTS[layout], line=typed, readers=scanners,
                           clock=clock, grab=keyboard.grab, **options)
    return devices.start()


def _open(key: str, make: Callable[[], Any]) -> Any:
    try:
        return make()
    except HardwareError:
        raise
    except Exception as exc:
        if type(exc).__module__.startswith("gpiozero") or isinstance(exc, OSError):
            raise HardwareError(f"{key}: {exc}") from exc
        raise


def open_display(profile: Profile, display_device: Any = None) -> LumaDisplay:
    """The display alone, the first part `build` starts: a first frame needs no other part (and not
    gpiozero), so it can be drawn before the rest starts (`build(display=...)`). Raises DisplayError."""
    device = display_device if display_device is not None else open_device(profile.display)
    display: LumaDisplay = _open("display", lambda: LumaDisplay(device, profile.display))
    return display


def build(
    profile: Profile,
    *,
    emit: Emit,
    pin_factory: Any = None,
    display_device: Any = None,
    display: Display | None = None,
    clock: Callable[[], float] = time.monotonic,
    keyboard_layout: str = DEFAULT_LAYOUT,
) -> Hardware:
    """Start every part the profile describes, card readers included; `display`: one `open_display`
    started already, which then is a part like the others (closed with them, and when the build fails).
    Raises HardwareError (DisplayError for the display) naming the part; whatever had started is closed
    again first."""
    started: list[Any] = [] if display is None else [display]

    def start(key: str, make: Callable[[], Any]) -> Any:
        part = _open(key, make)
        started.append(part)
        return part

    try:
        from drivers.buttons import PanelInputs
        from drivers.buzzer import Buzzer
        from drivers.ledbar import LedBar

        factory = pin_factory if pin_factory is not None else make_pin_factory(profile.board.pin_factory)
        if display is None:
            display = start("display", lambda: open_display(profile, display_device))
        lb = profile.led_bar
        bar = start(
            "led_bar", lambda: LedBar(lb.pins, pwm=lb.pwm, active_high=lb.active_high, pin_factory=factory)
        )
        bz = profile.buzzer
        sounder = start("buzzer", lambda: Buzzer(bz.pin, tonal=bz.kind == "tonal", pin_factory=factory))
        b, enc = profile.buttons, profile.encoder
        buttons = {Button.START: b.start, Button.NEXT: b.next, Button.BACK: b.back, Button.MENU: b.menu}
        if enc.enabled and enc.push is not None:
            buttons[Button.ENCODER] = enc.push
        if b.turn is not None:
            buttons[Button.TURN] = b.turn
        inputs = start(
            "buttons",
            lambda: PanelInputs(
                buttons,
                emit=emit,
                edge=(Button.TURN,),
                encoder=(enc.a, enc.b) if enc.enabled else None,
                bounce_s=b.bounce_ms / 1000,
                hold_s=b.hold_ms / 1000,
                clock=clock,
                pin_factory=factory,
            ),
        )
        readers = start("readers", lambda: open_readers(profile, emit, clock=clock))
        keyboards = _open("keyboard", lambda: open_keyboards(profile, emit, layout=keyboard_layout, clock=clock))
    except BaseException:
        _close_all(list(reversed(started)))
        raise
    return Hardware(bar=bar, sounder=sounder, display=display, inputs=inputs, readers=readers, pin_factory=factory,
                    keyboards=keyboards)
