"""Das perfekte Wort's minute after a power cut (issue 38): it comes back paused at the time it had left, the
screen and the phones say so, START runs the sand on from there (it does not end the minute), and the
round ends at the resumed deadline with the alarm. Pure: the app stepped by events, the clock in them."""

import pytest

from firmware_host.core import page_view
from firmware_host.core.effects import Beep
from firmware_host.core.events import Button, LongPress, Press, Resumed, Tick, Turn, event_time
from firmware_host.core.games.perfektes_wort.stages import Calling, Entering, Revealing, Timing
from tests.table_driver import Table
from tests.test_table_perfektes_wort import start

RESTART_AT = 1000.0  # the new process's monotonic clock


def cut_during_the_minute(lang="de", after=20.0):
    """A game of two whose first minute ran `after` seconds when the box lost power and came back."""
    table = start("Geli", "Klaus", lang=lang)
    table.press("next")  # round 1's card
    table.press("start")  # the sand runs
    began = table.now
    table.now += after
    table.step(Tick(table.now))  # the last event journaled before the cut
    assert table.state.timer.left(table.now) == pytest.approx(60 - after)
    table.now = RESTART_AT
    return table.step(Resumed(RESTART_AT, off_s=2.0)), began


def at(table: Table, event):
    table.now = event_time(event)
    return table.step(event)


def test_the_minute_comes_back_paused_at_its_time_left_and_the_screen_says_start_runs_it_on():
    table, _ = cut_during_the_minute()
    state = table.state
    assert isinstance(state.flow.stage, Timing)
    assert not state.timer.running and state.timer.left(state.now) == pytest.approx(40)
    assert table.screen.big.endswith("0:40")
    assert table.screen.footer == "Sanduhr angehalten: 0:40 – START läuft weiter"
    assert state.notice == ""  # no "Fortgesetzt – Timer pausiert" over the game's own words


def test_the_phones_say_that_the_minute_stands_paused():
    table, _ = cut_during_the_minute()
    play = page_view.page_view(table.state, 0)["play"]
    assert play["stage"] == "timing" and play["asks"] == "word"
    assert play["status"] == "Sanduhr angehalten bei 0:40 – START am Gerät lässt sie weiterlaufen"
    table.press("start")
    assert "status" not in page_view.page_view(table.state, 0)["play"]  # the sand runs: nothing to say


def test_start_runs_the_sand_on_and_the_round_ends_at_the_resumed_deadline_with_the_alarm():
    table, _ = cut_during_the_minute()
    lines = len(table.lines)
    at(table, Press(Button.START, RESTART_AT + 3))
    state = table.state
    assert isinstance(state.flow.stage, Timing) and state.timer.running
    assert state.timer.countdown.deadline == pytest.approx(RESTART_AT + 3 + 40)
    assert table.beeps == ["start"] and len(table.lines) == lines  # nothing entered: the minute goes on
    assert table.screen.footer == "START: Eingabe sofort"
    at(table, Tick(RESTART_AT + 42.9))
    assert isinstance(table.state.flow.stage, Timing) and table.state.timer.running
    at(table, Tick(RESTART_AT + 43.0))
    assert "alarm" in table.beeps
    assert isinstance(table.state.flow.stage, Entering) and table.state.timer.alarmed


def test_a_second_start_on_the_running_sand_still_ends_the_minute():
    table, _ = cut_during_the_minute()
    at(table, Press(Button.START, RESTART_AT + 1))
    at(table, Press(Button.START, RESTART_AT + 5))
    assert isinstance(table.state.flow.stage, Entering) and not table.state.timer.running


def test_the_encoder_push_runs_the_paused_sand_on_as_start_does():
    table, _ = cut_during_the_minute()
    at(table, Press(Button.ENCODER, RESTART_AT + 1))
    assert isinstance(table.state.flow.stage, Timing) and table.state.timer.running


@pytest.mark.parametrize("event", [
    Press(Button.NEXT, RESTART_AT + 1), LongPress(Button.NEXT, RESTART_AT + 1),
    LongPress(Button.START, RESTART_AT + 1), Press(Button.TURN, RESTART_AT + 1), Turn(1, RESTART_AT + 1),
])
def test_other_keys_change_nothing_and_the_screen_still_says_what_runs_the_sand_on(event):
    table, _ = cut_during_the_minute()
    before = table.state.flow
    at(table, event)
    assert table.state.flow == before and not table.state.timer.running
    assert table.beeps == ["error"]
    assert table.screen.footer == "Sanduhr angehalten: 0:40 – START läuft weiter"


def test_back_on_the_paused_minute_takes_the_card_back_as_on_the_running_one():
    table, _ = cut_during_the_minute()
    at(table, Press(Button.BACK, RESTART_AT + 1))
    assert isinstance(table.state.flow.stage, Revealing)
    assert table.state.timer.countdown.is_full() and not table.state.timer.running


def test_the_paused_minute_in_english():
    table, _ = cut_during_the_minute(lang="en", after=23.5)
    assert table.screen.footer == "Sand timer paused: 0:37 – START runs on"
    play = page_view.page_view(table.state, 1)["play"]
    assert play["status"] == "Sand timer paused at 0:37 – START on the box runs it on"


def test_a_cut_while_the_timer_screen_was_shown_keeps_the_resume_notice():
    table = start("Geli", "Klaus")
    table.press("next").press("start")
    table.hold("back")  # the timer alone; the game's minute runs on behind it (a second after START)
    assert table.state.home == "timer" and table.state.timer.running
    table.now += 10
    table.step(Tick(table.now))
    table.now = RESTART_AT
    table.step(Resumed(RESTART_AT, off_s=1.0))
    assert table.state.notice == "Fortgesetzt – Timer pausiert"
    table.hold("back")  # back to the game: its screen says how the sand runs on
    assert table.screen.footer == "Sanduhr angehalten: 0:49 – START läuft weiter"
    table.press("start")
    assert isinstance(table.state.flow.stage, Timing) and table.state.timer.running


def test_a_minute_whose_time_ran_out_while_the_box_was_off_comes_back_at_the_word_entry():
    table = start("Geli", "Klaus")
    table.press("next").press("start")
    table.now += 20
    table.step(Tick(table.now))
    table.step(Resumed(RESTART_AT, off_s=3600.0))
    assert isinstance(table.state.flow.stage, Entering) and not table.state.timer.running
    assert not table.state.flow.explains_pause(_ctx(table))


def test_the_call_before_the_sand_runs_is_no_paused_minute():
    table = start("Geli", "Klaus")
    table.press("next")
    assert isinstance(table.state.flow.stage, Calling)
    assert not table.state.flow.explains_pause(_ctx(table))
    table.press("start")
    assert isinstance(table.state.flow.stage, Timing) and table.state.timer.running
    assert not table.state.flow.explains_pause(_ctx(table))
    assert not any(isinstance(e, Beep) and e.pattern == "error" for e in table.effects)


def _ctx(table):
    from firmware_host.core.app.host import ctx

    return ctx(table.state)
