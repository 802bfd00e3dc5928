import os
import signal
from dataclasses import replace

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from PIL import Image

from drivers.display import DisplayError
from firmware_host.core.events import Button, Press, Turn
from firmware_host.core.sounds import notes
from hw.build import Hardware, HardwareError, build
from hw.profile import load_profile
from tests.hwhelpers import wait_until

SIM = load_profile("sim")


def lit(hw: Hardware) -> list[float]:
    return [float(hw.pin_factory.pin(p).state) for p in SIM.led_bar.pins]


def test_sim_profile_builds_on_mock_pins():
    events: list = []
    with build(SIM, emit=events.append, clock=lambda: 7.0) as hw:
        assert isinstance(hw.pin_factory, MockFactory)
        hw.bar.set_level(1.0)
        assert lit(hw) == [1.0] * 10
        hw.pin_factory.pin(SIM.buttons.menu).drive_low()
        hw.pin_factory.pin(SIM.buttons.menu).drive_high()
        pa, pb = hw.pin_factory.pin(SIM.encoder.a), hw.pin_factory.pin(SIM.encoder.b)
        pa.drive_low(), pb.drive_low(), pa.drive_high(), pb.drive_high()
        hw.pin_factory.pin(SIM.buttons.turn).drive_low()  # the turn button: reported at its press edge
        assert events[:2] == [Press(Button.MENU, 7.0), Turn(1, 7.0)]
        assert events[2].button is Button.TURN and 6.99 < events[2].at <= 7.0  # 7.0 less the µs since the edge
        hw.pin_factory.pin(SIM.buttons.turn).drive_high()
        hw.display.show(Image.new("1", hw.display.size, 1))


@pytest.mark.slow
def test_build_starts_the_profiles_card_readers_last_and_close_stops_them():
    with build(SIM, emit=lambda e: None) as hw:
        assert [r.name for r in hw.readers.readers] == [r.name for r in SIM.readers] == ["rfid"]
        assert set(hw.readers.simulated) == {"rfid"}  # a mock board: no real port is opened
    assert hw.readers.readers == []


def test_default_profile_builds_with_injected_factory_and_device(pin_factory):
    device = dummy(width=128, height=64, mode="1")
    factory = pin_factory
    with build(
        load_profile("default"), emit=lambda e: None, pin_factory=factory, display_device=device
    ) as hw:
        hw.display.show(Image.new("1", (128, 64), 1))
        assert hw.display.flush()  # a panel on a bus is written from the display's writer thread
        assert device.image.getbbox() == (0, 0, 128, 64)
        assert hw.pin_factory is factory


@pytest.mark.slow
def test_a_failing_part_closes_what_had_started(pin_factory):
    factory = pin_factory
    blocker = LED(SIM.buttons.start, pin_factory=factory)  # START's pin is taken: the inputs fail
    with pytest.raises(HardwareError, match="buttons"):
        build(SIM, emit=lambda e: None, pin_factory=factory)
    blocker.close()
    # the bar and the buzzer that had started were released: a second build can claim every pin
    build(SIM, emit=lambda e: None, pin_factory=factory).close()


def test_missing_display_bus_fails_the_build_with_a_display_error(pin_factory):
    broken = replace(SIM, display=replace(load_profile("default").display, port=9))
    with pytest.raises(DisplayError, match="I2C bus 9"):
        build(broken, emit=lambda e: None, pin_factory=pin_factory)


@pytest.mark.slow
def test_sigterm_close_leaves_leds_and_buzzer_off():
    hw = build(SIM, emit=lambda e: None)
    buzzer_pin = hw.pin_factory.pin(SIM.buzzer.pin)
    hw.bar.set_level(0.85)
    hw.sounder.play(((880.0, 30.0),))
    assert wait_until(lambda: buzzer_pin.state > 0)
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: hw.close())
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        assert wait_until(lambda: hw._closed)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert lit(hw) == [0.0] * 10
    assert buzzer_pin.state == 0 and buzzer_pin.frequency is None
    hw.close()  # idempotent
    hw.sounder.play(notes("alarm", "normal"))  # a late effect after close does nothing
    assert buzzer_pin.state == 0
