import itertools
import time

import pytest

from drivers.buttons import PanelInputs
from firmware_host.core.events import Button, LongPress, Press, Turn
from tests.hwhelpers import wait_until

BUTTONS = {Button.START: 26, Button.NEXT: 27, Button.BACK: 20, Button.MENU: 21, Button.ENCODER: 11}
A, B = 9, 10


@pytest.fixture
def panel(pin_factory):
    events: list = []
    clock = itertools.count(100).__next__
    inputs = PanelInputs(BUTTONS, emit=events.append, encoder=(A, B), bounce_s=0, hold_s=0.25,
                         clock=clock, pin_factory=pin_factory)
    yield inputs, events
    inputs.close()


def tap(pin_factory, gpio):
    pin_factory.pin(gpio).drive_low()
    pin_factory.pin(gpio).drive_high()


def test_short_press_is_one_press_on_release(pin_factory, panel):
    _, events = panel
    pin_factory.pin(26).drive_low()
    assert events == []  # nothing until released (it might still become a long press)
    pin_factory.pin(26).drive_high()
    assert events == [Press(Button.START, 100)]


def test_each_button_reports_itself(pin_factory, panel):
    _, events = panel
    for gpio in (27, 20, 21, 11):
        tap(pin_factory, gpio)
    assert [e.button for e in events] == [Button.NEXT, Button.BACK, Button.MENU, Button.ENCODER]
    assert all(isinstance(e, Press) for e in events)


@pytest.mark.slow
def test_hold_is_one_long_press_and_no_press_on_release(pin_factory, panel):
    _, events = panel
    pin_factory.pin(26).drive_low()
    assert wait_until(lambda: len(events) >= 1)
    pin_factory.pin(26).drive_high()
    assert events == [LongPress(Button.START, 100)]
    tap(pin_factory, 26)  # the next short press is a plain press again
    assert events == [LongPress(Button.START, 100), Press(Button.START, 101)]


@pytest.mark.slow
def test_a_short_press_timer_left_running_never_cuts_the_next_hold_short(pin_factory, panel):
    """A release leaves its hold timer running (no wake-up while the Press is handled); when that timer
    runs out during the next press, it belongs to a press that is over and says nothing: the next press
    becomes a long press only a whole hold after its own edge."""
    _, events = panel
    tap(pin_factory, 26)
    time.sleep(0.15)  # the tap's timer has 0.1 s left
    down = time.monotonic()  # before the edge: the press's own hold timer starts inside drive_low
    pin_factory.pin(26).drive_low()
    assert wait_until(lambda: len(events) >= 2)
    held_after = time.monotonic() - down
    pin_factory.pin(26).drive_high()
    assert events == [Press(Button.START, 100), LongPress(Button.START, 101)]
    assert held_after >= 0.25


def quadrature(pin_factory, first, second):
    """One detent: first low, second low, first high, second high (pins idle high, pulled up)."""
    pin_factory.pin(first).drive_low()
    pin_factory.pin(second).drive_low()
    pin_factory.pin(first).drive_high()
    pin_factory.pin(second).drive_high()


def test_encoder_turns(pin_factory, panel):
    _, events = panel
    quadrature(pin_factory, A, B)
    quadrature(pin_factory, A, B)
    quadrature(pin_factory, B, A)
    assert [e.steps for e in events] == [1, 1, -1]
    assert all(isinstance(e, Turn) for e in events)


def test_encoder_ignores_a_half_step_wiggle(pin_factory, panel):
    _, events = panel
    pin_factory.pin(A).drive_low()
    pin_factory.pin(A).drive_high()
    assert events == []


def test_close_is_idempotent_and_stops_events(pin_factory):
    events: list = []
    inputs = PanelInputs({Button.START: 26}, emit=events.append, hold_s=0.05, pin_factory=pin_factory)
    inputs.close()
    inputs.close()
    tap(pin_factory, 26)
    assert events == []


def test_an_edge_button_reports_its_press_at_the_press_edge_and_has_no_long_press(pin_factory):
    events: list = []
    inputs = PanelInputs({Button.TURN: 19, Button.START: 26}, emit=events.append, edge=(Button.TURN,),
                         hold_s=0.05, bounce_s=0, clock=time.monotonic, pin_factory=pin_factory)
    try:
        pin = pin_factory.pin(19)
        edge = time.monotonic()
        pin.drive_low()
        assert [e.button for e in events] == [Button.TURN]  # at once, before the release
        assert edge <= events[0].at <= time.monotonic()
        wait_until(lambda: False, timeout=0.08)  # longer than the hold time: still no long press
        pin.drive_high()
        assert len(events) == 1
    finally:
        inputs.close()


def test_an_edge_button_stamps_the_edge_even_when_its_callback_runs_late(pin_factory):
    """The GPIO library may call back late (another thread holds the interpreter): the Press still
    carries the moment of the edge, taken from the pin's own record of it."""
    events: list = []
    inputs = PanelInputs({Button.TURN: 19}, emit=events.append, edge=(Button.TURN,), bounce_s=0,
                         clock=time.monotonic, pin_factory=pin_factory)
    try:
        device = inputs._devices[0]
        callback, device.when_activated = device.when_activated, None  # hold the callback back …
        edge = time.monotonic()
        pin_factory.pin(19).drive_low()
        time.sleep(0.05)
        callback()  # … and let it run 50 ms late
        assert events[0].button is Button.TURN and abs(events[0].at - edge) < 0.005
    finally:
        inputs.close()
