"""A resume snapshot holds the whole table: the state it gives back, folded on with the inputs after it,
is the state the full fold gives — for every game kind after random inputs, and at every step of the
scripted games (hypothesis; firmware_host/snapshots.py)."""

from __future__ import annotations

from contextlib import suppress
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core import app
from firmware_host.core.event_codec import decode
from firmware_host.core.events import Button, Event, LongPress, Press, Tick, Turn
from firmware_host.core.settings import Settings
from firmware_host.snapshots import dumps, loads
from tests.helpers.crash import timeline

pytestmark = pytest.mark.slow  # hypothesis

GAMES = ("turn-timer", "perfektes-wort", "quiddler", "knack-das-wort", "perfect-words")
SCRIPTS = (*GAMES, "timer", "scoreboard", "deck")


@cache
def script_events(script: str) -> tuple[Event, ...]:
    return tuple(decode(dict(payload)) for _, payload in timeline(f"{script}.script"))


def fold(state: app.AppState, events: list[Event]) -> app.AppState:
    for event in events:
        with suppress(Exception):  # what the shell's replay sets aside, both folds alike
            state = app.fold(state, event)
    return state


def round_trip(state: app.AppState) -> app.AppState:
    return loads(dumps(state))


buttons = st.sampled_from(list(Button))
gaps = st.floats(min_value=0.05, max_value=90.0, allow_nan=False)
inputs = st.lists(st.tuples(st.sampled_from(["press", "long", "turn", "tick"]), buttons,
                            st.integers(min_value=-3, max_value=3), gaps), max_size=40)


def made(drawn: list[tuple[str, Button, int, float]], start: float) -> list[Event]:
    events: list[Event] = []
    now = start
    for kind, button, steps, gap in drawn:
        now += gap
        events.append(Press(button, now) if kind == "press" else LongPress(button, now) if kind == "long"
                      else Turn(steps or 1, now) if kind == "turn" else Tick(now))
    return events


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), opened=st.floats(min_value=0.3, max_value=1.0), drawn=inputs,
       cut=st.floats(min_value=0.0, max_value=1.0))
def test_a_snapshot_and_the_inputs_after_it_give_the_full_fold(game: str, opened: float,
                                                                drawn: list[tuple[str, Button, int, float]],
                                                                cut: float) -> None:
    script = list(script_events(game))
    script = script[: max(1, int(len(script) * opened))]
    start = max((getattr(event, "at", getattr(event, "now", 0.0)) for event in script), default=0.0)
    events = script + made(drawn, start)
    at = int(len(events) * cut)
    initial = app.initial(Settings())[0]
    before = fold(initial, events[:at])
    copy = round_trip(before)
    assert copy == before
    assert fold(copy, events[at:]) == fold(before, events[at:])


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_step_of_a_scripted_game_survives_a_snapshot(script: str) -> None:
    state = app.initial(Settings())[0]
    for event in script_events(script):
        copy = round_trip(state)
        assert copy == state
        state = app.fold(state, event)
        assert app.fold(copy, event) == state
