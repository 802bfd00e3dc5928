"""The skeleton every recorded game at the table shares: setup, entry, undo, rebuild.

`Played` is a game in play: its rules (`games.rules.Rules`), the setup event, the table events entered
since (oldest first) and the rules core's game for them. It emits the record effects, so a flow never
writes a record line itself: `begin` opens the record (`BeginGame` and the setup line), `enter` applies
an event through the rules and appends its line (the event's line number counts the header and the
setup), `undo` retracts the last line and rebuilds the game from the setup and the events left.
A refused entry raises the rules' `RuleError` and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from firmware_host.core.effects import BeginGame, Effect, Record, Retract
from firmware_host.core.games.rules import Rules

G = TypeVar("G")
S = TypeVar("S")
E = TypeVar("E")

FIRST_EVENT_LINE = 3  # line 1 is the header, line 2 the setup


@dataclass(frozen=True, slots=True)
class Played(Generic[S, G, E]):
    rules: Rules[S, G, E]
    setup: S
    events: tuple[E, ...]
    game: G

    @classmethod
    def begin(
        cls, rules: Rules[S, G, E], setup: S, players: tuple[str, ...]
    ) -> tuple[Played[S, G, E], tuple[Effect, ...]]:
        """The game started from `setup` and the effects that open its record. Raises `RuleError`."""
        played = cls(rules, setup, (), rules.start(setup))
        return played, (BeginGame(rules.game, players), Record(rules.codec.encode(setup)))

    @property
    def last(self) -> E | None:
        return self.events[-1] if self.events else None

    def enter(self, event: E) -> tuple[Played[S, G, E], tuple[Effect, ...]]:
        """The game with `event` entered, and the effect that appends its line. Raises `RuleError`."""
        game = self.rules.apply(self.game, event, FIRST_EVENT_LINE + len(self.events))
        return replace(self, events=(*self.events, event), game=game), (Record(self.rules.codec.encode(event)),)

    def undo(self) -> tuple[Played[S, G, E], E, tuple[Effect, ...]] | None:
        """The game without its last event (rebuilt from the setup), that event, and the effect that
        retracts its line; None when no event was entered since the setup."""
        if not self.events:
            return None
        return self.rebuilt(self.events[:-1]), self.events[-1], (Retract(),)

    def rebuilt(self, events: tuple[E, ...]) -> Played[S, G, E]:
        """The game of the setup and `events` (each accepted when it was entered)."""
        game = self.rules.start(self.setup)
        for number, event in enumerate(events, start=FIRST_EVENT_LINE):
            game = self.rules.apply(game, event, number)
        return replace(self, events=events, game=game)
