"""Buttons and the rotary encoder over gpiozero, turned into core events.

A button is wired between its GPIO and ground (internal pull-up). A press released before the hold time
is one `Press` (sent on release); a press held for the hold time is one `LongPress` (sent while held)
and its release sends nothing. An `edge` button (the turn timer's big turn button) has no long press:
its `Press` is sent at once on the press edge, stamped with that moment — the pin's own record of the
edge, so a callback that runs late (a busy interpreter) still stamps the edge. The encoder sends `Turn(+1)`
per detent clockwise, `Turn(-1)` counter-clockwise; its push switch is `Button.ENCODER`. Timestamps
come from the injected `clock`. Callbacks run on gpiozero's threads, so `emit` must be thread-safe.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any

from firmware_host.core.events import Button, Event, LongPress, Press, Turn

Emit = Callable[[Event], None]  # hw.protocols.Emit, spelled out here: drivers import nothing from hw


class _PressTracker:
    """Decides Press vs LongPress for one button; exactly one of them per press. The hold is timed by a
    one-shot timer started on the press (gpiozero's own hold machinery polls 10 times a second per
    button, idle or not; this costs nothing while nobody touches a button). A release leaves its timer to
    run out and find its press over: cancelling would wake that thread just as the Press is handled."""

    def __init__(self, button: Button, emit: Emit, clock: Callable[[], float], hold_s: float) -> None:
        self._button, self._emit, self._clock, self._hold_s = button, emit, clock, hold_s
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self._presses = 0  # which press a timer belongs to
        self._timer: threading.Timer | None = None

    def pressed(self) -> None:
        with self._lock:
            self._down, self._held = True, False
            self._presses += 1
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self._hold_s, self.held, args=(self._presses,))
            self._timer.daemon = True
            self._timer.start()

    def held(self, press: int) -> None:
        with self._lock:
            if press != self._presses or not self._down or self._held:
                return
            self._held = True
            event = LongPress(self._button, self._clock())
        self._emit(event)

    def released_quietly(self) -> None:
        """Forget a press in progress without reporting it (the inputs are closing)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._down = self._held = False

    def released(self) -> None:
        with self._lock:
            was_short = self._down and not self._held
            self._down = self._held = False
            event = Press(self._button, self._clock()) if was_short else None
        if event is not None:
            self._emit(event)


def _at_edge(button: Button, emit: Emit, clock: Callable[[], float], device: Any) -> Callable[[], None]:
    def pressed() -> None:
        since_edge = device.active_time or 0.0  # gpiozero's: measured from the pin's timestamp of the edge
        emit(Press(button, clock() - since_edge))

    return pressed


class PanelInputs:
    """`Inputs`: the push buttons (Button -> GPIO; those in `edge` report at their press edge) and,
    optionally, a rotary encoder (a, b pins)."""

    def __init__(
        self,
        buttons: Mapping[Button, int],
        *,
        emit: Emit,
        edge: Collection[Button] = (),
        encoder: tuple[int, int] | None = None,
        bounce_s: float = 0.03,
        hold_s: float = 0.8,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        import gpiozero

        self._devices: list[Any] = []
        self._trackers: list[_PressTracker] = []
        self._closed = False
        try:
            for button, pin in buttons.items():
                # A Button without its hold thread: DigitalInputDevice is gpiozero's Button less HoldMixin.
                device = gpiozero.DigitalInputDevice(
                    pin, pull_up=True, bounce_time=bounce_s or None, pin_factory=pin_factory
                )
                self._devices.append(device)
                if button in edge:
                    device.when_activated = _at_edge(button, emit, clock, device)
                    continue
                tracker = _PressTracker(button, emit, clock, hold_s)
                self._trackers.append(tracker)
                device.when_activated = tracker.pressed
                device.when_deactivated = tracker.released
            if encoder is not None:
                knob = gpiozero.RotaryEncoder(encoder[0], encoder[1], max_steps=0, pin_factory=pin_factory)
                knob.when_rotated_clockwise = lambda: emit(Turn(1, clock()))
                knob.when_rotated_counter_clockwise = lambda: emit(Turn(-1, clock()))
                self._devices.append(knob)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for tracker in self._trackers:
            tracker.released_quietly()
        for device in reversed(self._devices):
            device.close()

    def __enter__(self) -> PanelInputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
