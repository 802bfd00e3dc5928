"""Perfect Words' stages at the table, each a value holding its own cursor (`table.PerfectWordsFlow.stage`;
its `STAGES` say what each does and shows): the seating, the arrows of phase 1, the terms, the choice of
the doubled and the ignored arrow, the reveal, the final standing."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.core.table.seats import Seating
from firmware_host.core.table.stage_bases import Plain


class Arrows(Plain):
    """Phase 1: the arrows placed on the grid, each with its clue words."""


@dataclass(frozen=True, slots=True)
class Terms:
    slot: int = 0  # player index × 10 + arrow index
    strikable: tuple[str, int] | None = None  # the term just entered, warned by P2


@dataclass(frozen=True, slots=True)
class Choosing:
    cursor: int = 0  # the arrow index
    first: int | None = None  # the doubled arrow's index, once marked


@dataclass(frozen=True, slots=True)
class Revealing:
    arrow: int = 1  # the arrow on screen
    cursor: int = 0  # the group index
    first: int | None = None  # the first selected group


class Final(Plain):
    """The final standing."""


Stage = Seating | Arrows | Terms | Choosing | Revealing | Final
