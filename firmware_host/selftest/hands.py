"""The maker's hands on a mock board: press and hold buttons, turn the encoder, tap a card — by driving
gpiozero's mock pins and the simulated reader ports of `hw.build`'s hardware, so the real drivers turn them
into events exactly as on the Pi. Used by `wordtable selftest --profile sim` (typed words) and the tests."""

from __future__ import annotations

import time
from collections.abc import Callable

from firmware_host.core.events import Button
from hw.build import Hardware
from hw.profile import Profile

HOLD_MARGIN_S = 0.15  # held this much past the hold time, so the long press fires before the release


class MockHands:
    def __init__(self, hardware: Hardware, profile: Profile, *, sleep: Callable[[float], None] = time.sleep):
        self._factory = hardware.pin_factory
        self._readers = hardware.readers
        self._profile = profile
        self._sleep = sleep
        b, enc = profile.buttons, profile.encoder
        self.pins = {Button.START: b.start, Button.NEXT: b.next, Button.BACK: b.back, Button.MENU: b.menu}
        if enc.enabled and enc.push is not None:
            self.pins[Button.ENCODER] = enc.push
        if b.turn is not None:
            self.pins[Button.TURN] = b.turn

    def press(self, button: Button) -> None:
        """A short press: down and up (active low, as wired)."""
        pin = self._factory.pin(self.pins[button])
        pin.drive_low()
        pin.drive_high()

    def hold(self, button: Button) -> None:
        """Held past the profile's hold time, then released (takes that long)."""
        pin = self._factory.pin(self.pins[button])
        pin.drive_low()
        self._sleep(self._profile.buttons.hold_ms / 1000 + HOLD_MARGIN_S)
        pin.drive_high()

    def turn(self, steps: int) -> None:
        """`steps` detents of the encoder, clockwise when positive (A leads B)."""
        a = self._factory.pin(self._profile.encoder.a)
        b = self._factory.pin(self._profile.encoder.b)
        first, second = (a, b) if steps > 0 else (b, a)
        for _ in range(abs(steps)):
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()

    def tap(self, reader: str, code: str) -> bool:
        """A card on `reader`: an RDM6300 frame (`code` = 10 hex digits) or a scanner line. False when the
        reader has no simulated port (not a mock board) or it is unplugged."""
        port = self._readers.simulated.get(reader)
        if port is None:
            return False
        config = next(r for r in self._profile.readers if r.name == reader)
        try:
            return port.send_tag(code) if config.kind == "rdm6300" else port.send_line(code)
        except ValueError:  # not an RDM6300 tag ID (10 hex digits)
            return False

    def act(self, line: str) -> bool:
        """Do what a typed word says — `start`, `hold next`, `push`, `+`, `-`, `@CODE`, `@READER CODE` —
        and return True; False when the line is no such word (it is then an answer)."""
        words = line.strip().lower().split()
        names = {button.value: button for button in self.pins} | {"push": Button.ENCODER}
        if len(words) == 1 and words[0] in names and names[words[0]] in self.pins:
            self.press(names[words[0]])
        elif len(words) == 2 and words[0] == "hold" and words[1] in names and names[words[1]] in self.pins:
            self.hold(names[words[1]])
        elif words in (["+"], ["-"]) and self._profile.encoder.enabled:
            self.turn(1 if words[0] == "+" else -1)
        elif line.strip().startswith("@") and self._profile.readers:
            parts = line.strip()[1:].split()
            names_of = [r.name for r in self._profile.readers]
            reader, code = (parts[0], parts[1]) if len(parts) == 2 and parts[0] in names_of else (names_of[0],
                                                                                                  "".join(parts))
            return self.tap(reader, code.upper() if code else "0A0B0C0D0E")
        else:
            return False
        return True
