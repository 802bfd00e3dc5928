"""The turn being timed, on whole milliseconds of the monotonic clock, and how times are written.

A turn's time is `used(now)`: what it had used before `since_ms` plus the time since (while it runs).
Moments stay unrounded (`to_ms` only changes the unit); a turn's time is rounded to a whole millisecond
once, when the turn is recorded (`whole_ms`), so the turns of a game add up to the wall time minus the
pauses within half a millisecond per turn, however many pauses a turn has.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.core.timer import format_seconds


def to_ms(seconds: float) -> float:
    """A monotonic moment (seconds) in milliseconds (not rounded)."""
    return seconds * 1000


def whole_ms(ms: float) -> int:
    """A time as the record keeps it: whole milliseconds."""
    return round(ms)


@dataclass(frozen=True, slots=True)
class Clock:
    """`used_ms` of the turn before `since_ms`; running from `since_ms` (None: stopped); `started`: the
    first turn has begun (before it, the clock is ready)."""

    used_ms: float = 0
    since_ms: float | None = None
    started: bool = False

    @property
    def running(self) -> bool:
        return self.since_ms is not None

    def used(self, now_ms: float) -> float:
        return self.used_ms + (max(0, now_ms - self.since_ms) if self.since_ms is not None else 0)

    def stopped(self, now_ms: float) -> Clock:
        return Clock(self.used(now_ms), None, self.started)

    def run(self, now_ms: float) -> Clock:
        """Running from `now_ms` (a stopped clock resumes, a ready one starts)."""
        return Clock(self.used(now_ms), now_ms, True)


def countdown_text(ms: int) -> str:
    """A time left as the display shows it: m:ss rounded up, and past zero "+m:ss" (whole seconds over)."""
    if ms > 0:
        return format_seconds(ms / 1000)
    whole = -ms // 1000
    return f"+{whole // 60}:{whole % 60:02d}"


def exact_text(ms: int) -> str:
    """A time to the tenth of a second: "1:02.5", "-0:03.0" (the statistics, the printed report)."""
    tenths = (abs(ms) + 50) // 100
    sign = "-" if ms < 0 and tenths else ""
    return f"{sign}{tenths // 600}:{tenths % 600 // 10:02d}.{tenths % 10}"
