"""What the table flows share: choosing the players at a game's setup, and refusing an entry.

`Seats` is the setup screen's value: the player count (Turn/NEXT change it within the game's limits),
the names (the configured ones — the last players — first, then the roster's other people, recently played
first, and only then "Spieler N"; a typed line names the cursor seat and moves the cursor on, a long START
seats the roster's next person not playing at the cursor seat) and who starts (a long NEXT moves the first
seat to the end). `refuse` is how every flow answers an entry the rules or the screen do not allow: the flow
stays, with an error beep and the reason in its footer.
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
from firmware_host.core.roster import is_placeholder
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
    `count` play); `typed` is the cursor seat (modulo `count`: the next typed name goes there);
    `people` are the roster's people by name, recently played first; `was` is who sat at the cursor seat
    when long STARTs began to offer it others (None: no offer under way)."""

    count: int
    names: tuple[str, ...]
    low: int
    high: int
    typed: int = 0
    people: tuple[str, ...] = ()
    was: str | None = None

    @classmethod
    def of(cls, configured: tuple[str, ...], lang: str, low: int, high: int, people: tuple[str, ...]) -> Seats:
        """The setup for the `configured` names (the last players) and the roster's `people`: the configured
        names first — a placeholder among them ("Spieler 2") is a free seat, taken by the roster's next
        person not configured —, then the roster's other people, then "Spieler N". As many play as are
        configured; when none are, 4 (fewer when the roster knows fewer people, none of them configured)."""
        given = player_names(configured[:high], len(configured[:high]), "")
        others = iter([p for p in people if p not in given])
        names = [next(others, name) if is_placeholder(name) else name for name in given]
        names.extend(others)
        count = len(configured) or (min(len(people), 4) if people else 4)
        filled = player_names(tuple(names[:high]), high, t(lang, "player_n"))
        return cls(max(low, min(high, count)), filled, low, high, people=people)

    @property
    def players(self) -> tuple[str, ...]:
        return self.names[: self.count]

    def handle(self, event: Event) -> Seats | None:
        """The seats after a setup event; None when the event means nothing here."""
        if isinstance(event, LongPress) and event.button is Button.START:
            return self.offered()
        seats = replace(self, was=None)
        if isinstance(event, Turn):
            return replace(seats, count=max(self.low, min(self.high, self.count + event.steps)))
        if isinstance(event, Press) and event.button is Button.NEXT:
            return replace(seats, count=self.low + (self.count + 1 - self.low) % (self.high - self.low + 1))
        if isinstance(event, LongPress) and event.button is Button.NEXT:
            order = (*self.players[1:], self.players[0])
            return replace(seats, names=order + self.names[self.count :])
        if isinstance(event, TextEntry) and event.text.strip() and refusal(event.text, NAME) is None:
            seat = self.typed % self.count
            typed = clean(event.text, NAME)
            name = next((p for p in self.people if p.casefold() == typed.casefold()), typed)  # as the roster spells it
            return replace(seats, names=self._seat(seat, name), typed=seat + 1)
        return None

    def offered(self) -> Seats:
        """A long START: the cursor seat's next offer, in roster order, of the people not seated; after the
        last of them, who sat there when the offers began, and the cursor moves on to the next seat."""
        seat = self.typed % self.count
        was = self.names[seat] if self.was is None else self.was
        seated = set(self.players[:seat] + self.players[seat + 1 :])
        offers = (was, *(p for p in self.people if p not in seated and p != was))
        now = self.names[seat]
        following = offers.index(now) + 1 if now in offers else len(offers)
        if following < len(offers):
            return replace(self, names=self._seat(seat, offers[following]), was=was)
        return replace(self, names=self._seat(seat, was), typed=seat + 1, was=None)

    def _seat(self, seat: int, name: str) -> tuple[str, ...]:
        """The names with `name` at `seat`; a seat not playing that held `name` gets the name it displaces."""
        names = list(self.names)
        if name in names[self.count :]:
            names[names.index(name, self.count)] = names[seat]
        names[seat] = name
        return tuple(names)

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
