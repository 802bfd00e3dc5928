"""The [[readers]] profile section."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.reader_config import ReaderConfig, ReaderKind, ReaderRole, parse_readers

EXAMPLE = Path(__file__).resolve().parent.parent / "hw" / "profiles" / "readers.example.toml"


def test_the_example_file_parses() -> None:
    configs = parse_readers(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert configs == [ReaderConfig("rfid", ReaderKind.RDM6300, ReaderRole.CHOOSE, port="/dev/serial0")]


def test_the_commented_two_scanner_setup_parses() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    block = text.split("# Two USB")[1].split("# A USB barcode scanner in its factory keyboard mode")[0]
    two = "\n".join(line.removeprefix("# ") for line in block.splitlines()[1:])
    configs = parse_readers(tomllib.loads(two))
    assert [(c.name, c.role, c.usb, c.port) for c in configs if isinstance(c, ReaderConfig)] == [
        ("draw", ReaderRole.DRAW, (0x1A86, 0x7523), None),
        ("discard", ReaderRole.DISCARD, None, "/dev/serial/by-id/usb-SCANNER_2-if00"),
    ]


def test_the_commented_keyboard_mode_scanner_parses() -> None:
    block = EXAMPLE.read_text(encoding="utf-8").split("# A USB barcode scanner in its factory keyboard mode")[1]
    lines = [line.removeprefix("# ") for line in block.splitlines() if line.startswith("# [") or "=" in line]
    configs = parse_readers(tomllib.loads("\n".join(lines)))
    assert [(c.name, c.kind, c.usb) for c in configs if isinstance(c, ReaderConfig)] == [
        ("scan", ReaderKind.HID, (0x1EAB, 0x8003))]


def test_no_readers_is_fine() -> None:
    assert parse_readers({}) == []


def test_every_error_reported_with_its_key() -> None:
    errors = parse_readers({"readers": [
        {"name": "", "kind": "nfc", "role": "hand", "port": "/dev/x", "usb": "1a86:7523", "colour": 1},
        {"name": "b", "kind": "scanner", "role": "draw", "usb": "zz:7523", "baud": 0},
    ]})
    keys = [key for key, _ in errors]  # type: ignore[misc]
    assert keys == [
        "readers[0].colour", "readers[0].name", "readers[0].kind", "readers[0].role", "readers[0]",
        "readers[1].usb", "readers[1].baud",
    ]


def test_roles_of_two_readers() -> None:
    base = {"kind": "rdm6300", "port": "/dev/serial0"}
    same = parse_readers([{**base, "name": "a", "role": "draw"}, {**base, "name": "b", "role": "draw"}])
    assert same == [("readers", 'both readers have role "draw"; one draw, one discard')]
    choose = parse_readers([{**base, "name": "a", "role": "choose"}, {**base, "name": "b", "role": "draw"}])
    assert [key for key, _ in choose] == ["readers"]  # type: ignore[misc]
    twice = parse_readers([{**base, "name": "a", "role": "draw"}, {**base, "name": "a", "role": "discard"}])
    assert twice == [("readers", "the name 'a' is used twice")]
    three = parse_readers([{**base, "name": n, "role": "draw"} for n in "abc"])
    assert ("readers", "at most 2 readers, found 3") in three


def test_not_a_list() -> None:
    assert parse_readers({"readers": "rfid"}) == [("readers", "must be a list of tables ([[readers]])")]


TOML_VALUES = st.recursive(
    st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.datetimes() | st.dates()
    | st.times() | st.sampled_from(["rdm6300", "scanner", "hid", "draw", "discard", "choose", "/dev/serial0"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
KEYS = st.sampled_from(["name", "kind", "role", "port", "usb", "baud", "removal_gap_ms", "max_length", "x"])


@pytest.mark.slow  # hypothesis
@given(st.lists(st.dictionaries(KEYS, TOML_VALUES, max_size=8) | TOML_VALUES, max_size=3))
def test_any_toml_gives_readers_or_errors_by_key(entries: list[object]) -> None:
    """Whatever a profile's [[readers]] hold (a list or a table where a text belongs, a date …), the
    answer is configs or errors each under its key, never an exception."""
    result = parse_readers({"readers": entries})
    assert all(isinstance(item, ReaderConfig) for item in result) or all(
        isinstance(item, tuple) and item[0].startswith("readers") for item in result)
