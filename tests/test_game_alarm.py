"""The end alarm inside the games: like the timer's, it rings on (the LED bar flashing) until any button or
for `alarm_s`; the silencing press does nothing else; "Zeit!" stays on screen, without a stale footer; a
turn clock (Zugzeit) keeps its single alarm; `alarm_s = 0` rings once."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core import app
from firmware_host.core.alarm import RING_EVERY_S
from firmware_host.core.effects import SetBar, WakeAt
from firmware_host.core.events import Tick, Turn
from firmware_host.core.games.perfektes_wort.stages import Entering, Timing
from firmware_host.core.settings import TurnSettings
from firmware_host.core.timer import Timer
from tests.test_table_perfektes_wort import start as start_perfektes_wort
from tests.test_table_zugzeit import Clockwork


def knack(**settings) -> Clockwork:
    """Knack das Wort with a 30 s limit per turn, Anna and Ben seated; Anna's turn runs from 0.0."""
    clock = Clockwork(turns=TurnSettings(game_turn_s=30), **settings)
    for event in app.events_to_choose(clock.state, "Knack", 0.0):
        clock.send(event)
    clock.send(Turn(-2, 0.0)).type("Anna", "Ben").press("start")  # two players; Anna's turn from 0.0
    return clock


def alarms(clock: Clockwork) -> list[float]:
    return [t for t, pattern in clock.sounds if pattern == "alarm"]


def test_a_games_turn_limit_rings_on_flashing_the_bar_until_a_button_which_does_nothing_else():
    clock = knack()
    clock.press("back")  # nothing to undo: a footer that is stale once the time is up
    assert "Nichts rückgängig" in clock.text
    clock.bars.clear()
    clock.wait(30.0)  # Anna's 30 s are up at 30.0
    assert alarms(clock) == [30.0] and clock.state.ringing is not None
    assert "Zug 1 · Zeit! | Anna" in clock.text and "Nichts rückgängig" not in clock.text
    clock.wait(2 * RING_EVERY_S)
    assert alarms(clock) == [30.0, 32.5, 35.0]
    assert 0.0 in clock.bars and 1.0 in clock.bars  # the bar flashes
    lines, stage = len(clock.lines), clock.state.flow.stage
    clock.now += 0.1
    clock.press("next")  # NEXT would draw a card: while it rings it only silences
    assert clock.state.ringing is None and len(clock.lines) == lines and clock.state.flow.stage == stage
    assert "Zug 1 · Zeit! | Anna" in clock.text and clock.wake is None  # "Zeit!" stays; nothing more to wake for
    clock.wait(30)
    assert alarms(clock) == [30.0, 32.5, 35.0]
    clock.type("Haus")  # the next press or line acts again: Ben's turn, a fresh limit
    assert clock.text.startswith("Zug 2 · 0:30 | Ben")


def test_a_line_typed_while_it_rings_silences_it_and_counts_and_the_next_turn_shows_its_timer():
    clock = knack()
    clock.wait(31.0)
    assert clock.state.ringing is not None
    clock.type("Haus")  # Anna's word: taken, and the alarm is quiet
    assert clock.state.ringing is None and clock.lines[-1].get("word", "").upper() == "HAUS"
    assert clock.text.startswith("Zug 2 · 0:30 | Ben") and app.view(clock.state)[1] == SetBar(1.0)


def test_muted_the_alarm_still_flashes_and_keeps_zeit_on_screen_and_once_rings_once():
    clock = knack(volume="off")
    clock.bars.clear()
    clock.wait(36.0)
    assert clock.state.ringing is not None and 0.0 in clock.bars and 1.0 in clock.bars
    assert "Zeit!" in clock.text
    once = knack(alarm_s=0)
    once.wait(100.0)
    assert alarms(once) == [30.0] and once.state.ringing is None and "Zeit!" in once.text


def test_the_alarm_stops_by_itself_after_alarm_s_inside_a_game():
    clock = knack(alarm_s=30)
    clock.wait(100.0)
    assert alarms(clock) == [30.0 + k * RING_EVERY_S for k in range(12)]  # 30.0 … 57.5: 30 s from the end
    assert clock.state.ringing is None and clock.wake is None and "Zeit!" in clock.text


def test_das_perfekte_worts_round_end_rings_on_and_the_silencing_press_leaves_the_entry_as_it_was():
    table = start_perfektes_wort("Geli", "Klaus")
    table.press("next")  # reveal round 1
    table.press("start")  # the minute runs
    while isinstance(table.state.flow.stage, Timing):
        wake = app.view(table.state)[-1]
        assert isinstance(wake, WakeAt) and wake.at is not None
        table.now = wake.at
        table.step(Tick(table.now))
    assert isinstance(table.state.flow.stage, Entering) and table.state.ringing is not None
    rings = 0
    for _ in range(6):  # a few wake-ups: the alarm sounds again, the bar flashes
        wake = app.view(table.state)[-1]
        table.now = wake.at
        table.step(Tick(table.now))
        rings += table.beeps.count("alarm")
    assert rings >= 1 and table.state.ringing is not None
    picker_before = app.active_picker(table.state)
    table.press("next")  # would move the picker's cursor: only silences
    assert table.state.ringing is None and app.active_picker(table.state) == picker_before
    assert table.state.flow.stage == Entering(0)


def test_a_turn_clock_keeps_its_single_alarm_and_runs_on():
    """A turn clock (Zugzeit's, `count_on`) runs on past zero: a press there must not be swallowed."""
    state = replace(knack().state, timer=Timer.counting_on(10.0, 1.0, 10, 0.0, 0.0))
    state, _ = app.step(state, Tick(1.0))
    assert state.timer.alarmed and state.timer.running and state.ringing is None
