"""The end alarm ringing on, in every mode and game, until a button or `Settings.alarm_s`."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.app.state import AppState
from firmware_host.core.effects import Beep, Effect, Log
from firmware_host.core.events import CardScan, Event, LongPress, Press, TextEntry, Turn


def ring(state: AppState, event: Event, was_ringing: bool) -> tuple[AppState, list[Effect], bool]:
    """The ringing alarm: ends when its time is over or the timer is started again; any button (a press, a
    long press, a turn) that comes while it rang only silences it (True: the event is used up); a typed
    line or a scanned card silences it and counts as well (it is not lost); otherwise the alarm sounds
    again when due. "Zeit!" stays on screen either way."""
    ringing, now = state.ringing, state.now
    if ringing is None:
        return state, [], False
    if ringing.over(now) or not state.timer.alarmed:
        return replace(state, ringing=None), [], False
    if was_ringing and isinstance(event, (Press, LongPress, Turn)):
        return replace(state, ringing=None), [Log("alarm silenced at the table")], True
    if was_ringing and isinstance(event, (TextEntry, CardScan)):
        return replace(state, ringing=None), [Log("alarm silenced at the table")], False
    if ringing.due(now):
        return replace(state, ringing=ringing.rang(now)), [Beep("alarm", state.settings.volume)], False
    return state, [], False
