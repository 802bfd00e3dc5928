"""Zugzeit's stages once the timing is chosen (the table's and the phones' view of them; pure)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Playing:
    """The clock on screen; `actions`: the actions menu's cursor while it is open; `overview`: every
    player's time."""

    actions: int | None = None
    overview: bool = False


@dataclass(frozen=True, slots=True)
class Stats:
    """The statistics, showing `FIGURES[figure]`; `ended_ms`: when the clock itself ended the game."""

    figure: int = 0
    ended_ms: float | None = None
