"""The screen below the menu: the letter picker when it is open, else the game, the scoreboard or the
timer. While the picker is open the buttons pick letters and a long START hands the line to the screen."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.app.actions import refuse
from firmware_host.core.app.host import apply, ctx
from firmware_host.core.app.scoreboard_mode import scoreboard_event
from firmware_host.core.app.screens import screen_below
from firmware_host.core.app.state import AppState, MenuView, Step, picked
from firmware_host.core.app.text_edge import active_picker, edge_checked, picks
from firmware_host.core.app.timer_mode import timer_event
from firmware_host.core.effects import Beep, Effect, Refused
from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Turn
from firmware_host.core.text_field import typed
from firmware_host.core.text_input import TextRefused
from firmware_host.core.text_picker import Picker


def home_event(state: AppState, event: Event) -> Step:
    """An event for the screen below the menu."""
    picker = active_picker(state)
    if picker is not None and picks(event):
        return picker_event(state, picker, event)
    if isinstance(event, TextEntry):
        state = picked(state, None)  # a line came from elsewhere: the picker is done
    if state.home == "game" and (flow := state.flow) is not None:
        if isinstance(event, Press) and event.button is Button.MENU:
            return replace(state, overlay=MenuView(), notice=""), []
        return apply(replace(state, notice=""), flow.handle(event, ctx(state)))
    if state.home == "scoreboard":
        return scoreboard_event(state, event)
    return timer_event(state, event)


def picker_event(state: AppState, picker: Picker, event: Event) -> Step:
    cleared = replace(state, notice="")
    if isinstance(event, Turn):
        return picked(cleared, picker.moved(event.steps)), []
    if isinstance(event, LongPress) and event.button is Button.NEXT:
        return picked(cleared, picker.moved(-1)), []
    if isinstance(event, LongPress):  # START or the encoder's push: the line is done
        return submit(cleared, picker, event.at)
    assert isinstance(event, Press)
    if event.button is Button.NEXT:
        return picked(cleared, picker.moved(1)), []
    if event.button in (Button.START, Button.ENCODER):
        added = picker.added()
        full: list[Effect] = [Beep("error", state.settings.volume), Refused("")] if added.full else []
        return picked(cleared, added), full
    if picker.text:  # BACK takes the last letter off
        return picked(cleared, picker.deleted()), []
    if picker.field.only:  # BACK on an empty line is the screen's BACK (undo)
        closed = picked(state, None)
        if state.home == "game" and state.flow is not None:
            return apply(replace(closed, notice=""), state.flow.handle(event, ctx(state)))
        return closed, []
    return picked(cleared, None), []  # BACK on an empty line closes the picker


def submit(state: AppState, picker: Picker, at: float) -> Step:
    """The picked line handed to the screen as a typed line. Refused there (`Refused`): the picker stays
    open with the line, the reason in its footer."""
    checked = edge_checked(typed(picker.line(), at))
    if isinstance(checked, TextRefused):
        refused, effects = refuse(state, checked.text(state.settings.lang))
        return picked(refused, picker), effects
    after, effects = home_event(picked(state, None), checked)
    if any(isinstance(effect, Refused) for effect in effects):
        return replace(picked(after, picker), notice=after.notice or screen_below(after).footer), effects
    return after, effects
