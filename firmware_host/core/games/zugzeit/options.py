"""Zugzeit's options: the timing chosen before the clock starts (the config's `[turn_timer]` first), as a
value; `table` shows it and takes its buttons."""

from __future__ import annotations

from dataclasses import dataclass, replace

import firmware_host.core.games.zugzeit.rules as zz
from firmware_host.core.settings import TurnSettings
from firmware_host.core.table.seats import Seats

TURN_PRESETS = (10, 15, 20, 30, 45, 60, 90, 120, 180, 300)
BANK_PRESETS = (60, 120, 180, 300, 600, 900, 1200, 1800, 2700, 3600, 5400)
EXTRA_PRESETS = (0, 1, 2, 3, 5, 10, 15, 20, 30)


@dataclass(frozen=True, slots=True)
class Options:
    """The timing being chosen for `seats`' players; `cursor` on one of `rows()`."""

    seats: Seats
    mode: str
    turn_s: int
    over: str
    bank_s: int
    increment_s: int
    delay_s: int
    cursor: int = 0

    @classmethod
    def of(cls, seats: Seats, defaults: TurnSettings) -> Options:
        d = defaults
        return cls(seats, d.mode, d.turn_s, d.over, d.bank_s, d.increment_s, d.delay_s)

    def rows(self) -> tuple[str, ...]:
        if self.mode == "limit":
            return ("mode", "turn", "over", "go")
        if self.mode == "hourglass":
            return ("mode", "bank", "go")
        return ("mode", "bank", "increment", "delay", "go")

    @property
    def row(self) -> str:
        return self.rows()[self.cursor]

    def setup(self) -> zz.Setup:
        players = self.seats.players
        if self.mode == "limit":
            return zz.Setup(players, "limit", self.turn_s * 1000, over=self.over)
        if self.mode == "hourglass":
            return zz.Setup(players, "hourglass", self.bank_s * 1000)
        return zz.Setup(players, self.mode, self.bank_s * 1000, increment_ms=self.increment_s * 1000,
                        delay_ms=self.delay_s * 1000)

    def stepped(self, steps: int) -> Options:
        """The value under the cursor `steps` choices on (negative: back)."""
        row = self.row
        if row == "mode":
            return replace(self, mode=_step(zz.MODES, self.mode, steps))
        if row == "over":
            return replace(self, over=_step(zz.OVER, self.over, steps))
        if row == "turn":
            return replace(self, turn_s=_step_preset(TURN_PRESETS, self.turn_s, steps))
        if row == "bank":
            return replace(self, bank_s=_step_preset(BANK_PRESETS, self.bank_s, steps))
        return self.with_extra(_step_preset(EXTRA_PRESETS, getattr(self, f"{row}_s"), steps))

    def with_extra(self, seconds: int) -> Options:
        """A Fischer increment or a Bronstein delay (the row under the cursor); one of them sets the other off."""
        if self.row == "increment":
            return replace(self, increment_s=seconds, delay_s=0 if seconds else self.delay_s)
        return replace(self, delay_s=seconds, increment_s=0 if seconds else self.increment_s)


def _step(choices: tuple[str, ...], value: str, steps: int) -> str:
    return choices[(choices.index(value) + steps) % len(choices)] if value in choices else choices[0]


def _step_preset(presets: tuple[int, ...], value: int, steps: int) -> int:
    """The preset `steps` on from `value` (a value between presets steps to its neighbours), wrapping."""
    if value in presets:
        return presets[(presets.index(value) + steps) % len(presets)]
    above = [i for i, p in enumerate(presets) if p > value]
    start = above[0] if above else 0
    return presets[(start + (steps - 1 if steps > 0 else steps)) % len(presets)]
