import itertools

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from drivers.buttons import PanelInputs
from firmware_host.core.events import Button, LongPress, Press, Turn
from tests.hwhelpers import wait_until

BUTTONS = {Button.START: 26, Button.NEXT: 27, Button.BACK: 20, Button.MENU: 21, Button.ENCODER: 11}
A, B = 9, 10


@pytest.fixture
def factory():
    return MockFactory(pin_class=MockPWMPin)


@pytest.fixture
def panel(factory):
    events: list = []
    clock = itertools.count(100).__next__
    inputs = PanelInputs(BUTTONS, emit=events.append, encoder=(A, B), bounce_s=0, hold_s=0.25,
                         clock=clock, pin_factory=factory)
    yield inputs, events
    inputs.close()


def tap(factory, gpio):
    factory.pin(gpio).drive_low()
    factory.pin(gpio).drive_high()


def test_short_press_is_one_press_on_release(factory, panel):
    _, events = panel
    factory.pin(26).drive_low()
    assert events == []  # nothing until released (it might still become a long press)
    factory.pin(26).drive_high()
    assert events == [Press(Button.START, 100)]


def test_each_button_reports_itself(factory, panel):
    _, events = panel
    for gpio in (27, 20, 21, 11):
        tap(factory, gpio)
    assert [e.button for e in events] == [Button.NEXT, Button.BACK, Button.MENU, Button.ENCODER]
    assert all(isinstance(e, Press) for e in events)


def test_hold_is_one_long_press_and_no_press_on_release(factory, panel):
    _, events = panel
    factory.pin(26).drive_low()
    assert wait_until(lambda: len(events) >= 1)
    factory.pin(26).drive_high()
    assert events == [LongPress(Button.START, 100)]
    tap(factory, 26)  # the next short press is a plain press again
    assert events == [LongPress(Button.START, 100), Press(Button.START, 101)]


def quadrature(factory, first, second):
    """One detent: first low, second low, first high, second high (pins idle high, pulled up)."""
    factory.pin(first).drive_low()
    factory.pin(second).drive_low()
    factory.pin(first).drive_high()
    factory.pin(second).drive_high()


def test_encoder_turns(factory, panel):
    _, events = panel
    quadrature(factory, A, B)
    quadrature(factory, A, B)
    quadrature(factory, B, A)
    assert [e.steps for e in events] == [1, 1, -1]
    assert all(isinstance(e, Turn) for e in events)


def test_encoder_ignores_a_half_step_wiggle(factory, panel):
    _, events = panel
    factory.pin(A).drive_low()
    factory.pin(A).drive_high()
    assert events == []


def test_close_is_idempotent_and_stops_events(factory):
    events: list = []
    inputs = PanelInputs({Button.START: 26}, emit=events.append, hold_s=0.05, pin_factory=factory)
    inputs.close()
    inputs.close()
    tap(factory, 26)
    assert events == []
