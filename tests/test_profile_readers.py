"""Card readers in the board profile, and their threads started for the shell on a mock board."""

import queue
import time

import pytest

from drivers.reader_config import ReaderKind, ReaderRole
from firmware_host.core.events import CardScan, ReaderStatus
from hw.build import open_readers
from hw.profile import ProfileError, load_profile, parse_profile, profile_path
from hw.schema import load_toml


def sim_data():
    return load_toml(profile_path("sim"), "profile")


def test_the_sim_profile_has_one_rfid_reader():
    (reader,) = load_profile("sim").readers
    assert (reader.name, reader.kind, reader.role, reader.port) == ("rfid", ReaderKind.RDM6300, ReaderRole.CHOOSE,
                                                                     "loop://")


def test_the_default_profile_has_no_reader_enabled():
    assert load_profile("default").readers == ()


def test_reader_errors_are_listed_by_key_with_the_others():
    data = sim_data()
    data["readers"] = [{"name": "rfid", "kind": "nfc", "role": "draw", "port": "loop://"}]
    data["buzzer"]["pin"] = 5  # also an LED bar pin
    with pytest.raises(ProfileError) as caught:
        parse_profile(data)
    keys = [key for key, _ in caught.value.errors]
    assert "readers[0].kind" in keys and "buzzer.pin" in keys


def test_a_reader_on_the_uart_needs_the_uart_enabled():
    data = sim_data()
    data["buses"]["uart"] = False
    data["readers"] = [{"name": "rfid", "kind": "rdm6300", "role": "choose", "port": "/dev/serial0"}]
    with pytest.raises(ProfileError) as caught:
        parse_profile(data)
    assert [key for key, _ in caught.value.errors] == ["readers[0].port"]


def test_readers_must_be_a_list_of_tables():
    data = sim_data()
    data["readers"] = "rfid"
    with pytest.raises(ProfileError) as caught:
        parse_profile(data)
    assert [key for key, _ in caught.value.errors] == ["readers"]


def wait_for(events, kind, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            event = events.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(event, kind):
            return event
    raise AssertionError(f"no {kind.__name__} within {timeout} s")


@pytest.mark.slow
def test_on_a_mock_board_readers_get_simulated_ports_and_report_unplug_and_replug():
    events = queue.Queue()
    readers = open_readers(load_profile("sim"), events.put, retry=(0.01, 0.05))
    try:
        port = readers.simulated["rfid"]
        deadline = time.monotonic() + 5
        while not port.send_tag("0A1B2C3D4E"):  # the thread opens its port
            assert time.monotonic() < deadline
            time.sleep(0.01)
        scan = wait_for(events, CardScan)
        assert (scan.reader, scan.code) == ("rfid", "0A1B2C3D4E")
        port.unplug()
        assert wait_for(events, ReaderStatus).present is False
        port.replug()
        assert wait_for(events, ReaderStatus).present is True
    finally:
        readers.close()
        readers.close()
    assert readers.readers == []


@pytest.mark.slow
def test_a_reader_present_at_start_is_not_announced():
    events = queue.Queue()
    readers = open_readers(load_profile("sim"), events.put)
    try:
        port = readers.simulated["rfid"]
        deadline = time.monotonic() + 5
        while not port.opened:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.1)
    finally:
        readers.close()
    assert [e for e in list(events.queue) if isinstance(e, ReaderStatus)] == []
