"""The appliance's sand timer: countdown plus its warnings, alarm, LED-bar level and wake-up times.

One timer serves every mode (timer-only, scoreboard, a game's round, a turn of the turn timer). Pure: `now`
is always passed in. A sand timer stops at zero; a turn clock's timer (`count_on`) sounds the alarm once at
zero and keeps running past it, waking every whole second of the over-time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from firmware_host.core.countdown import Countdown
from firmware_host.core.effects import Beep, Effect, Log, SetBar

BAR_STEPS = 160  # 10 segments x 16 dimming steps: the LED bar changes this many times per run


@dataclass(frozen=True, slots=True)
class Timer:
    countdown: Countdown
    warn_s: int = 10
    warned_down_to: int = 11  # the lowest "seconds left" already announced by a warning beep
    alarmed: bool = False
    count_on: bool = False  # past zero: alarm once, keep running (a turn clock's over-time)

    @classmethod
    def of(cls, duration: float, warn_s: int) -> Timer:
        return cls(Countdown.of(duration), warn_s, warn_s + 1)

    @classmethod
    def counting_on(cls, duration: float, left: float, warn_s: int, since: float | None, now: float) -> Timer:
        """A turn clock's timer: `left` of `duration` seconds at `since` (running from then; None: stopped).
        One already at or past zero stays silent (its alarm has sounded, or it began in over-time)."""
        countdown = Countdown.at(duration, left, since)
        over = countdown.remaining(now) <= 0.0
        return cls(countdown, warn_s, min(warn_s + 1, math.ceil(countdown.left(now))), alarmed=over, count_on=True)

    @property
    def running(self) -> bool:
        return self.countdown.running

    def left(self, now: float) -> float:
        return self.countdown.left(now)

    def bar_level(self, now: float) -> float:
        """The LED bar's level, in steps of 1/BAR_STEPS, rounded up so it is 0 only when time is up."""
        left = self.left(now)
        return min(1.0, math.ceil(left * BAR_STEPS / self.countdown.duration - 1e-9) / BAR_STEPS)

    def _rearmed(self, countdown: Countdown, now: float) -> Timer:
        left = countdown.left(now)
        return replace(
            self,
            countdown=countdown,
            warned_down_to=min(self.warn_s + 1, math.ceil(left)),
            alarmed=countdown.is_over(now) and self.alarmed,
        )

    def start(self, now: float) -> Timer:
        countdown = self.countdown.start(now)
        return replace(self._rearmed(countdown, now), alarmed=False)

    def pause(self, now: float) -> Timer:
        return replace(self, countdown=self.countdown.pause(now))

    def reset(self) -> Timer:
        return Timer.of(self.countdown.duration, self.warn_s)

    def flip(self, now: float) -> Timer:
        return replace(self._rearmed(self.countdown.flip(now), now), alarmed=False)

    def with_warning(self, warn_s: int, now: float) -> Timer:
        """The same countdown with a new warning period (warnings already passed stay silent)."""
        return replace(self, warn_s=warn_s)._rearmed(self.countdown, now)

    def with_settings(self, duration: float, warn_s: int) -> Timer:
        """A full, stopped timer with new settings."""
        return Timer.of(duration, warn_s)

    def tick(self, now: float, volume: str) -> tuple[Timer, list[Effect]]:
        """Advance to `now`: warning beeps when a warned second is reached, the alarm at the end."""
        if not self.running or (self.count_on and self.alarmed):
            return self, []
        left = self.left(now)
        if left <= 0.0:
            countdown = self.countdown if self.count_on else self.countdown.pause(now)
            stopped = replace(self, countdown=countdown, alarmed=True, warned_down_to=0)
            late_ms = (now - (self.countdown.deadline or now)) * 1000
            log = Log(f"timer: time is up ({late_ms:.1f} ms after the deadline)")
            return stopped, [Beep("alarm", volume), SetBar(0.0), log]  # the sound first: it is what says "time"
        due = [k for k in range(1, self.warn_s + 1) if k < self.warned_down_to and left <= k]
        if due:
            return replace(self, warned_down_to=min(due)), [Beep("warn", volume)]
        return self, []

    def next_wake(self, now: float) -> float | None:
        """The next moment anything visible or audible changes (None when stopped)."""
        deadline = self.countdown.deadline
        if deadline is None:
            return None
        if self.count_on and now >= deadline:  # over-time: every whole second past zero
            return deadline + math.floor(now - deadline + 1e-9) + 1
        left = self.left(now)
        candidates = [deadline]
        shown = math.ceil(left - 1e-9)  # the display shows whole seconds, rounded up
        if shown >= 1:
            candidates.append(deadline - (shown - 1))
        step = self.countdown.duration / BAR_STEPS
        level_steps = math.ceil(left / step - 1e-9)
        if level_steps >= 1:
            candidates.append(deadline - (level_steps - 1) * step)
        pending = [k for k in range(1, self.warn_s + 1) if k < self.warned_down_to and k < left]
        if pending:
            candidates.append(deadline - max(pending))
        future = [c for c in candidates if c > now]
        return min(future) if future else deadline


def format_seconds(seconds: float) -> str:
    """m:ss of the whole seconds left, rounded up (a timer shows 0:01 until it is really over)."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"


_DURATION = re.compile(r"^\s*(?:(\d{1,2}):(\d{2})|(\d{1,4}))\s*$")


def parse_duration(text: str) -> int | None:
    """Seconds from "90" or "1:30"; None when the text is neither."""
    match = _DURATION.match(text)
    if not match:
        return None
    if match.group(3) is not None:
        return int(match.group(3))
    seconds = int(match.group(2))
    return None if seconds >= 60 else int(match.group(1)) * 60 + seconds
