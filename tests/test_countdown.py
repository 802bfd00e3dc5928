"""The sand timer's arithmetic: deadlines, pause, flip, reset."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.countdown import Countdown
from firmware_host.core.timer import Timer, format_seconds


def test_runs_from_a_deadline_computed_once():
    c = Countdown.of(60).start(100.0)
    assert c.deadline == 160.0
    assert c.left(130.0) == 30.0
    assert c.left(170.0) == 0.0


def test_pause_keeps_what_is_left_and_resume_continues():
    c = Countdown.of(60).start(0.0).pause(20.0)
    assert not c.running and c.left(500.0) == 40.0
    c = c.start(1000.0)
    assert c.deadline == 1040.0


def test_flip_turns_the_hourglass_over_while_running():
    c = Countdown.of(60).start(0.0).flip(15.0)  # 45 left -> 15 left
    assert c.left(15.0) == 15.0
    assert c.deadline == 30.0


def test_flip_while_paused():
    c = Countdown.of(90).start(0.0).pause(30.0).flip(31.0)
    assert c.left(99.0) == 30.0 and not c.running


def test_finished_timer_starts_again_from_full():
    c = Countdown.of(30).start(0.0).pause(40.0)
    assert c.left(40.0) == 0.0
    assert c.start(50.0).deadline == 80.0


@pytest.mark.slow
@given(st.floats(1, 3600), st.floats(0, 1e6), st.floats(0, 4000))
def test_flip_twice_is_identity(duration, start, elapsed):
    c = Countdown.of(duration).start(start)
    now = start + elapsed
    twice = c.flip(now).flip(now)
    assert abs(twice.left(now) - c.left(now)) < 1e-6


@pytest.mark.slow
@given(st.floats(0, 10000))
def test_format_rounds_up_to_whole_seconds(seconds):
    text = format_seconds(seconds)
    minutes, secs = text.split(":")
    shown = int(minutes) * 60 + int(secs)
    assert shown >= seconds - 1e-6 and shown - seconds < 1


def test_format_examples():
    assert format_seconds(60) == "1:00"
    assert format_seconds(59.2) == "1:00"
    assert format_seconds(0.01) == "0:01"
    assert format_seconds(0) == "0:00"
    assert format_seconds(605) == "10:05"


def test_bar_level_drains_to_zero_only_at_the_end():
    t = Timer.of(60, 10).start(0.0)
    assert t.bar_level(0.0) == 1.0
    assert t.bar_level(30.0) == 0.5
    assert 0 < t.bar_level(59.99) <= 1 / 160
    assert t.bar_level(60.0) == 0.0


def test_warning_beeps_once_per_second_in_the_last_ten():
    t = Timer.of(60, 10).start(0.0)
    beeps = []
    now = 0.0
    while t.running:
        now = t.next_wake(now)
        t, effects = t.tick(now, "normal")
        beeps += [(round(now, 6), e.pattern) for e in effects if hasattr(e, "pattern")]
    assert [b for b in beeps if b[1] == "warn"] == [(float(60 - k), "warn") for k in range(10, 0, -1)]
    assert beeps[-1] == (60.0, "alarm")


def test_no_warnings_when_off():
    t = Timer.of(20, 0).start(0.0)
    now, patterns = 0.0, []
    while t.running:
        now = t.next_wake(now)
        t, effects = t.tick(now, "normal")
        patterns += [e.pattern for e in effects if hasattr(e, "pattern")]
    assert patterns == ["alarm"]


def test_flip_into_the_warning_zone_skips_passed_warnings():
    t = Timer.of(60, 10).start(0.0).flip(7.5)  # 52.5 left -> 7.5 left, ends at 15.0
    now, warns = 7.5, []
    while t.running:
        now = t.next_wake(now)
        t, effects = t.tick(now, "normal")
        warns += [now for e in effects if getattr(e, "pattern", "") == "warn"]
    assert warns == [15.0 - k for k in range(7, 0, -1)]
    assert now == 15.0


# --- the turn clock's timer: counting on past zero -------------------------------------------------


def test_a_counting_on_timer_alarms_once_and_keeps_running_past_zero():
    timer = Timer.counting_on(60, 5.0, warn_s=3, since=100.0, now=100.0)
    assert timer.running and timer.countdown.deadline == 105.0 and not timer.alarmed
    timer, effects = timer.tick(105.0, "normal")
    assert [e.pattern for e in effects if hasattr(e, "pattern")] == ["alarm"]
    assert timer.running and timer.alarmed and timer.countdown.remaining(107.5) == -2.5
    timer, effects = timer.tick(110.0, "normal")
    assert effects == [] and timer.left(110.0) == 0.0 and timer.bar_level(110.0) == 0.0


def test_a_counting_on_timer_wakes_at_every_whole_second_of_over_time():
    timer, _ = Timer.counting_on(60, 2.0, warn_s=0, since=10.0, now=10.0).tick(12.0, "normal")
    assert timer.next_wake(12.0) == 13.0
    assert timer.next_wake(13.2) == 14.0
    assert timer.next_wake(15.999) == 16.0


def test_a_counting_on_timer_set_past_zero_stays_silent():
    timer = Timer.counting_on(60, -4.0, warn_s=10, since=0.0, now=0.0)
    assert timer.alarmed
    timer, effects = timer.tick(1.0, "normal")
    assert effects == []
    stopped = Timer.counting_on(60, -4.0, warn_s=10, since=None, now=0.0)
    assert not stopped.running and stopped.left(5.0) == 0.0 and stopped.countdown.remaining(5.0) == -4.0


def test_a_counting_on_timer_warns_in_its_last_seconds_and_its_bar_never_exceeds_full():
    timer = Timer.counting_on(10, 4.0, warn_s=3, since=0.0, now=0.0)
    warned = []
    for now in (1.0, 2.0, 3.0):
        timer, effects = timer.tick(now, "normal")
        warned += [now for e in effects if getattr(e, "pattern", "") == "warn"]
    assert warned == [1.0, 2.0, 3.0]
    assert Timer.counting_on(10, 25.0, warn_s=3, since=None, now=0.0).bar_level(0.0) == 1.0
