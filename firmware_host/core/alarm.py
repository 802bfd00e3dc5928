"""The end alarm that nobody misses: after the timer's own alarm it rings again every RING_EVERY_S and the
LED bar flashes, until any button is pressed or the configured time (`Settings.alarm_s`) has passed.

Pure: `now` is always passed in; the shell wakes the core for every change (`next_wake`) and only plays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

RING_EVERY_S = 2.5  # the alarm pattern lasts 1.65 s: a pause, then again
FLASH_S = 0.5  # the LED bar: all on, all off, every half second
ALARM_CHOICES = (0, 30, 60, 120, 300)  # the menu's: how long it rings at most; 0: once (the timer's own)
MAX_ALARM_S = 600  # the config may set any length up to this


@dataclass(frozen=True, slots=True)
class Ringing:
    """The alarm rings since `since` (when the time was up) until `until` at the latest; `rung` alarms
    have sounded (the first is the timer's own)."""

    since: float
    until: float
    rung: int = 1

    @classmethod
    def of(cls, now: float, alarm_s: int) -> Ringing | None:
        """Ringing for `alarm_s` seconds from `now`; None when the alarm sounds once."""
        return cls(now, now + alarm_s) if alarm_s > 0 else None

    def over(self, now: float) -> bool:
        return now >= self.until

    def due(self, now: float) -> bool:
        """Whether another alarm is due at `now` (the next in line; `rang` counts it)."""
        return not self.over(now) and now >= self.since + self.rung * RING_EVERY_S

    def rang(self, now: float) -> Ringing:
        """After the alarm due at `now`: the next one is counted from the latest ring time reached."""
        return Ringing(self.since, self.until, math.floor((now - self.since) / RING_EVERY_S + 1e-9) + 1)

    def bar_level(self, now: float) -> float:
        """Full in the first half of every flash period, dark in the second."""
        phase = math.floor((now - self.since) / FLASH_S + 1e-9)
        return 1.0 if phase % 2 == 0 else 0.0

    def next_wake(self, now: float) -> float:
        """The next flash change, ring or the end of ringing, whichever is first after `now`."""
        flash = self.since + (math.floor((now - self.since) / FLASH_S + 1e-9) + 1) * FLASH_S
        ring = self.since + self.rung * RING_EVERY_S
        return min(t for t in (flash, ring, self.until) if t > now)
