"""The actions several modes share: start/pause the timer, book points, set the length, change the
settings, refuse an input. Each takes a state and returns (state, effects)."""

from __future__ import annotations

import re
from dataclasses import replace

from firmware_host.core.app.state import AppState, Step, t
from firmware_host.core.effects import Beep, Effect, Log, Refused, SaveSettings
from firmware_host.core.flow import KeepsTime
from firmware_host.core.i18n import signed
from firmware_host.core.settings import MAX_DURATION_S, MIN_DURATION_S, Settings
from firmware_host.core.timer import parse_duration


def start_pause(state: AppState) -> Step:
    timer, now, volume = state.timer, state.now, state.settings.volume
    if timer.running:
        return replace(state, timer=timer.pause(now)), []
    return replace(state, timer=timer.start(now)), [Beep("start", volume)]


def add_points(state: AppState, points: int) -> Step:
    board = state.board.add(points)
    name, total = board.players[board.selected], board.totals[board.selected]
    notice = t(state.settings, "added", name=name, points=signed(points), total=total)
    return replace(state, board=board, notice=notice), []


def owns_timer(state: AppState) -> bool:
    """The timer shows the clock of the game on screen (the turn timer), not the sand timer's setting."""
    return state.home == "game" and isinstance(state.flow, KeepsTime)


def set_duration(state: AppState, seconds: int) -> Step:
    settings = replace(state.settings, duration_s=seconds)
    keep = state.timer.running or owns_timer(state)
    timer = state.timer if keep else state.timer.with_settings(seconds, settings.warn_s)
    return with_settings(replace(state, timer=timer), settings)


def with_settings(state: AppState, settings: Settings) -> Step:
    if settings == state.settings:
        return state, []
    return replace(state, settings=settings), [SaveSettings(settings.remembered())]


def refuse(state: AppState, message: str) -> Step:
    """An input that means nothing here: a short error beep and the refusal as data (`Refused`), and the
    reason in the log when there is one."""
    effects: list[Effect] = [Beep("error", state.settings.volume), Refused(message)]
    if message:
        effects.append(Log(message, "INFO"))
    return replace(state, notice=message or state.notice), effects


def typed_duration(state: AppState, text: str, shown: str) -> int | Step:
    """The length typed as `text` in seconds, or the refusal of one that is no length (`shown` quoted) or
    out of range."""
    seconds = parse_duration(text)
    if seconds is None:
        return refuse(state, t(state.settings, "not_a_duration", text=shown))
    if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
        return refuse(state, t(state.settings, "duration_range", low=MIN_DURATION_S, high=MAX_DURATION_S))
    return seconds


def next_preset(settings: Settings) -> int:
    later = [p for p in settings.presets if p > settings.duration_s]
    return later[0] if later else settings.presets[0]


def clamp_duration(seconds: int) -> int:
    return max(MIN_DURATION_S, min(MAX_DURATION_S, seconds))


_POINTS = re.compile(r"^\s*([-+−]?)\s*(\d{1,5})\s*$")


def parse_points(text: str) -> int | None:
    """A points change from "5", "+5", "-3" or "−3"; None when the text is not one."""
    match = _POINTS.match(text)
    if not match:
        return None
    value = int(match.group(2))
    return -value if match.group(1) in ("-", "−") else value
