"""The buzzer: a passive piezo over gpiozero's TonalBuzzer (plays frequencies) or an active buzzer over
`Buzzer` (beeps only the notes' lengths). `play` sounds the first note at once and the rest in the
buzzer's player thread (started once, so a click costs no thread start); it replaces what plays, `stop`
cancels, `close` silences and releases the pin. The loudness of a piezo is the PWM duty cycle of its square
wave (`duty`, 0.5 loudest). TonalBuzzer.play always sets 0.5, so a note is set on its `pwm_device` as
TonalBuzzer.play does it — the pin's frequency, then the duty as the device's value.

For tests, `start` (how a job is run; default: the player thread, one job after another) and `wait`
(waits a note's length on a cancel event, returns True when cancelled) are injectable, so a sequence can be
stepped without sleeping.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

from firmware_host.core.sounds import Note

# TonalBuzzer plays mid_tone · 2^(±octaves): A4 ± 2 octaves = 110–1760 Hz covers every pattern.
MID_TONE = "A4"
OCTAVES = 2

log = logging.getLogger(__name__)


class _Player:
    """A daemon thread, started with the first job, that runs the jobs handed to it one after another (a
    new sequence cancels the one playing first, so it waits for no note)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def __call__(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="wordtable-buzzer", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def close(self) -> None:
        """End the thread once the jobs handed over so far have run."""
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job()
            except Exception:  # one failed sequence must not silence the next
                log.exception("the buzzer failed")


def _wait(cancel: threading.Event, seconds: float) -> bool:
    return cancel.wait(seconds)


class Buzzer:
    """`Sounder` on one GPIO. `tonal=True`: passive piezo (frequencies); False: active buzzer (on/off)."""

    def __init__(
        self,
        pin: int,
        *,
        tonal: bool = True,
        pin_factory: Any = None,
        start: Callable[[Callable[[], None]], None] | None = None,
        wait: Callable[[threading.Event, float], bool] = _wait,
    ) -> None:
        import gpiozero

        self._tonal = tonal
        self._device: Any = (
            gpiozero.TonalBuzzer(pin, mid_tone=MID_TONE, octaves=OCTAVES, pin_factory=pin_factory)
            if tonal
            else gpiozero.Buzzer(pin, pin_factory=pin_factory)
        )
        self._start = start or _Player()
        self._wait = wait
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._closed = False

    @property
    def range_hz(self) -> tuple[float, float]:
        """The lowest and highest playable frequency (a tonal buzzer; an active one beeps any)."""
        if not self._tonal:
            return (0.0, float("inf"))
        return (float(self._device.min_tone.frequency), float(self._device.max_tone.frequency))

    def play(self, notes: Sequence[Note], duty: float = 0.5) -> None:
        """Play `notes` at PWM `duty` (a tonal piezo; clamped to 0–0.5; an active buzzer ignores it). The
        first note sounds before this returns (in the caller's thread: the alarm's edge waits for no thread
        to start); the rest plays in the background."""
        duty = min(0.5, max(0.0, duty))
        notes = tuple(notes) if duty > 0.0 else ()
        with self._lock:
            if self._closed:
                return
            self._cancel.set()
            cancel = self._cancel = threading.Event()
            if notes:
                self._sound(notes[0][0], duty)
            else:
                self._silence()
        if notes:
            self._start(lambda: self._run(notes, duty, cancel))

    def _run(self, notes: tuple[Note, ...], duty: float, cancel: threading.Event) -> None:
        for index, (freq, seconds) in enumerate(notes):
            with self._lock:
                if cancel.is_set():
                    return
                if index:  # the first one `play` has started
                    self._sound(freq, duty)
            if self._wait(cancel, seconds):
                return
        with self._lock:
            if not cancel.is_set():
                self._silence()

    def _sound(self, freq: float | None, duty: float) -> None:
        if freq is None:
            self._silence()
        elif self._tonal:
            low, high = self.range_hz
            pwm = self._device.pwm_device
            pwm.pin.frequency = min(high, max(low, freq))
            pwm.value = duty
        else:
            self._device.on()

    def _silence(self) -> None:
        if self._tonal:
            self._device.stop()
        else:
            self._device.off()

    def stop(self) -> None:
        with self._lock:
            self._cancel.set()
            if not self._closed:
                self._silence()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._cancel.set()
            try:
                self._silence()
            finally:
                self._device.close()
                if isinstance(self._start, _Player):
                    self._start.close()

    def __enter__(self) -> Buzzer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
