"""Keyboard configuration: the layout in the user config (an unknown one named by its key in check-config),
`[keyboard]` in the board profile, and keyboard-mode scanners as `[[readers]]` of kind "hid"."""

from __future__ import annotations

import tomllib

import pytest

from drivers.reader_config import ReaderConfig, ReaderKind, parse_readers
from firmware_host.cli import main
from firmware_host.config import ConfigError, parse_config
from hw.profile import ProfileError, load_profile, parse_profile
from tests.hwhelpers import DEFAULT_TOML, edited


def test_the_layout_is_german_by_default_and_us_by_config():
    assert parse_config({}).keyboard.layout == "de"
    assert parse_config({"keyboard": {"layout": "us"}}).keyboard.layout == "us"


def test_an_unknown_layout_is_named_by_its_key_in_check_config(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[keyboard]\nlayout = "fr"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        parse_config({"keyboard": {"layout": "fr"}})
    assert caught.value.errors[0][0] == "keyboard.layout" and "'de', 'us'" in caught.value.errors[0][1]
    assert main(["check-config", "--profile", "sim", "--config", str(config)]) == 2
    assert f"{config}: keyboard.layout: 'fr' is not one of 'de', 'us'" in capsys.readouterr().err


def test_check_config_prints_the_keyboard_sections(capsys):
    assert main(["check-config", "--profile", "default"]) == 0
    out = capsys.readouterr().out
    assert "# [keyboard]\n# enabled = true\n# devices = []\n# grab = true" in out  # the profile's, as comments
    assert '\n[keyboard]\nlayout = "de"' in out  # the config's, as the file has it


def test_the_profiles_keyboard_section_defaults_and_errors():
    assert load_profile("default").keyboard.enabled and load_profile("default").keyboard.devices == ()
    text = edited("enabled = true              # USB", 'enabled = "yes"  # USB', DEFAULT_TOML)
    data = tomllib.loads(edited("devices = []", 'devices = ["/dev/input/event3", 4]', text))
    with pytest.raises(ProfileError) as caught:
        parse_profile(data)
    keys = {key for key, _ in caught.value.errors}
    assert keys == {"keyboard.enabled", "keyboard.devices[1]"}


def test_a_keyboard_mode_scanner_is_a_reader_of_kind_hid_by_usb_or_input_path():
    readers = parse_readers({"readers": [
        {"name": "draw", "kind": "hid", "usb": "1eab:8003", "role": "draw"},
        {"name": "discard", "kind": "hid", "port": "/dev/input/by-id/usb-SCAN-event-kbd", "role": "discard"},
    ]})
    assert all(isinstance(r, ReaderConfig) and r.kind is ReaderKind.HID for r in readers)
    errors = parse_readers({"readers": [{"name": "x", "kind": "keyboard", "usb": "1eab:8003", "role": "draw"}]})
    assert errors == [("readers[0].kind", "must be one of rdm6300, scanner, hid, not 'keyboard'")]
