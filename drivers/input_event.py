"""The kernel's input events (`struct input_event`, /dev/input/eventN) read without a library. Sans-I/O.

Why no python-evdev: it compiles a C extension against the kernel headers, so the hashed-lock venv the
installer builds would need a compiler and headers on every Pi (PyPI has no wheel for it), and its
`InputDevice` ioctls a real device on open, so a pipe cannot stand in for a keyboard in the tests and the
simulator. What the appliance needs is small: records of a fixed layout (below), one ioctl to grab a
device (`EVIOCGRAB`), and the key bitmap and USB ids that sysfs shows as text (`has_keys`).

A record is `struct input_event { struct timeval time; __u16 type; __u16 code; __s32 value; }`: on a
64-bit kernel (the Pi's aarch64 OS) the two time fields are 8 bytes each — 24 bytes, struct "qqHHi";
on 32-bit armv7 Raspberry Pi OS they are 4 bytes — 16 bytes, "iiHHi". `EventParser` picks the size of
the machine's `long` unless told, takes any chunking of the byte stream and keeps a partial record.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

EV_SYN = 0x00
EV_KEY = 0x01
SYN_REPORT = 0
SYN_DROPPED = 3  # the kernel's buffer overran: events were lost up to the next SYN_REPORT
KEY_RELEASE, KEY_PRESS, KEY_REPEAT = 0, 1, 2

# _IOW('E', 0x90, int): grab (1) or release (0) a device, so that its events reach only this reader.
EVIOCGRAB = (1 << 30) | (4 << 16) | (ord("E") << 8) | 0x90

LONG_BYTES = struct.calcsize("l")
FORMATS = {8: "<qqHHi", 4: "<iiHHi"}  # by the size of the kernel's long; the Pi is little-endian


@dataclass(frozen=True, slots=True)
class InputEvent:
    type: int
    code: int
    value: int


def record(type_: int, code: int, value: int, *, long_bytes: int = LONG_BYTES, sec: int = 0, usec: int = 0) -> bytes:
    """One `struct input_event` as the kernel writes it (for tests, the simulator and benchmarks)."""
    return struct.pack(FORMATS[long_bytes], sec, usec, type_, code, value)


def key_records(code: int, value: int, *, long_bytes: int = LONG_BYTES) -> bytes:
    """A key event followed by the SYN_REPORT that closes it, as a keyboard sends them."""
    return record(EV_KEY, code, value, long_bytes=long_bytes) + record(EV_SYN, SYN_REPORT, 0, long_bytes=long_bytes)


class EventParser:
    """Bytes of a device's stream in, `InputEvent`s out; a record split across reads is kept until whole."""

    def __init__(self, long_bytes: int = LONG_BYTES) -> None:
        self._struct = struct.Struct(FORMATS[long_bytes])
        self._pending = b""

    @property
    def size(self) -> int:
        """Bytes per record."""
        return self._struct.size

    def feed(self, data: bytes) -> list[InputEvent]:
        data = self._pending + data
        whole = len(data) - len(data) % self._struct.size
        self._pending = data[whole:]
        return [InputEvent(type_, code, value) for _, _, type_, code, value in self._struct.iter_unpack(data[:whole])]

    def reset(self) -> None:
        self._pending = b""


def key_bits(text: str, long_bytes: int = LONG_BYTES) -> int:
    """The key bitmap sysfs shows in `capabilities/key` ("120013 0 … fffffffffffffffe": hex words of the
    kernel's long, most significant first) as one integer; 0 for text that is no such bitmap."""
    value = 0
    try:
        for word in text.split():
            value = (value << (8 * long_bytes)) | int(word, 16)
    except ValueError:
        return 0
    return value


def has_keys(text: str, codes: tuple[int, ...], long_bytes: int = LONG_BYTES) -> bool:
    """Whether a sysfs key bitmap has every key of `codes`."""
    bits = key_bits(text, long_bytes)
    return all(bits >> code & 1 for code in codes)
