"""Timer mode: the sand timer on screen. START (or TURN) starts and pauses, a long START flips, BACK sets
it back to full, NEXT takes the next preset length, the encoder or a typed line sets the length."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.app.actions import (
    clamp_duration,
    next_preset,
    refuse,
    set_duration,
    start_pause,
    typed_duration,
)
from firmware_host.core.app.state import AppState, MenuView, Step, t
from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Turn
from firmware_host.core.screens import BigScreen
from firmware_host.core.timer import format_seconds


def timer_event(state: AppState, event: Event) -> Step:
    s, timer, now = state.settings, state.timer, state.now
    cleared = replace(state, notice="")
    if isinstance(event, Press):
        if event.button in (Button.START, Button.TURN):
            return start_pause(cleared)
        if event.button is Button.BACK:
            if timer.running or not timer.countdown.is_full():
                return replace(cleared, timer=timer.reset()), []
            return refuse(state, "")
        if event.button is Button.NEXT:
            if timer.running:
                return refuse(state, t(s, "timer_running"))
            return set_duration(cleared, next_preset(s))
        if event.button is Button.MENU:
            return replace(cleared, overlay=MenuView()), []
        return refuse(state, "")
    if isinstance(event, LongPress):
        if event.button is Button.START:
            return replace(cleared, timer=timer.flip(now), notice=t(s, "flipped")), []
        return refuse(state, "")
    if isinstance(event, Turn):
        if timer.running:
            return refuse(state, t(s, "timer_running"))
        return set_duration(cleared, clamp_duration(s.duration_s + 5 * event.steps))
    if isinstance(event, TextEntry):
        if timer.running:
            return refuse(state, t(s, "timer_running"))
        seconds = typed_duration(state, event.text, event.text.strip())
        return seconds if isinstance(seconds, tuple) else set_duration(cleared, seconds)
    return state, []


def timer_status(state: AppState) -> str:
    timer = state.timer
    if timer.alarmed:
        return "done"
    if timer.running:
        return "running"
    return "ready" if timer.countdown.is_full() else "paused"


def timer_text(state: AppState) -> str:
    return t(state.settings, "time_up") if state.timer.alarmed else format_seconds(state.timer.left(state.now))


def timer_screen(state: AppState) -> BigScreen:
    s, status = state.settings, timer_status(state)
    title = f"{t(s, 'timer')} {format_seconds(state.timer.countdown.duration)}"
    if status in ("running", "paused", "ready"):
        title += f" · {t(s, status)}"
    hint = "hint_ringing" if state.ringing is not None else f"hint_{status}"
    footer = state.notice or t(s, hint)
    return BigScreen(title, timer_text(state), footer, inverted=status == "done")
