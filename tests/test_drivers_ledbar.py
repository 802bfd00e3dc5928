import pytest

from drivers.ledbar import LedBar

PINS = (5, 6, 12, 13, 16, 17, 22, 23, 24, 25)


def states(pin_factory, pins=PINS):
    return [round(float(pin_factory.pin(p).state), 6) for p in pins]


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (1.0, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),  # start: all lit
        (0.5, [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]),  # half: the last pins went dark first
        (0.55, [1, 1, 1, 1, 1, 0.5, 0, 0, 0, 0]),  # the draining segment is dimmed
        (0.05, [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0]),  # end: the first pin stays lit longest, dimming
        (0.0, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        (1.7, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),  # clamped
        (-0.2, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        (float("nan"), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ],
)
def test_levels_on_pwm_pins(pin_factory, level, expected):
    with LedBar(PINS, pin_factory=pin_factory) as bar:
        bar.set_level(level)
        assert states(pin_factory) == expected


def test_active_low_bar_inverts_the_pins(pin_factory):
    with LedBar(PINS[:4], active_high=False, pin_factory=pin_factory) as bar:
        bar.set_level(0.25 + 0.25 / 2)
        assert states(pin_factory, PINS[:4]) == [0, 0.5, 1, 1]


def test_without_pwm_a_segment_stays_on_until_drained(pin_factory):
    with LedBar(PINS[:4], pwm=False, pin_factory=pin_factory) as bar:
        bar.set_level(0.05)
        assert states(pin_factory, PINS[:4]) == [1, 0, 0, 0]
        bar.set_level(0.5)
        assert states(pin_factory, PINS[:4]) == [1, 1, 0, 0]
        bar.set_level(0.0)
        assert states(pin_factory, PINS[:4]) == [0, 0, 0, 0]


def test_close_is_idempotent_and_leaves_leds_off(pin_factory):
    bar = LedBar(PINS, pin_factory=pin_factory)
    bar.set_level(0.73)
    bar.close()
    bar.close()
    assert states(pin_factory) == [0] * 10
    bar.set_level(1.0)  # after close: ignored, no error
    assert states(pin_factory) == [0] * 10
    # the pins are released: a new bar can claim them
    LedBar(PINS, pin_factory=pin_factory).close()
