"""A sand timer as a value: a duration, and either a deadline (running) or the time left (stopped).

The deadline is computed once when the timer starts; the time left is always `deadline - now`, so
nothing accumulates drift however often or rarely the clock is read. Times are monotonic seconds.
A turn clock may hold a countdown that is already past zero (`left_when_stopped` below 0, or a deadline
in the past): `left` never goes below 0, `remaining` says how far past zero it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Countdown:
    duration: float
    left_when_stopped: float
    deadline: float | None = None

    @classmethod
    def of(cls, duration: float) -> Countdown:
        """A full timer, not running."""
        return cls(duration=duration, left_when_stopped=duration)

    @property
    def running(self) -> bool:
        return self.deadline is not None

    @classmethod
    def at(cls, duration: float, left: float, since: float | None) -> Countdown:
        """`left` of `duration` seconds (below 0: that far past zero), running from `since` (None: stopped)."""
        return cls(duration, left, None if since is None else since + left)

    def left(self, now: float) -> float:
        """Seconds left at `now`, never below 0."""
        return max(0.0, self.remaining(now))

    def remaining(self, now: float) -> float:
        """Seconds left at `now`, below 0 past the deadline."""
        if self.deadline is None:
            return self.left_when_stopped
        return self.deadline - now

    def is_full(self) -> bool:
        return self.deadline is None and self.left_when_stopped >= self.duration

    def is_over(self, now: float) -> bool:
        return self.left(now) <= 0.0

    def start(self, now: float) -> Countdown:
        """Run from what is left (a finished timer starts again from full)."""
        left = self.left_when_stopped if self.left_when_stopped > 0 else self.duration
        return replace(self, left_when_stopped=left, deadline=now + left)

    def pause(self, now: float) -> Countdown:
        return replace(self, left_when_stopped=self.left(now), deadline=None)

    def reset(self) -> Countdown:
        return Countdown.of(self.duration)

    def flip(self, now: float) -> Countdown:
        """Turn the hourglass over: what has run through becomes what is left."""
        left = self.duration - self.left(now)
        if self.deadline is None:
            return replace(self, left_when_stopped=left)
        return replace(self, left_when_stopped=left, deadline=now + left)

    def with_duration(self, duration: float) -> Countdown:
        """A full, stopped timer of a new duration."""
        return Countdown.of(duration)
