"""The shell's outputs are wired explicitly: a missing one fails at start, never silently later."""

import threading
from dataclasses import fields, replace

import pytest

from firmware_host.appliance import open_appliance
from firmware_host.config import resolve
from firmware_host.core.settings import Settings
from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from firmware_host.shell import Outputs
from firmware_host.shell_effects import WordCheck, appliance_outputs, ignore_frame, ignore_sound
from hw.build import build

SIM = resolve("sim", None, environ={})


class Null:
    size = (128, 64)

    def set_level(self, level): ...
    def play(self, notes): ...
    def stop(self): ...
    def show(self, image): ...
    def clear(self): ...
    def close(self): ...


def wired() -> dict:
    null = Null()
    return dict(bar=null, sounder=null, display=null, renderer=lambda screen, size, page=0: None,
                pager=lambda screen, size: 1,
                save_settings=lambda settings: None, power_off=lambda: None, on_frame=ignore_frame,
                on_sound=ignore_sound, keep=lambda name, data: None, check_words=lambda words: None,
                word_lists=lambda language: None, owner_pin=lambda pin: None)


def test_every_output_is_a_required_field():
    assert {f.name for f in fields(Outputs)} == set(wired())
    Outputs(**wired())


@pytest.mark.parametrize("name", sorted(wired()))
def test_an_output_left_out_fails_at_construction_naming_it(name):
    parts = wired()
    del parts[name]
    with pytest.raises(TypeError, match=name):
        Outputs(**parts)


@pytest.mark.parametrize("name", sorted(wired()))
def test_an_output_given_as_none_fails_at_construction_naming_it(name):
    with pytest.raises(ValueError, match=f"outputs not wired: {name}$"):
        Outputs(**{**wired(), name: None})


@pytest.mark.slow
def test_the_appliance_wires_the_board_and_its_own_handlers(tmp_path):
    journal = Journal.open(journal_path(tmp_path))
    power_off = lambda: None  # noqa: E731
    try:
        with build(SIM.profile, emit=lambda event: None) as hardware:
            outputs = appliance_outputs(hardware, journal, tmp_path, dictionary=None, power_off=power_off,
                                        from_file=Settings().remembered())
            assert (outputs.bar, outputs.sounder, outputs.display) == (
                hardware.bar, hardware.sounder, hardware.display)
            assert outputs.power_off is power_off
            assert isinstance(outputs.check_words, WordCheck)
            outputs.save_settings({"volume": "soft"})
            assert journal.settings()["volume"] == "soft"
    finally:
        journal.close()


@pytest.mark.slow
def test_a_missing_output_stops_the_start_and_leaves_nothing_open(tmp_path):
    def unwire(outputs: Outputs) -> Outputs:
        return replace(outputs, keep=None)

    def reader_threads() -> int:
        return sum(thread.name == "reader-rfid" for thread in threading.enumerate())

    before = reader_threads()
    with pytest.raises(ValueError, match="outputs not wired: keep"):
        open_appliance(SIM, tmp_path, outputs_hook=unwire, power_off=lambda: None)
    assert reader_threads() == before  # the board's card reader was started and is stopped again
    appliance = open_appliance(SIM, tmp_path, power_off=lambda: None)  # the journal opens again
    appliance.close()


def test_the_appliance_cannot_be_opened_without_saying_what_power_off_does(tmp_path):
    with pytest.raises(TypeError, match="power_off"):
        open_appliance(SIM, tmp_path)  # type: ignore[call-arg]
