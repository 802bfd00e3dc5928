"""Tally at the table: the shared setup, then START adds a point for the player on turn; BACK undoes."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.core.effects import EndGame
from firmware_host.core.events import Button, Event
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.screens import ListItem, ListScreen, Screen
from firmware_host.core.table.played import Played
from firmware_host.core.table.seats import Seats, choose_players, is_press, refuse
from firmware_host.core.text_field import TextField

from .record import RULES
from .rules import Game, Point, Setup


@dataclass(frozen=True, slots=True)
class TallyFlow:
    seats: Seats
    played: Played[Setup, Game, Point] | None = None
    turn: int = 0
    message: str = ""

    @property
    def game(self) -> str:
        return "tally"

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        if self.played is None:
            return choose_players(self.seats, event, ctx, self._begin,
                                  lambda seats, message: replace(self, seats=seats, message=message))
        if self.played.game.winner is not None:
            return Outcome(None, (EndGame(self.played.game.winner),))
        players = self.played.setup.players
        if is_press(event, Button.START):
            played, effects = self.played.enter(Point(players[self.turn]))
            return Outcome(replace(self, played=played, turn=(self.turn + 1) % len(players)), effects)
        if is_press(event, Button.BACK):
            step = self.played.undo()
            if step is None:
                return refuse(self, ctx)
            played, _, effects = step
            return Outcome(replace(self, played=played, turn=(self.turn - 1) % len(players)), effects)
        return refuse(self, ctx)

    def _begin(self, players: tuple[str, ...]) -> Outcome:
        played, effects = Played.begin(RULES, Setup(players), players)
        return Outcome(replace(self, played=played), effects)

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(self)

    def text_field(self, ctx: Ctx) -> TextField | None:
        return self.seats.field(ctx.lang) if self.played is None else None

    def screen(self, ctx: Ctx) -> Screen:
        if self.played is None:
            return self.seats.screen(ctx.lang, "Tally", self.message)
        game = self.played.game
        items = tuple(ListItem(p, str(t)) for p, t in zip(game.players, game.totals, strict=True))
        return ListScreen("Tally", items, self.turn, self.message)


def new(ctx: Ctx, names: tuple[str, ...]) -> TallyFlow:
    return TallyFlow(Seats.of(names, ctx.lang, 2, 4, ctx.people))
