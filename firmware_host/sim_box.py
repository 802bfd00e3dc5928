"""The simulated box in real time, shared by the live front ends (terminal, the browser's /box, the window).

Out: `LiveBox.hook` wraps the appliance's outputs so the box knows what is true now — the last frame
(`image`, numbered by `frame_seq`), the sound the buzzer plays (`sound_now`: its notes until they end or the
buzzer is stopped) — and tells its `listeners` on every change; the LED bar is read back from the mock pins
(`bar`).
In: `press`, `turn` and `put` queue inputs for one worker thread, so inputs from any front end reach the
shell in the order they were given. Buttons and the encoder are driven on gpiozero's mock pins (active
low, a quadrature step per detent), so they take the same path as on the board: the buttons driver decides
Press or LongPress and stamps the time.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from firmware_host.appliance import Appliance
from firmware_host.config import Resolved
from firmware_host.core.events import CardScan, Event, TextEntry, Turn
from firmware_host.core.screens import Screen
from firmware_host.core.sounds import Note
from firmware_host.core.text_field import typed
from firmware_host.core.text_input import CODE, at_edge
from firmware_host.shell import Outputs

PRESS_S = 0.05  # a short press, held this long on the pin
HOLD_EXTRA_S = 0.15  # a long press is held this much longer than the hold time
BUTTON_NAMES = ("start", "next", "back", "menu", "turn", "encoder")


@dataclass(frozen=True, slots=True)
class Sound:
    """What the buzzer plays: `notes` ((Hz | None, seconds), …) started at `started` (monotonic), `seq`
    counting every sound since the box started."""

    seq: int
    notes: tuple[Note, ...]
    started: float

    @property
    def until(self) -> float:
        return self.started + sum(seconds for _, seconds in self.notes)

    def tone_at(self, now: float) -> float | None:
        """The frequency sounding at `now` (None: a rest, or over)."""
        at = self.started
        for hz, seconds in self.notes:
            if at <= now < at + seconds:
                return hz
            at += seconds
        return None

    @property
    def first_tone(self) -> float | None:
        return next((hz for hz, _ in self.notes if hz), None)


class LiveBox:
    def __init__(self, resolved: Resolved, clock: Callable[[], float] = time.monotonic) -> None:
        self.resolved = resolved
        self.clock = clock
        self.appliance: Appliance | None = None
        self.image: Any = None
        self.frame_seq = 0
        self.sound: Sound | None = None
        self._sounds = 0
        self.listeners: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._inputs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._idle = threading.Condition()
        self._queued = 0

    # --- out ----------------------------------------------------------------------------------------

    def hook(self, outputs: Outputs) -> Outputs:
        box = self
        bar, sounder, frame_seen = outputs.bar, outputs.sounder, outputs.on_frame

        class Bar:
            def set_level(self, level: float) -> None:
                bar.set_level(level)
                box.changed()

            def close(self) -> None:
                bar.close()

        class Sounder:
            def play(self, notes: Sequence[Note], duty: float = 0.5) -> None:
                sounder.play(notes, duty)
                box._sound(tuple(notes))

            def stop(self) -> None:
                sounder.stop()
                box._sound(())

            def close(self) -> None:
                sounder.close()

        def on_frame(screen: Screen, image: Any) -> None:
            frame_seen(screen, image)
            with self._lock:
                self.image = image.copy()
                self.frame_seq += 1
            self.changed()

        return replace(outputs, bar=Bar(), sounder=Sounder(), on_frame=on_frame)

    def _sound(self, notes: tuple[Note, ...]) -> None:
        with self._lock:
            self._sounds += 1
            self.sound = Sound(self._sounds, notes, self.clock()) if notes else None
        self.changed()

    def sound_now(self) -> Sound | None:
        """The sound still playing (None once its notes are over or it was stopped)."""
        sound = self.sound
        return sound if sound is not None and self.clock() < sound.until else None

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def bar(self) -> list[float]:
        """The LED bar as the mock pins hold it: one value in [0, 1] per segment."""
        factory = self._appliance().hardware.pin_factory
        return [float(factory.pin(p).state) for p in self.resolved.profile.led_bar.pins]

    def frame(self) -> tuple[int, Any]:
        with self._lock:
            return self.frame_seq, self.image

    # --- in -----------------------------------------------------------------------------------------

    def attach(self, appliance: Appliance) -> None:
        """Take the appliance opened with `hook` and start the input worker."""
        self.appliance = appliance
        if self.image is None:  # nothing drawn yet: a dark panel
            display = self.resolved.profile.display
            self.image = Image.new("1", (display.width, display.height))
        self._worker = threading.Thread(target=self._work, name="sim-inputs", daemon=True)
        self._worker.start()

    def buttons(self) -> dict[str, int]:
        """Button name -> its GPIO on this profile (the encoder's push switch as "encoder")."""
        b, enc = self.resolved.profile.buttons, self.resolved.profile.encoder
        pins = {"start": b.start, "next": b.next, "back": b.back, "menu": b.menu}
        if b.turn is not None:
            pins["turn"] = b.turn
        if enc.enabled and enc.push is not None:
            pins["encoder"] = enc.push
        return pins

    def press(self, button: str, long: bool = False) -> bool:
        """Queue a press of `button` (False: no such button on this profile)."""
        pin = self.buttons().get(button)
        if pin is None:
            return False
        hold = self.resolved.profile.buttons.hold_ms / 1000 + HOLD_EXTRA_S if long else PRESS_S
        self._queue(lambda: self._press_pin(pin, hold))
        return True

    def drive(self, button: str, down: bool) -> bool:
        """Queue a button's pin going down (pressed) or up (released); the driver times the press."""
        gpio = self.buttons().get(button)
        if gpio is None:
            return False
        self._queue(lambda: getattr(self._appliance().hardware.pin_factory.pin(gpio),
                                    "drive_low" if down else "drive_high")())
        return True

    def turn(self, steps: int) -> None:
        """Queue encoder detents (+ clockwise); as `Turn` events when the profile has no encoder."""
        enc = self.resolved.profile.encoder
        if not enc.enabled:
            self._queue(lambda: self._appliance().shell.put(Turn(steps, self.clock())))
            return
        first, second = (enc.a, enc.b) if steps > 0 else (enc.b, enc.a)
        for _ in range(abs(steps)):
            self._queue(lambda: self._quadrature(first, second))

    def put(self, event_of: Callable[[float], Event]) -> None:
        """Queue an event made at its turn (`event_of(now)`), after the inputs queued before it."""
        self._queue(lambda: self._appliance().shell.put(event_of(self.clock())))

    def after(self, action: Callable[[], None]) -> None:
        """Queue `action` (e.g. quitting) to run after the inputs queued before it."""
        self._queue(action)

    def settle(self, timeout: float = 10.0) -> bool:
        """Wait until every queued input was given (True) or `timeout` passed."""
        with self._idle:
            return self._idle.wait_for(lambda: self._queued == 0, timeout)

    def close(self) -> None:
        self._inputs.put(None)
        if self._worker is not None:
            self._worker.join(5)

    def _queue(self, action: Callable[[], None]) -> None:
        with self._idle:
            self._queued += 1
        self._inputs.put(action)

    def _work(self) -> None:
        while (action := self._inputs.get()) is not None:
            try:
                action()
            finally:
                with self._idle:
                    self._queued -= 1
                    self._idle.notify_all()

    def _press_pin(self, gpio: int, seconds: float) -> None:
        pin = self._appliance().hardware.pin_factory.pin(gpio)
        pin.drive_low()
        time.sleep(seconds)
        pin.drive_high()

    def _quadrature(self, first: int, second: int) -> None:
        factory = self._appliance().hardware.pin_factory
        for gpio, low in ((first, True), (second, True), (first, False), (second, False)):
            (factory.pin(gpio).drive_low if low else factory.pin(gpio).drive_high)()

    def _appliance(self) -> Appliance:
        assert self.appliance is not None, "attach() the appliance first"
        return self.appliance


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
