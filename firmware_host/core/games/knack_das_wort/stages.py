"""Knack das Wort's stages at the table (`table.KnackFlow.stage`; its `STAGES` say what each does and
shows): the seating, the turns, the action menu, the scoreboard; and the action cards the menu offers."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.core.table.seats import Seating

CARDS = ("Stop", "Zieh 2")  # the action cards offered in the menu; any other can be typed there


@dataclass(frozen=True, slots=True)
class Playing:
    """The turns, then the cards left (`left`: the count being entered for the next player), then the ranking."""

    left: int = 0


@dataclass(frozen=True, slots=True)
class ActionMenu:
    cursor: int = 0


@dataclass(frozen=True, slots=True)
class Scoreboard:
    pass


Stage = Seating | Playing | ActionMenu | Scoreboard
