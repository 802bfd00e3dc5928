"""Byte streams as a USB keyboard writes them to /dev/input/eventN, for the decoder, driver and shell tests.

A real keyboard sends, per key change, an `EV_MSC MSC_SCAN` record (the HID usage), the `EV_KEY` record
and a `SYN_REPORT`; a held key adds `EV_KEY` value 2 records (auto-repeat). `typing_stream` writes a text
that way in a layout (Shift or AltGr held around the keys that need it), `key_stream` single keys.
`Plug` is a FIFO standing in for the device node, plugged in and pulled out.
"""

from __future__ import annotations

import os
from pathlib import Path

from drivers.input_event import EV_KEY, EV_SYN, LONG_BYTES, SYN_REPORT, record
from drivers.keymap import KEY_ENTER, KEY_LEFTSHIFT, KEY_RIGHTALT, LAYOUTS

EV_MSC, MSC_SCAN = 0x04, 0x04


def key_change(code: int, value: int, *, long_bytes: int = LONG_BYTES, sec: int = 1700000000, usec: int = 0) -> bytes:
    """One key change as recorded from a keyboard: MSC_SCAN, EV_KEY, SYN_REPORT (the same timestamp)."""
    stamp = {"long_bytes": long_bytes, "sec": sec, "usec": usec}
    return (record(EV_MSC, MSC_SCAN, 0x70000 + code, **stamp) + record(EV_KEY, code, value, **stamp)
            + record(EV_SYN, SYN_REPORT, 0, **stamp))


def key_stream(code: int, *, repeats: int = 0, long_bytes: int = LONG_BYTES) -> bytes:
    """A key pressed, held for `repeats` auto-repeats, and released."""
    return (key_change(code, 1, long_bytes=long_bytes)
            + b"".join(key_change(code, 2, long_bytes=long_bytes, usec=i) for i in range(repeats))
            + key_change(code, 0, long_bytes=long_bytes))


def keys_for(char: str, layout: str = "de") -> tuple[int, int | None]:
    """(key code, modifier code or None) that type `char` in `layout`."""
    for code, (plain, shift, altgr) in LAYOUTS[layout].items():
        if plain == char:
            return code, None
        if shift == char:
            return code, KEY_LEFTSHIFT
        if altgr == char:
            return code, KEY_RIGHTALT
    raise ValueError(f"{char!r} cannot be typed in layout {layout}")


def typing_stream(text: str, layout: str = "de", *, enter: bool = True, long_bytes: int = LONG_BYTES) -> bytes:
    """`text` typed key by key (then Enter), as the keyboard's records."""
    out = b""
    for char in text:
        code, modifier = keys_for(char, layout)
        if modifier is not None:
            out += key_change(modifier, 1, long_bytes=long_bytes)
        out += key_stream(code, long_bytes=long_bytes)
        if modifier is not None:
            out += key_change(modifier, 0, long_bytes=long_bytes)
    return out + (key_stream(KEY_ENTER, long_bytes=long_bytes) if enter else b"")


class Plug:
    """A FIFO standing in for an input device: `plug()` makes it, `send` writes records, `unplug()` takes
    it away (its reader sees the end of the stream, as a read of a pulled-out device fails)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def plug(self) -> Plug:
        os.mkfifo(self.path)
        self.fd = os.open(self.path, os.O_RDWR | os.O_NONBLOCK)  # holds the pipe open, as a device stays
        return self

    def send(self, data: bytes) -> None:
        assert self.fd is not None
        os.write(self.fd, data)

    def unplug(self) -> None:
        self.path.unlink()
        assert self.fd is not None
        os.close(self.fd)
        self.fd = None
