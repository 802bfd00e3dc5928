"""What a table without a keyboard does to enter a line: the button events of the letter picker.

`pick_events(state, text, at)` plans them on a copy of the state (pure `app.step`): open the picker from
the menu when the screen does not open it by itself, move the ring's cursor the short way round to each
letter (the encoder's detents, or NEXT / long NEXT without one), add it with START, submit with a long
START. Tests use the plan on the pure app, through the shell, or as presses on the mock pins.
"""

from __future__ import annotations

from firmware_host.core import app
from firmware_host.core.events import Button, Event, LongPress, Press, Turn
from firmware_host.core.text_picker import ring


def _symbol(ch: str) -> str:
    return ch if ch == "ß" else ch.upper()


def pick_events(state: app.AppState, text: str, at: float, *, encoder: bool = True) -> list[Event]:
    """The events that enter `text` through the letter picker on the screen `state` shows."""
    events: list[Event] = []

    def send(*more: Event) -> None:
        nonlocal state
        for event in more:
            state, _ = app.step(state, event)
            events.append(event)

    if app.active_picker(state) is None:
        field = app.entry_field(state)
        assert field is not None, f"no typed line is wanted on {app.screen(state)}"
        way = app.events_to_open(state, "letters", at)
        assert way is not None
        send(*way)
    for ch in text:
        picker = app.active_picker(state)
        assert picker is not None
        symbols = ring(picker.field)
        target = symbols.index(_symbol(ch))
        delta = (target - picker.cursor) % len(symbols)
        if delta > len(symbols) // 2:
            delta -= len(symbols)
        if delta and encoder:
            send(Turn(delta, at))
        elif delta:
            send(*([Press(Button.NEXT, at)] * delta if delta > 0 else [LongPress(Button.NEXT, at)] * -delta))
        send(Press(Button.START, at))
    send(LongPress(Button.START, at))
    return events


def presses(events: list[Event]) -> int:
    """How many times a button is pressed (short or long) in `events`; the encoder's turns are no presses."""
    return sum(1 for event in events if isinstance(event, Press | LongPress))
