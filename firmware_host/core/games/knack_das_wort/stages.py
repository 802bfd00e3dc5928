"""Knack das Wort's stages at the table (`table.KnackFlow.stage`; its `STAGES` say what each does and
shows): the seating, the turns, the action menu, the scoreboard; and the action cards the menu offers."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.core.table.seats import Seating
from firmware_host.core.table.stage_bases import Picking, Plain

CARDS = ("Stop", "Zieh 2")  # the action cards offered in the menu; any other can be typed there


@dataclass(frozen=True, slots=True)
class Playing:
    """The turns, then the cards left (`left`: the count being entered for the next player), then the ranking."""

    left: int = 0


class ActionMenu(Picking):
    """The action menu of the player on turn: an action card (`CARDS`), draw or pass, out of cards."""


class Scoreboard(Plain):
    """The points so far."""


Stage = Seating | Playing | ActionMenu | Scoreboard
