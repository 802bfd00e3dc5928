"""Typed text at the core's edge: every event's text normalised (`edge_checked`), the typed line the screen
waits for (`field_below`, `entry_field`), the letter picker that takes the buttons for it (`active_picker`)
and the footer while a keyboard types (`entry_line`)."""

from __future__ import annotations

from firmware_host.core.app.host import ctx
from firmware_host.core.app.state import AppState, t
from firmware_host.core.event_codec import edge_cleaned
from firmware_host.core.events import Button, Event, LongPress, Press, Turn
from firmware_host.core.text_field import TextField, too_long
from firmware_host.core.text_input import NAME, TextRefused
from firmware_host.core.text_picker import Picker

TYPING_SHOWN = 200  # the most of a keyboard's line in the making that the state holds
ENTRY_SHOWN = 18  # the last characters of a typed line that the footer shows


def edge_checked(event: Event) -> Event | TextRefused:
    """The event with its text normalised (`event_codec.edge_cleaned`: each text field to its kind in
    `event_codec.CODEC` — a typed line as a `LINE`, a card's reader and code as `CODE`s), or why it is
    refused. Every event passes here, so no other part of the core sees text that is not normalised — not
    even one replayed from a journal written before the edges checked it."""
    try:
        return edge_cleaned(event)
    except TextRefused as exc:
        return exc


def field_below(state: AppState) -> TextField | None:
    """The typed line the screen below the menu waits for: the game's field, or on the free scoreboard a
    name or points for the selected player; None elsewhere (the timer takes its length by the buttons)."""
    if state.home == "game" and state.flow is not None:
        return state.flow.text_field(ctx(state))
    if state.home == "scoreboard":
        name = state.board.players[state.board.selected]
        return TextField(t(state.settings, "board_field", name=name), "name", NAME.limit)
    return None


def entry_field(state: AppState) -> TextField | None:
    """The typed line the screen on display waits for (None while the menu is open or none is wanted)."""
    return field_below(state) if state.overlay is None else None


def active_picker(state: AppState) -> Picker | None:
    """The letter picker taking the buttons now: the one opened for the field on display, or a fresh one
    where text is the field's only input."""
    field = entry_field(state)
    if field is None:
        return None
    if state.picker is not None:
        return state.picker
    return Picker(field) if field.only else None


def picks(event: Event) -> bool:
    """Whether the open picker takes `event` (MENU and the app's long presses stay the app's)."""
    if isinstance(event, Turn):
        return True
    if isinstance(event, Press):
        return event.button is not Button.MENU
    if isinstance(event, LongPress):
        return event.button in (Button.NEXT, Button.START, Button.ENCODER)
    return False


def entry_line(state: AppState) -> str:
    """The footer while a line is typed on a keyboard: its end and a cursor, or that it is too long."""
    text = state.typing
    message = too_long(state.settings.lang, entry_field(state), text)
    if message is not None:
        return message
    return "› " + (text if len(text) <= ENTRY_SHOWN else "…" + text[-ENTRY_SHOWN + 1 :]) + "▏"
