"""The sand-timer LED bar over gpiozero's LEDBarGraph.

Level 1.0 lights every segment; as the level falls the LAST pin goes dark first and the first pin stays
lit longest. With PWM the draining segment is dimmed in proportion (LEDBarGraph with pwm=True lights
PWMLED i at clamp(n·level − i)); without PWM a segment stays on until its share is fully drained.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


class LedBar:
    """`Bar` on a row of LEDs, pins in order of the segment that stays lit longest first."""

    def __init__(
        self, pins: Sequence[int], *, pwm: bool = True, active_high: bool = True, pin_factory: Any = None
    ) -> None:
        from gpiozero import LEDBarGraph

        self._count = len(pins)
        self._pwm = pwm
        self._graph: Any = LEDBarGraph(*pins, pwm=pwm, active_high=active_high, pin_factory=pin_factory)
        self._closed = False

    def set_level(self, level: float) -> None:
        if self._closed:
            return
        level = 0.0 if math.isnan(level) else min(1.0, max(0.0, level))
        if not self._pwm:
            level = math.ceil(level * self._count) / self._count
        self._graph.value = level

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._graph.off()
        finally:
            self._graph.close()

    def __enter__(self) -> LedBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
