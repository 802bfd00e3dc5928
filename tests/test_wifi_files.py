"""What the Wi-Fi watcher and the table's service tell each other (`network.files`): the box's access point
made once and kept, the status, the requests taken once."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from firmware_host.network import files


def test_the_access_point_is_made_once_per_box_and_kept(tmp_path: Path) -> None:
    first = files.access_point(tmp_path, "0123456789abcdef\n")
    assert first.ssid == files.box_ssid("0123456789abcdef") and len(first.ssid) == len("wordtable-XXXX")
    assert len(first.password) == files.PASSWORD_LENGTH and set(first.password) <= set(files.PASSWORD_ALPHABET)
    assert stat.S_IMODE((tmp_path / files.AP_FILE).stat().st_mode) == 0o600
    assert files.access_point(tmp_path, "another id") == first
    assert files.box_ssid("another id") != first.ssid


def test_the_status_reads_back(tmp_path: Path) -> None:
    assert files.read_status(tmp_path) is None
    status = files.Status("ap", "wordtable-3F2A", "10.42.0.1", "k7hq2m9xpr4z")
    files.write_status(tmp_path, status)
    assert files.read_status(tmp_path) == status


def test_requests_are_taken_once_in_order(tmp_path: Path) -> None:
    files.ask_to_add(tmp_path, "home", "secret-password")
    files.ask_for_ap(tmp_path)
    files.ask_to_add(tmp_path, "Café", "")
    assert files.take_requests(tmp_path) == (True, [files.Added("home", "secret-password"), files.Added("Café", "")])
    assert files.take_requests(tmp_path) == (False, [])


@pytest.mark.parametrize(("ssid", "password"), [("", "12345678"), ("x" * 33, "12345678"), ("home", "short")])
def test_what_nm_would_refuse_is_refused_at_once(tmp_path: Path, ssid: str, password: str) -> None:
    with pytest.raises(ValueError):
        files.ask_to_add(tmp_path, ssid, password)
    assert files.take_requests(tmp_path) == (False, [])


def test_the_box_is_known_by_its_board_serial_before_the_images_machine_id(tmp_path: Path) -> None:
    serial, machine = tmp_path / "serial-number", tmp_path / "machine-id"
    machine.write_text("0123456789abcdef0123456789abcdef\n")
    assert files.box_id((serial, machine)) == "0123456789abcdef0123456789abcdef"  # no device tree (the VM)
    serial.write_bytes(b"00000000a1b2c3d4\x00")  # a Pi's: its own, on a card flashed from a shared image
    assert files.box_id((serial, machine)) == "00000000a1b2c3d4"
    other = tmp_path / "other-serial"
    other.write_bytes(b"00000000e5f60718\x00")
    assert files.box_ssid(files.box_id((serial, machine))) != files.box_ssid(files.box_id((other, machine)))
    serial.write_bytes(b"\x00")
    assert files.box_id((serial, machine)) == "0123456789abcdef0123456789abcdef"  # an empty one is no id
    with pytest.raises(OSError, match="no id of the box"):
        files.box_id((tmp_path / "none",))
