"""Any sequence of inputs in any mode — menus, timer, scoreboard, every game at the table — is answered,
never raised; every resulting screen renders on both panel sizes; an idle state survives its snapshot, and
the inputs after it, replayed on the snapshot, reach the same state (a journal session rolled over)."""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.core import app
from firmware_host.core.effects import Show, WakeAt
from firmware_host.core.events import (
    Button,
    CardScan,
    LongPress,
    PageInfo,
    Press,
    ReaderStatus,
    TextEntry,
    Tick,
    Turn,
)
from firmware_host.core.games.registry import GAMES
from firmware_host.core.settings import Settings
from firmware_host.render import render

pytestmark = pytest.mark.slow  # hypothesis over the whole app

TEXTS = ["", "5", "-3", "1:30", "Anna", "(QU)IT", "CAT", "Dschungel", "Hund", "Ärger", "B7", "x" * 40, "0"]

inputs = st.one_of(
    st.builds(Press, st.sampled_from([b for b in Button if b is not Button.MENU]), st.just(0.0)),
    st.builds(LongPress, st.sampled_from([b for b in Button if b is not Button.MENU]), st.just(0.0)),
    st.builds(Turn, st.integers(-3, 3), st.just(0.0)),
    st.builds(TextEntry, st.sampled_from(TEXTS), st.just(0.0)),
    st.builds(CardScan, st.just("rfid"), st.sampled_from(["QU", "A", "B/7", "0A1B2C3D4E"]), st.just(0.0)),
    st.builds(ReaderStatus, st.just("rfid"), st.booleans(), st.just(0.0)),
    st.builds(Tick, st.just(0.0)),
    st.builds(PageInfo, st.sampled_from(["", "http://wordtable.local:8080"]), st.just("K7Q2"), st.just(0.0)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([f"game:{g.id}" for g in GAMES] + ["timer", "scoreboard"]),
       st.lists(st.tuples(inputs, st.floats(0, 90)), max_size=60))
def test_no_input_sequence_raises_and_every_screen_renders(start, events):
    state = opened(Settings(), start)
    assert state.home == (start if not start.startswith("game:") else "game")
    now = 0.0
    replayed = None
    for event, pause in events:
        now += pause
        event = timed(event, now)
        state, effects = app.step(state, event)
        assert isinstance(effects[-1], WakeAt)
        screen = next(e.screen for e in effects if isinstance(e, Show))
        for size in ((128, 64), (256, 64)):
            assert render(screen, size).size == size
        replayed = replayed_on_snapshots(replayed, state, event)


def opened(settings, start):
    """A fresh table with `start` (a menu key) chosen from the menu."""
    state, _ = app.initial(settings)
    for event in app.events_to_open(state, start, 0.0) or []:
        state, _ = app.step(state, event)
    return state


def timed(event, now):
    """`event` as it happens at `now`."""
    return replace(event, **{"now" if isinstance(event, Tick) else "at": now})


def replayed_on_snapshots(replayed, state, event):
    """`replayed` (None before the first idle state) stepped by `event` as `state` was. Where `state` is
    idle, a journal session may roll over: `replayed` must agree with it there, and starts again from
    its snapshot, which must give `state` back."""
    if replayed is not None:
        replayed, _ = app.step(replayed, event)
    if not app.can_snapshot(state):
        return replayed
    saved = app.snapshot(state)
    if replayed is not None:  # the events since the last snapshot, replayed on it, agree
        assert_same_snapshot(app.snapshot(replayed), saved)
    replayed = app.restore(saved)  # what a fresh journal session starts from
    assert_same_snapshot(app.snapshot(replayed), saved)
    return replayed


def assert_same_snapshot(got, want):
    assert got["timer"]["left"] == pytest.approx(want["timer"]["left"], abs=1e-6)
    assert {**got, "timer": None} == {**want, "timer": None}


idle_inputs = st.one_of(
    st.builds(Press, st.sampled_from(list(Button)), st.just(0.0)),
    st.builds(LongPress, st.sampled_from([Button.START, Button.NEXT, Button.BACK]), st.just(0.0)),
    st.builds(Turn, st.integers(-2, 2), st.just(0.0)),
    st.builds(Tick, st.just(0.0)),
    st.builds(PageInfo, st.sampled_from(["", "http://wordtable.local:8080"]), st.just("K7Q2"), st.just(0.0)),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["timer", "scoreboard"]), st.lists(st.tuples(idle_inputs, st.floats(0, 40)), max_size=40))
def test_a_snapshot_taken_whenever_the_table_is_idle_replays_the_inputs_after_it_as_they_were(home, events):
    """The timer and the scoreboard as a long evening uses them (the alarm ringing, the menu, the page):
    a journal session may roll over at any idle moment, and replaying on its snapshot must agree."""
    state = opened(Settings(duration_s=30, presets=(30, 60)), home)
    now, replayed = 0.0, None
    for event, pause in events:
        now += pause
        event = timed(event, now)
        state, _ = app.step(state, event)
        replayed = replayed_on_snapshots(replayed, state, event)
