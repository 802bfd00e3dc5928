"""The live simulator in a terminal: keys press the buttons on the mock pins, frames are drawn as text.

Runs the same `Shell.run` loop as the service, in real time. The key reader is a second thread that
only drives mock pins (or, for typed lines and the encoder, puts events); all drawing happens in the
shell's thread through the output hooks.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import threading
import time
import tty
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_host.appliance import Appliance, open_appliance
from firmware_host.config import Resolved
from firmware_host.core.events import CardScan, TextEntry, Turn, Typing
from firmware_host.core.screens import Screen
from firmware_host.core.sounds import Note
from firmware_host.core.text_field import typed
from firmware_host.core.text_input import CODE, LINE, at_edge
from firmware_host.shell import Outputs
from firmware_host.textscreen import frame

HELP = "s n b m buttons · S N B M hold · t turn button · [ ] encoder · Enter type (@CODE scan) · q quit"
KEYS = {"s": "start", "n": "next", "b": "back", "m": "menu", "t": "turn"}
TYPED_MAX = 4 * LINE.limit  # what the typing line keeps


class LiveView:
    def __init__(self, resolved: Resolved) -> None:
        self.resolved = resolved
        self.appliance: Appliance | None = None
        self.sound: float | bool = False
        self.sound_until = 0.0
        self.typing: str | None = None
        self.lock = threading.Lock()

    def hook(self, outputs: Outputs) -> Outputs:
        view = self
        inner_bar = outputs.bar

        class Bar:
            def set_level(self, level: float) -> None:
                inner_bar.set_level(level)
                view.draw()

            def close(self) -> None:
                inner_bar.close()

        def on_frame(screen: Screen, image: Any) -> None:
            view.draw()

        def on_sound(pattern: str, notes: tuple[Note, ...]) -> None:
            view.sound = next((hz for hz, _ in notes if hz), True)
            view.sound_until = time.monotonic() + sum(d for _, d in notes) + 0.3
            view.draw()

        return replace(outputs, bar=Bar(), on_frame=on_frame, on_sound=on_sound)

    def power_off(self) -> None:
        """A confirmed "Ausschalten": the live simulator leaves the machine on."""

    def draw(self) -> None:
        appliance = self.appliance
        if appliance is None:
            return
        factory = appliance.hardware.pin_factory
        bar = [float(factory.pin(p).state) for p in self.resolved.profile.led_bar.pins]
        sounding = time.monotonic() < self.sound_until
        status = HELP if self.typing is None else f"Eingabe: {self.typing}▏ (Enter: senden, Esc: abbrechen)"
        text = frame(appliance.hardware.display.device.image, bar, self.sound if sounding else None, status)
        with self.lock:
            sys.stdout.write("\x1b[H\x1b[2J" + text.replace("\n", "\r\n") + "\r\n")
            sys.stdout.flush()


@contextlib.contextmanager
def raw_terminal() -> Iterator[None]:
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        sys.stdout.write("\x1b[?25l")
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\x1b[?25h\r\n")
        sys.stdout.flush()


def press(appliance: Appliance, pin_number: int, seconds: float) -> None:
    """Press a button on its mock pin (active low, as wired) for `seconds`."""
    pin = appliance.hardware.pin_factory.pin(pin_number)
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def read_keys(appliance: Appliance, view: LiveView, stop: threading.Event) -> None:
    buttons = appliance_buttons(view.resolved)
    hold_s = view.resolved.profile.buttons.hold_ms / 1000 + 0.15
    fd = sys.stdin.fileno()
    while not stop.is_set():
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        key = os.read(fd, 4).decode("utf-8", "replace")
        if view.typing is not None:
            if key in ("\r", "\n"):
                appliance.shell.put(typed_event(view.typing, view.resolved, time.monotonic()))
                view.typing = None
            elif key == "\x1b":
                view.typing = None
            elif key in ("\x7f", "\b"):
                view.typing = view.typing[:-1]
            elif len(view.typing) <= TYPED_MAX:  # a paste longer than any line is cut (and then refused)
                view.typing += key
            if not view.typing or not view.typing.startswith("@"):  # the OLED shows the line as it is typed
                appliance.shell.put(Typing(view.typing or "", time.monotonic()))
            view.draw()
            continue
        if key == "q":
            appliance.shell.stop()
            return
        if key in ("\r", "\n"):
            view.typing = ""
            view.draw()
        elif key.lower() in KEYS and KEYS[key.lower()] in buttons:
            press(appliance, buttons[KEYS[key.lower()]], hold_s if key.isupper() else 0.05)
        elif key in "[]":
            appliance.shell.put(Turn(1 if key == "]" else -1, time.monotonic()))


def typed_event(line: str, resolved: Resolved, at: float) -> TextEntry | CardScan:
    """A typed line; one starting with "@" is a card scan: "@CODE" on the first reader, "@NAME CODE" on another.
    The text goes through `text_input.at_edge` (normalised, or cut so the core refuses it with its reason)."""
    if not line.startswith("@"):
        return typed(line, at)
    parts = line[1:].split()
    readers = [r.name for r in resolved.profile.readers] or ["rfid"]
    if len(parts) >= 2 and parts[0] in readers:
        return CardScan(parts[0], at_edge(parts[1], CODE), at)
    return CardScan(readers[0], at_edge(parts[0], CODE) if parts else "", at)


def appliance_buttons(resolved: Resolved) -> dict[str, int]:
    b = resolved.profile.buttons
    buttons = {"start": b.start, "next": b.next, "back": b.back, "menu": b.menu}
    return buttons if b.turn is None else {**buttons, "turn": b.turn}


def run_live(resolved: Resolved, state_dir: Path, *, page: bool = False) -> int:
    from firmware_host.page.attach import serve_page

    view = LiveView(resolved)
    appliance = open_appliance(resolved, state_dir, outputs_hook=view.hook, power_off=view.power_off)
    view.appliance = appliance
    server = serve_page(appliance, resolved, state_dir, asked=page)
    stop = threading.Event()
    try:
        with raw_terminal():
            view.draw()
            keys = threading.Thread(target=read_keys, args=(appliance, view, stop), daemon=True)
            keys.start()
            appliance.shell.run()
    finally:
        stop.set()
        if server is not None:
            server.close()
        appliance.close()
    return 0
