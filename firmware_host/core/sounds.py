"""Sound patterns as data: a name -> notes (frequency in Hz or None for a rest, duration in seconds).

A passive piezo plays the frequencies (TonalBuzzer, A4 = 440 Hz) at the PWM duty cycle of the volume
(`DUTY`): a piezo is loudest at 50 % and quieter the shorter its pulses. An active buzzer only beeps the
notes' durations (it has no volume but on and off).
"""

from __future__ import annotations

Note = tuple[float | None, float]

PATTERNS: dict[str, tuple[Note, ...]] = {
    "key": ((880.0, 0.03),),
    "error": ((220.0, 0.12), (None, 0.05), (220.0, 0.12)),
    "warn": ((988.0, 0.08),),
    "alarm": ((880.0, 0.25), (None, 0.1), (880.0, 0.25), (None, 0.1), (880.0, 0.25), (None, 0.1), (1175.0, 0.6)),
    "start": ((660.0, 0.06), (880.0, 0.06)),
    "turn": ((1319.0, 0.03), (None, 0.02), (1047.0, 0.05)),  # the turn passes to the next player
    "celebrate": ((523.0, 0.12), (659.0, 0.12), (784.0, 0.12), (1047.0, 0.4)),
}

VOLUMES = ("off", "soft", "normal", "loud")
# the PWM duty cycle per volume; a square wave's fundamental is ∝ sin(π·duty): about −20, −7 and 0 dB
DUTY = {"off": 0.0, "soft": 0.03, "normal": 0.15, "loud": 0.5}


def notes(pattern: str, volume: str) -> tuple[Note, ...]:
    """The notes to play for `pattern` at `volume` (none when off; the loudness is `duty`)."""
    if volume == "off":
        return ()
    return PATTERNS[pattern]


def duty(volume: str) -> float:
    """The PWM duty cycle a piezo plays at for `volume` (0 when off; unknown volumes play normal)."""
    return DUTY.get(volume, DUTY["normal"])
