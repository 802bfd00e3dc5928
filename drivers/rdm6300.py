"""RDM6300 (125 kHz EM4100) frame parser and tag debouncer. Sans-I/O: no serial port, no clock here.

Wire format, 9600 8N1: STX (0x02), 10 ASCII hex digits (5 data bytes: version + 4-byte tag number),
2 ASCII hex digits (XOR of the 5 data bytes), ETX (0x03). `FrameParser.feed(bytes)` returns the tag IDs of
the complete, valid frames in the bytes fed so far; anything else is dropped and counted by reason in
`stats`. An STX always starts a new frame, so the parser resynchronises after garbage or a cut frame and
never holds more than one frame's bytes.

The reader repeats the frame while a card rests on it (or sends it once per tap, depending on the module).
`TagDebouncer` turns that stream into one `TagPlaced` per card and one `TagRemoved` after a quiet gap;
the time is passed in (monotonic seconds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

STX = 0x02
ETX = 0x03
FRAME_BODY = 12  # 10 data + 2 checksum hex digits
# IDs a reader reports from noise or an empty field rather than from a tag.
GHOST_IDS = frozenset({"0000000000", "FFFFFFFFFF"})
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def checksum(tag_id: str) -> str:
    """The two hex digits an RDM6300 sends after the 10-digit `tag_id` (XOR of its 5 bytes)."""
    value = 0
    for byte in bytes.fromhex(tag_id):
        value ^= byte
    return f"{value:02X}"


def frame(tag_id: str) -> bytes:
    """The complete frame a reader sends for `tag_id` (10 hex digits). For tests, benches and the sim."""
    if len(tag_id) != 10:
        raise ValueError(f"an RDM6300 tag ID has 10 hex digits, not {len(tag_id)}: {tag_id!r}")
    return bytes([STX]) + (tag_id.upper() + checksum(tag_id)).encode("ascii") + bytes([ETX])


class FrameParser:
    """Feed bytes in any chunking; get back the upper-case 10-digit IDs of valid frames, in order.

    Drop reasons counted in `stats`: "garbage" (bytes outside a frame), "cut" (a frame ended early or was
    restarted by an STX), "long" (no ETX after 12 digits), "not-hex", "checksum", "ghost".
    """

    def __init__(self, ghosts: Iterable[str] = GHOST_IDS) -> None:
        self._ghosts = frozenset(ghost.upper() for ghost in ghosts)
        self._body = bytearray()
        self._in_frame = False
        self.stats: Counter[str] = Counter()

    @property
    def pending(self) -> int:
        """Bytes held for an unfinished frame (never more than 12)."""
        return len(self._body)

    def reset(self) -> None:
        """Forget a partly received frame (after the port was reopened)."""
        self._body.clear()
        self._in_frame = False

    def feed(self, data: bytes) -> list[str]:
        found: list[str] = []
        body = self._body
        at, end = 0, len(data)
        while at < end:
            if not self._in_frame:
                # Outside a frame only an STX matters: skip to it in one step.
                start = data.find(STX, at)
                if start < 0:
                    self.stats["garbage"] += end - at
                    break
                self.stats["garbage"] += start - at
                self._in_frame = True
                body.clear()
                at = start + 1
                continue
            byte = data[at]
            at += 1
            if byte == STX:
                self.stats["cut"] += 1
                body.clear()
            elif len(body) < FRAME_BODY:
                if byte == ETX:
                    self._drop("cut")
                elif byte not in _HEX:
                    self._drop("not-hex")
                else:
                    body.append(byte)
            elif byte == ETX:
                tag = self._check(bytes(body).decode("ascii").upper())
                self._in_frame = False
                body.clear()
                if tag is not None:
                    found.append(tag)
            else:
                self._drop("long")
        return found

    def _drop(self, reason: str) -> None:
        self.stats[reason] += 1
        self._body.clear()
        self._in_frame = False

    def _check(self, text: str) -> str | None:
        tag, sent = text[:10], text[10:]
        if checksum(tag) != sent:
            self.stats["checksum"] += 1
            return None
        if tag in self._ghosts:
            self.stats["ghost"] += 1
            return None
        self.stats["frames"] += 1
        return tag


@dataclass(frozen=True, slots=True)
class TagPlaced:
    tag: str
    at: float


@dataclass(frozen=True, slots=True)
class TagRemoved:
    tag: str
    at: float


TagEvent = TagPlaced | TagRemoved


class TagDebouncer:
    """One `TagPlaced` per card resting on (or tapped on) the reader, `TagRemoved` after `gap` quiet seconds.

    `seen(tag, now)` for every frame; `poll(now)` whenever time passes; `deadline()` says when the next
    poll can change anything. A different tag while one is held removes the old one first. Pure: the
    caller supplies the time.
    """

    def __init__(self, gap: float = 0.5) -> None:
        if gap <= 0:
            raise ValueError("the quiet gap must be positive")
        self.gap = gap
        self._tag: str | None = None
        self._last = 0.0

    @property
    def held(self) -> str | None:
        """The tag currently on the reader, if any."""
        return self._tag

    def seen(self, tag: str, now: float) -> list[TagEvent]:
        events: list[TagEvent] = self.poll(now)
        if tag != self._tag:
            if self._tag is not None:
                events.append(TagRemoved(self._tag, now))
            events.append(TagPlaced(tag, now))
            self._tag = tag
        self._last = now
        return events

    def poll(self, now: float) -> list[TagEvent]:
        if self._tag is not None and now - self._last >= self.gap:
            tag, self._tag = self._tag, None
            return [TagRemoved(tag, now)]
        return []

    def deadline(self) -> float | None:
        """The monotonic time at which the held tag counts as removed, or None when nothing is held."""
        return None if self._tag is None else self._last + self.gap

    def forget(self) -> None:
        """Drop the held tag without an event (the reader itself went away)."""
        self._tag = None
