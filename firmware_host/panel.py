"""The OLED's contrast, dimming when the table is idle, and a burn-in guard that blanks it after long idle.

Shell-side (time and I/O): the core only holds the choices (`Settings.contrast`, `dim_after_min`,
`blank_after_min`). The table counts as idle while no input comes and neither a timer runs nor an alarm
rings. After `dim_after_min` minutes idle the panel drops to a low contrast, after `blank_after_min` it is
switched off (luma's `hide`: nothing is lit, nothing burns in). Any input brings it back; an input that
finds the panel blank only wakes it (nobody saw what they pressed). 0 minutes: never.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

DIM_CONTRAST = 8  # the dimmed level: barely lit, still readable up close


class Panel(Protocol):
    def set_contrast(self, level: int) -> None: ...

    def set_visible(self, visible: bool) -> None: ...


@dataclass
class PanelGuard:
    """Drives `panel` from the settings and the table's activity; `next_at` is when it next changes."""

    panel: Panel
    contrast: int = 255
    dim_after_s: float = 0.0
    blank_after_s: float = 0.0
    last_active: float | None = None  # None: nothing seen yet (idle counts from the first moment told)
    level: int | None = None  # the contrast set on the panel
    blank: bool = False

    def configure(self, contrast: int, dim_after_min: int, blank_after_min: int, now: float) -> None:
        """New choices: applied at once (the panel lit at the new contrast when it is not idle yet)."""
        changed = (contrast, dim_after_min * 60.0, blank_after_min * 60.0) != (
            self.contrast, self.dim_after_s, self.blank_after_s)
        self.contrast, self.dim_after_s, self.blank_after_s = contrast, dim_after_min * 60.0, blank_after_min * 60.0
        if changed or self.level is None:
            self.check(now)

    def active(self, now: float) -> bool:
        """The table did something (or a timer runs): full contrast. True when the panel was blank."""
        self.last_active = now if self.last_active is None else max(self.last_active, now)
        was_blank = self.blank
        self.check(now)
        return was_blank

    def next_at(self) -> float | None:
        """The next moment the panel changes by itself (None: never)."""
        if self.last_active is None:
            return None
        due = []
        if self.dim_after_s > 0 and self.level != min(self.contrast, DIM_CONTRAST):
            due.append(self.last_active + self.dim_after_s)
        if self.blank_after_s > 0 and not self.blank:
            due.append(self.last_active + self.blank_after_s)
        return min(due) if due else None

    def check(self, now: float) -> None:
        """Set the panel for `now`: lit, dimmed or blank."""
        if self.last_active is None:
            self.last_active = now
        # Measured as `next_at` measures it, so that acting at the moment it named always acts.
        blank = self.blank_after_s > 0 and now >= self.last_active + self.blank_after_s
        dim = self.dim_after_s > 0 and now >= self.last_active + self.dim_after_s
        level = min(self.contrast, DIM_CONTRAST) if dim else self.contrast
        if blank != self.blank:
            self.blank = blank
            self.panel.set_visible(not blank)
        if level != self.level:
            self.level = level
            self.panel.set_contrast(level)
