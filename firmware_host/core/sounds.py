"""Sound patterns as data: a name -> notes (frequency in Hz or None for a rest, duration in seconds).

A passive piezo plays the frequencies (TonalBuzzer, A4 = 440 Hz); an active buzzer only beeps the notes'
durations. "soft" plays each note at a quarter of its length (a piezo has no real volume control).
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

VOLUMES = ("off", "soft", "normal")


def notes(pattern: str, volume: str) -> tuple[Note, ...]:
    """The notes to play for `pattern` at `volume` (none when off)."""
    if volume == "off":
        return ()
    scale = 0.25 if volume == "soft" else 1.0
    return tuple((freq, dur * scale) for freq, dur in PATTERNS[pattern])
