"""Tally's rules: points add up per player; 10 or more ends the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from firmware_host.core.games.rule_error import RuleError

TARGET = 10


@dataclass(frozen=True, slots=True)
class Setup:
    EVENT: ClassVar[str] = "setup"
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Point:
    EVENT: ClassVar[str] = "point"
    player: str
    points: int = 1


@dataclass(frozen=True, slots=True)
class Game:
    players: tuple[str, ...]
    totals: tuple[int, ...]

    @property
    def winner(self) -> str | None:
        return next((p for p, t in zip(self.players, self.totals, strict=True) if t >= TARGET), None)


def start(setup: Setup) -> Game:
    if len(setup.players) < 2:
        raise RuleError("Tally needs two players")
    return Game(setup.players, (0,) * len(setup.players))


def apply(game: Game, event: Point, line: int) -> Game:
    if event.player not in game.players:
        raise RuleError(f"{event.player} is not playing")
    if game.winner is not None:
        raise RuleError("the game is over")
    i = game.players.index(event.player)
    return Game(game.players, (*game.totals[:i], game.totals[i] + event.points, *game.totals[i + 1 :]))
