"""The start draws its first frame before the rest of the board: bar, buzzer, buttons and readers start
after it (and gpiozero loads then); what the first frame tells the bar and the buzzer reaches them."""

from dataclasses import replace
from types import SimpleNamespace

import pytest
from gpiozero import LED
from luma.core.device import dummy

from firmware_host.appliance import FirstFrame, open_appliance
from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from hw.protocols import HardwareError


class Recorder:
    """A bar and a sounder that note every call."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def set_level(self, level):
        self.calls.append(("set_level", level))

    def play(self, notes, duty=0.5):
        self.calls.append(("play", tuple(notes), duty))

    def stop(self):
        self.calls.append(("stop",))

    def close(self):
        self.calls.append(("close",))


class Panel(dummy):
    """luma's dummy panel, noting when it is released."""

    cleaned = 0

    def cleanup(self):
        Panel.cleaned += 1
        super().cleanup()


@pytest.mark.slow
def test_the_first_frame_is_drawn_before_the_bar_buzzer_and_buttons_take_their_pins(
        sim_config, tmp_path, pin_factory):
    taken_at_first_frame = []

    def hook(outputs):
        seen = outputs.on_frame

        def on_frame(screen, image):
            if not taken_at_first_frame:
                taken_at_first_frame.append(len(pin_factory.pins))
            seen(screen, image)

        return replace(outputs, on_frame=on_frame)

    appliance = open_appliance(sim_config, tmp_path, pin_factory=pin_factory, outputs_hook=hook,
                               power_off=lambda: None)
    try:
        assert taken_at_first_frame == [0]
        bar_pins = sim_config.profile.led_bar.pins
        assert set(bar_pins) | {sim_config.profile.buzzer.pin} <= {int(pin.info.name.removeprefix("GPIO"))
                                                                  for pin in pin_factory.pins.values()}
        lit = [pin_factory.pin(n).state for n in bar_pins]
        assert all(state > 0 for state in lit)  # the full sand timer of the first frame, on the bar
    finally:
        appliance.close()


def test_until_the_board_is_there_the_bar_and_the_sounder_keep_the_latest_word_then_pass_everything_on():
    board = FirstFrame(display=None)
    board.bar.set_level(0.2)
    board.bar.set_level(0.7)
    board.sounder.play([(440.0, 0.1)], 0.3)
    board.sounder.stop()
    board.sounder.play([(880.0, 0.2)], 0.5)
    bar, sounder = Recorder(), Recorder()
    board.attach(SimpleNamespace(bar=bar, sounder=sounder))
    assert bar.calls == [("set_level", 0.7)]
    assert sounder.calls == [("play", ((880.0, 0.2),), 0.5)]
    board.bar.set_level(0.1)
    board.sounder.stop()
    board.bar.close()
    board.sounder.close()
    assert bar.calls[1:] == [("set_level", 0.1), ("close",)]
    assert sounder.calls[1:] == [("stop",), ("close",)]


def test_a_sound_stopped_before_the_board_is_there_is_not_played():
    board = FirstFrame(display=None)
    board.sounder.play([(440.0, 0.1)], 0.3)
    board.sounder.stop()
    bar, sounder = Recorder(), Recorder()
    board.attach(SimpleNamespace(bar=bar, sounder=sounder))
    assert bar.calls == [] and sounder.calls == []


@pytest.mark.slow
def test_a_board_that_fails_after_the_first_frame_leaves_the_panel_released_and_the_journal_closed(
        sim_config, tmp_path, pin_factory):
    taken = LED(sim_config.profile.led_bar.pins[0], pin_factory=pin_factory)  # the bar's first pin is in use
    before = Panel.cleaned
    try:
        with pytest.raises(HardwareError, match="led_bar"):
            open_appliance(sim_config, tmp_path, pin_factory=pin_factory, display_device=Panel(width=128, height=64),
                           power_off=lambda: None)
    finally:
        taken.close()
    assert Panel.cleaned == before + 1
    with Journal.open(journal_path(tmp_path)) as journal:  # it was closed: it opens again, cleanly
        assert journal.moved_aside is None
