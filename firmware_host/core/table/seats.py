"""What the table flows share: choosing the players at a game's setup, and refusing an entry.

`Seats` is the setup screen's value: the player count (Turn/NEXT change it within the game's limits),
the names (configured ones first, else "Spieler N"; a typed line names the next seat in order) and who
starts (a long NEXT moves the first seat to the end). `refuse` is how every flow answers an entry the
rules or the screen do not allow: the flow stays, with an error beep and the reason in its footer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core.effects import Beep
from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Turn
from firmware_host.core.flow import Ctx, Flow, Outcome
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import texts
from firmware_host.core.scoreboard import player_names
from firmware_host.core.screens import ListItem, ListScreen
from firmware_host.core.text_field import TextField
from firmware_host.core.text_input import NAME, clean, refusal

TEXT = {
    "de": {
        "player_n": "Spieler {n}",
        "title": "{game}: {count} Spieler",
        "hint": "NEXT Anzahl · Namen: tippen/MENU · START los",
        "name_for": "Name für Platz {n}",
        "start_mark": "beginnt",
        "nothing_to_undo": "Nichts rückgängig zu machen",
    },
    "en": {
        "player_n": "Player {n}",
        "title": "{game}: {count} players",
        "hint": "NEXT count · names: type/MENU · START go",
        "name_for": "Name for seat {n}",
        "start_mark": "starts",
        "nothing_to_undo": "Nothing to undo",
    },
}


t = texts(TEXT)


@dataclass(frozen=True, slots=True)
class Seats:
    """The players being chosen: `names` holds a name per seat (at least `high` of them, the first
    `count` play); `typed` is how many seats were named by typing (the next typed name goes there)."""

    count: int
    names: tuple[str, ...]
    low: int
    high: int
    typed: int = 0

    @classmethod
    def of(cls, configured: tuple[str, ...], lang: str, low: int, high: int) -> Seats:
        count = max(low, min(high, len(configured) or 4))
        return cls(count, player_names(configured, high, t(lang, "player_n")), low, high)

    @property
    def players(self) -> tuple[str, ...]:
        return self.names[: self.count]

    def handle(self, event: Event) -> Seats | None:
        """The seats after a setup event; None when the event means nothing here."""
        if isinstance(event, Turn):
            return replace(self, count=max(self.low, min(self.high, self.count + event.steps)))
        if isinstance(event, Press) and event.button is Button.NEXT:
            return replace(self, count=self.low + (self.count + 1 - self.low) % (self.high - self.low + 1))
        if isinstance(event, LongPress) and event.button is Button.NEXT:
            order = (*self.players[1:], self.players[0])
            return replace(self, names=order + self.names[self.count :])
        if isinstance(event, TextEntry) and event.text.strip() and refusal(event.text, NAME) is None:
            seat = self.typed % self.count
            names = (*self.names[:seat], clean(event.text, NAME), *self.names[seat + 1 :])
            return replace(self, names=names, typed=seat + 1)
        return None

    def field(self, lang: str) -> TextField:
        """The name the setup waits for: the next seat's (the cursor's)."""
        return TextField(t(lang, "name_for", n=self.typed % self.count + 1), "name", NAME.limit)

    def screen(self, lang: str, game: str, footer: str) -> ListScreen:
        items = tuple(
            ListItem(name, t(lang, "start_mark") if i == 0 else "", i == 0) for i, name in enumerate(self.players)
        )
        cursor = self.typed % self.count
        return ListScreen(t(lang, "title", game=game, count=self.count), items, cursor, footer or t(lang, "hint"))


@dataclass(frozen=True, slots=True)
class Seating:
    """A game's first stage: its players being chosen."""

    seats: Seats


def refuse(flow: Flow, ctx: Ctx) -> Outcome:
    """An entry refused: `flow` is the unchanged flow carrying the reason for its footer (`message`); an error
    beep, and the refusal as data (`Outcome.refused`)."""
    reason = getattr(flow, "message", "")
    return Outcome(flow, (Beep("error", ctx.volume),), refused=reason if isinstance(reason, str) else "")


def named(outcome: Outcome, player: str) -> Outcome:
    """An entry from `player`'s phone: a refusal says whose phone it came from (the page shows the footer to
    every seat); a taken entry is left as it is."""
    flow: Any = outcome.flow  # a table flow, with its footer's `message`
    if outcome.refused is not None and flow is not None:
        message = f"{player}: {flow.message}"
        return replace(outcome, flow=replace(flow, message=message), refused=message)
    return outcome


def is_press(event: Event, *buttons: Button) -> bool:
    return isinstance(event, Press) and event.button in buttons


def is_hold(event: Event, *buttons: Button) -> bool:
    return isinstance(event, LongPress) and event.button in buttons


def cursor_step(event: Event) -> int | None:
    """How far an event moves a cursor: NEXT one on, a long NEXT one back, the encoder by its detents;
    None for any other event."""
    if isinstance(event, Turn):
        return event.steps
    if is_press(event, Button.NEXT):
        return 1
    if is_hold(event, Button.NEXT):
        return -1
    return None


def choose_players(
    seats: Seats,
    event: Event,
    ctx: Ctx,
    start: Callable[[tuple[str, ...]], Outcome],
    seated: Callable[[Seats, str], Flow],
) -> Outcome:
    """A setup's answer to `event`: BACK leaves the game; START (or the encoder's push) returns
    `start(players)`, whose `RuleError` is refused with its reason; a typed name that is not one
    (`text_input.NAME`) is refused with its reason; a change of the seats shows `seated(seats, message)`;
    anything else is refused."""
    if is_press(event, Button.BACK):
        return Outcome(None)
    if is_press(event, Button.START, Button.ENCODER):
        try:
            return start(seats.players)
        except RuleError as exc:
            return refuse(seated(seats, exc.text(ctx.lang)), ctx)
    refused = refusal(event.text, NAME) if isinstance(event, TextEntry) else None
    if refused is not None:
        return refuse(seated(seats, refused.text(ctx.lang)), ctx)
    moved = seats.handle(event)
    if moved is None:
        return refuse(seated(seats, ""), ctx)
    return Outcome(seated(moved, ""))
