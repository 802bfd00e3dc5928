"""The keyboard driver's thread on stand-in devices (FIFOs in place of /dev/input/eventN): keyboards plugged
in and out while it runs, several typing into one line, a keyboard-mode scanner whose lines are scans,
and the board's finder on a made-up sysfs tree."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from drivers.keyboard import Found, InputDevices, system_finder
from drivers.keymap import DE, KEY_ENTER
from drivers.keys import MAX_BUFFER
from drivers.reader_config import ReaderConfig, ReaderKind, ReaderRole
from firmware_host.core.events import CardScan, ReaderStatus, TextEntry, Typing
from firmware_host.core.text_field import typed
from hw.build import open_keyboards
from hw.profile import load_profile
from tests.hwhelpers import wait_until
from tests.keystreams import Plug, key_stream, typing_stream

SCANNER = ReaderConfig("draw", ReaderKind.HID, ReaderRole.DRAW, port="unset", max_length=16)


class Events:
    def __init__(self) -> None:
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.seen: list = []

    def put(self, event) -> None:
        self.queue.put(event)

    def until(self, test, timeout: float = 5.0):
        """Collect events until one passes `test`; returns it (fails after `timeout`)."""
        def drained() -> bool:
            while not self.queue.empty():
                self.seen.append(self.queue.get())
            return any(test(event) for event in self.seen)
        assert wait_until(drained, timeout), self.seen
        found = next(event for event in self.seen if test(event))
        self.seen = self.seen[self.seen.index(found) + 1 :]
        return found


def devices(paths: dict[Path, ReaderConfig | None]):
    return lambda: [Found(str(path), reader) for path, reader in paths.items() if path.exists()]


@pytest.mark.slow
def test_a_keyboard_plugged_in_while_running_types_and_unplugging_mid_word_keeps_the_line(tmp_path):
    events = Events()
    kbd = Plug(tmp_path / "event0")
    with InputDevices(events.put, find=devices({kbd.path: None}), layout=DE, line=typed, poll_s=0.05) as watcher:
        assert wait_until(lambda: watcher.scans >= 2)
        kbd.plug()
        assert wait_until(lambda: watcher.open_paths == [str(kbd.path)], 2.0)  # hot-plug within 2 s
        kbd.send(typing_stream("Jö", enter=False))
        assert events.until(lambda e: e == Typing("Jö", e.at))
        kbd.unplug()
        assert wait_until(lambda: watcher.open_paths == [], 2.0)
        assert watcher.editor.line == "Jö"  # the word in the making is not lost
        kbd.plug()
        assert wait_until(lambda: watcher.open_paths == [str(kbd.path)], 2.0)
        kbd.send(typing_stream("rg"))
        assert events.until(lambda e: isinstance(e, TextEntry)).text == "Jörg"


@pytest.mark.slow
def test_two_keyboards_type_into_the_one_line(tmp_path):
    events = Events()
    one, two = Plug(tmp_path / "event0").plug(), Plug(tmp_path / "event1").plug()
    find = devices({one.path: None, two.path: None})
    with InputDevices(events.put, find=find, layout=DE, line=typed, poll_s=0.05) as w:
        assert wait_until(lambda: len(w.open_paths) == 2)
        one.send(typing_stream("An", enter=False))
        events.until(lambda e: e == Typing("An", e.at))
        two.send(typing_stream("na"))
        assert events.until(lambda e: isinstance(e, TextEntry)).text == "Anna"


@pytest.mark.slow
def test_a_keyboard_mode_scanner_sends_scans_never_text_and_says_when_it_comes_and_goes(tmp_path):
    events = Events()
    kbd, scanner = Plug(tmp_path / "event0").plug(), Plug(tmp_path / "event1").plug()
    find = devices({kbd.path: None, scanner.path: SCANNER})
    with InputDevices(events.put, find=find, layout=DE, line=typed, readers=[SCANNER], poll_s=0.05) as watcher:
        assert events.until(lambda e: isinstance(e, ReaderStatus)).present
        assert wait_until(lambda: len(watcher.open_paths) == 2)
        scanner.send(typing_stream("0A1B2C3D4E", "us"))
        scan = events.until(lambda e: isinstance(e, CardScan))
        assert (scan.reader, scan.code) == ("draw", "0A1B2C3D4E")
        scanner.send(typing_stream("X" * 40, "us") + typing_stream("K5", "us"))  # garbage: too long, dropped
        assert events.until(lambda e: isinstance(e, CardScan)).code == "K5"
        assert not any(isinstance(e, Typing | TextEntry) for e in events.seen)
        scanner.unplug()
        assert events.until(lambda e: isinstance(e, ReaderStatus)).present is False
        scanner.plug()
        assert events.until(lambda e: isinstance(e, ReaderStatus)).present is True
        kbd.send(typing_stream("ok"))
        assert events.until(lambda e: isinstance(e, TextEntry)).text == "ok"


@pytest.mark.slow
def test_a_held_key_does_not_flood_the_queue(tmp_path):
    events = Events()
    kbd = Plug(tmp_path / "event0").plug()
    with InputDevices(events.put, find=devices({kbd.path: None}), layout=DE, line=typed, poll_s=0.05) as watcher:
        assert wait_until(lambda: watcher.open_paths)
        kbd.send(key_stream(30, repeats=300) + key_stream(KEY_ENTER))
        entry = events.until(lambda e: isinstance(e, TextEntry))
        assert entry.text == "a" * MAX_BUFFER  # the line stops growing there (the core refuses it as too long)
        assert len(events.seen) == 0 and watcher.editor.line == ""


def test_the_boards_finder_tells_keyboards_scanners_and_a_power_button_apart(tmp_path):
    inputs, sysfs = tmp_path / "input", tmp_path / "sys"
    inputs.mkdir()
    nodes = {"event0": ("100000 0", "0000", "0000"),  # the gpio-shutdown power key
             "event1": ("120013 0 0 0 0 0 0 0 0 0 0 0 0 e080ffdf01cfffff fffffffffffffffe", "046d", "c31c"),
             "event2": ("120013 0 0 0 0 0 0 0 0 0 0 0 0 e080ffdf01cfffff fffffffffffffffe", "1eab", "8003")}
    for name, (keys, vendor, product) in nodes.items():
        (inputs / name).touch()
        device = sysfs / name / "device"
        (device / "capabilities").mkdir(parents=True)
        (device / "id").mkdir()
        (device / "capabilities" / "key").write_text(keys + "\n")
        (device / "id" / "vendor").write_text(vendor + "\n")
        (device / "id" / "product").write_text(product + "\n")
    scanner = ReaderConfig("draw", ReaderKind.HID, ReaderRole.DRAW, usb=(0x1EAB, 0x8003))
    found = system_finder([scanner], input_dir=inputs, sys_dir=sysfs)()
    assert sorted((Path(f.path).name, f.reader.name if f.reader else None) for f in found) == [
        ("event1", None), ("event2", "draw")]
    mock = system_finder([scanner], devices=[str(inputs / "event0")], scan_all=False, input_dir=inputs, sys_dir=sysfs)
    assert [(Path(f.path).name, f.reader) for f in mock()] == [("event0", None)]  # only what is listed


@pytest.mark.slow
def test_on_a_mock_board_only_the_listed_devices_are_read(tmp_path):
    from tests.hwhelpers import edited

    sim = (Path(__file__).parent.parent / "hw" / "profiles" / "sim.toml").read_text()
    assert open_keyboards(load_profile("sim"), lambda e: None) is None  # nothing listed: no thread at all
    kbd = Plug(tmp_path / "kbd").plug()
    text = edited("devices = []", f'devices = ["{kbd.path}"]', sim)
    (tmp_path / "p.toml").write_text(text)
    events = Events()
    watcher = open_keyboards(load_profile(tmp_path / "p.toml"), events.put, layout="us", poll_s=0.05)
    try:
        assert watcher is not None and wait_until(lambda: watcher.open_paths == [str(kbd.path)])
        kbd.send(key_stream(21) + key_stream(KEY_ENTER))  # KEY_Y in the US layout
        assert events.until(lambda e: isinstance(e, TextEntry)).text == "y"
    finally:
        watcher.close()
