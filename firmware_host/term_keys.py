"""Keys from a terminal's bytes: an incremental parser and a reader that loses nothing.

`KeyParser` is pure: `feed(bytes)` returns every key those bytes complete, in order, and keeps an
unfinished escape sequence (or UTF-8 character) for the next feed; `flush()` ends the wait for one — a
lone Esc is the Esc key. Recognised: printable characters, Enter (CR, LF or CR LF), Backspace (DEL, BS),
Esc, the arrows (CSI and SS3 forms), Ctrl-C, and bracketed paste (`ESC [200~ … ESC [201~`): the keys of
a paste are marked `pasted`, so a pasted text can be taken as text and never as button keys. Other
control characters and escape sequences (function keys, mouse reports) are read whole and dropped.

`KeyReader` reads a file descriptor with `selectors`: everything available in one go (never a fixed
slice, which split or merged keys before), into the parser, waiting `esc_timeout` after a trailing Esc
to tell a lone Esc from the start of a sequence.

Why our own parser rather than prompt_toolkit's: the simulator needs a dozen keys, the parser is thirty
lines that can be property-tested byte by byte, and prompt_toolkit's parser is not its public API and
would be a dependency of the Pi's service for the sake of the simulator.
"""

from __future__ import annotations

import codecs
import os
import selectors
import threading
from collections.abc import Iterator
from dataclasses import dataclass

ESC = "\x1b"
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}
NAMED = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\b": "backspace", "\x03": "ctrl-c"}


@dataclass(frozen=True, slots=True)
class Key:
    """One key: `name` is "char" (with its `text`), "enter", "backspace", "esc", "up", "down", "left",
    "right" or "ctrl-c". `pasted` marks the keys of a bracketed paste."""

    name: str
    text: str = ""
    pasted: bool = False


def char(text: str, pasted: bool = False) -> Key:
    return Key("char", text, pasted)


def is_text(c: str) -> bool:
    """Not a control character (C0, DEL, C1): text, which the edge (`text_input.at_edge`) then normalises."""
    return c >= " " and not "\x7f" <= c <= "\x9f"


class KeyParser:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._pasting = False

    @property
    def pending(self) -> bool:
        """Whether an unfinished escape sequence waits for more bytes (or for `flush`)."""
        return bool(self._buffer)

    def feed(self, data: bytes) -> list[Key]:
        self._buffer += self._decoder.decode(data)
        return self._parse(final=False)

    def flush(self) -> list[Key]:
        """No more bytes came: what waits is taken as it is (a lone Esc is the Esc key)."""
        return self._parse(final=True)

    def _parse(self, final: bool) -> list[Key]:
        keys: list[Key] = []
        text, i = self._buffer, 0
        while i < len(text):
            step = self._paste_step(text, i, final) if self._pasting else self._key_step(text, i, final)
            if step is None:  # unfinished: wait for more
                break
            used, key = step
            i += used
            if key is not None:
                keys.append(key)
        self._buffer = text[i:]
        return keys

    def _key_step(self, text: str, i: int, final: bool) -> tuple[int, Key | None] | None:
        c = text[i]
        if c == ESC:
            return self._escape(text, i, final)
        if c == "\r" and text.startswith("\r\n", i):
            return 2, Key("enter")
        if c == "\r" and i + 1 == len(text) and not final:
            return None  # perhaps CR LF, cut between reads (a terminal's Enter alone is flushed at once)
        if c in NAMED:
            return 1, Key(NAMED[c])
        if is_text(c):
            return 1, char(c)
        return 1, None  # another control character

    def _escape(self, text: str, i: int, final: bool) -> tuple[int, Key | None] | None:
        """Esc at `i`: a CSI (ESC [ params final) or SS3 (ESC O x) sequence, or the Esc key."""
        n = len(text)
        if i + 1 == n:
            return (1, Key("esc")) if final else None
        if text[i + 1] == "[":
            j = i + 2
            while j < n and text[j] in "0123456789;?<=>":
                j += 1
            if j == n:  # no final byte yet
                return (1, Key("esc")) if final else None
            if not "\x40" <= text[j] <= "\x7e":
                return 1, Key("esc")  # not a sequence after all: Esc, then the rest as keys
            sequence = text[i:j + 1]
            if sequence == PASTE_START:
                self._pasting = True
                return len(sequence), None
            if sequence == PASTE_END:  # an end without a start: nothing
                return len(sequence), None
            params = text[i + 2:j]
            arrow = text[j] in ARROWS and (params in ("", "1") or params.startswith("1;"))  # also Ctrl/Shift+
            return len(sequence), Key(ARROWS[text[j]]) if arrow else None
        if text[i + 1] == "O":
            if i + 2 == n:
                return (1, Key("esc")) if final else None
            return 3, Key(ARROWS[text[i + 2]]) if text[i + 2] in ARROWS else None
        return 1, Key("esc")  # Esc, then whatever followed as keys of its own

    def _paste_step(self, text: str, i: int, final: bool) -> tuple[int, Key | None] | None:
        tail = text[i:i + len(PASTE_END)]
        if tail == PASTE_END:
            self._pasting = False
            return len(PASTE_END), None
        if text[i] == ESC and len(tail) < len(PASTE_END) and PASTE_END.startswith(tail) and not final:
            return None  # perhaps the end marker, cut between reads
        c = text[i]
        if c == "\r" and text.startswith("\r\n", i):
            return 2, Key("enter", pasted=True)
        if c == "\r" and i + 1 == len(text) and not final:
            return None
        if c in ("\r", "\n"):
            return 1, Key("enter", pasted=True)
        if is_text(c):
            return 1, char(c, pasted=True)
        return 1, None


class KeyReader:
    """Keys from a file descriptor (a terminal in cbreak/raw mode), in order, none lost."""

    def __init__(self, fd: int, esc_timeout: float = 0.05, poll: float = 0.2) -> None:
        self.fd = fd
        self.esc_timeout = esc_timeout
        self.poll = poll
        self.parser = KeyParser()

    def keys(self, stop: threading.Event) -> Iterator[list[Key]]:
        """Batches of keys as they come, until `stop` is set or the input ends (EOF)."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.fd, selectors.EVENT_READ)
            while not stop.is_set():
                ready = selector.select(self.esc_timeout if self.parser.pending else self.poll)
                if not ready:
                    if self.parser.pending:
                        yield self.parser.flush()
                    continue
                data = self._read_available(selector)
                if not data:
                    yield self.parser.flush()
                    return
                keys = self.parser.feed(data)
                if keys:
                    yield keys

    def _read_available(self, selector: selectors.BaseSelector) -> bytes:
        chunks: list[bytes] = []
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the terminal went away (EIO on a closed pty)
                chunk = b""
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            if not selector.select(0):
                return b"".join(chunks)
