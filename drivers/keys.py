"""From a keyboard's input events to key actions, and from key actions to the table's events. Sans-I/O.

`KeyDecoder` (one per device) follows the modifiers (Shift, AltGr = right Alt, Ctrl, Caps Lock) and turns
each key press into an action: a character of the layout (`Char`), `BACKSPACE`, `ENTER`, `ESCAPE`,
`FORWARD` (Tab, →, ↓), `BACKWARD` (Shift+Tab, ←, ↑) or `MENU`. A held key repeats (value 2) only
characters and Backspace: a held Enter sends one line. Keys with Ctrl or left Alt give nothing, as do
keys outside the layout: no control character is ever made. A `SYN_DROPPED` (the kernel lost events)
or a device gone forgets the modifiers.

`LineEditor` (one for the table, shared by every keyboard) keeps the line being typed and makes the
table's events: the line as it stands after each change (`Typing`), the line on Enter (the `TextEntry`
that the injected `line` makes — `core.text_field.typed`, the one way a typed line enters the core),
Esc (clears a line, else BACK),
NEXT for forward and a long NEXT (the table's "one back") for backward, MENU. It holds at most
`MAX_BUFFER` characters (a held key fills it and then stops changing it). `coalesce` keeps only the last
`Typing` of a run, so a burst of keys is one redraw.

`ScanLine` is a keyboard-mode barcode scanner's side: characters up to Enter (or Tab) are one code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from drivers.input_event import EV_KEY, EV_SYN, KEY_PRESS, KEY_RELEASE, KEY_REPEAT, SYN_DROPPED, InputEvent
from drivers.keymap import (
    KEY_BACKSPACE,
    KEY_CAPSLOCK,
    KEY_COMPOSE,
    KEY_DOWN,
    KEY_ENTER,
    KEY_ESC,
    KEY_KPENTER,
    KEY_LEFT,
    KEY_LEFTALT,
    KEY_LEFTCTRL,
    KEY_LEFTSHIFT,
    KEY_MENU,
    KEY_RIGHT,
    KEY_RIGHTALT,
    KEY_RIGHTCTRL,
    KEY_RIGHTSHIFT,
    KEY_TAB,
    KEY_UP,
    Keys,
)
from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Typing


class Key(Enum):
    BACKSPACE = "backspace"
    ENTER = "enter"
    ESCAPE = "escape"
    FORWARD = "forward"
    BACKWARD = "backward"
    MENU = "menu"


@dataclass(frozen=True, slots=True)
class Char:
    char: str


Action = Char | Key

_SHIFTS = (KEY_LEFTSHIFT, KEY_RIGHTSHIFT)
_CTRLS = (KEY_LEFTCTRL, KEY_RIGHTCTRL)
_KEYS = {KEY_BACKSPACE: Key.BACKSPACE, KEY_ENTER: Key.ENTER, KEY_KPENTER: Key.ENTER, KEY_ESC: Key.ESCAPE,
         KEY_RIGHT: Key.FORWARD, KEY_DOWN: Key.FORWARD, KEY_LEFT: Key.BACKWARD, KEY_UP: Key.BACKWARD,
         KEY_COMPOSE: Key.MENU, KEY_MENU: Key.MENU}


class KeyDecoder:
    """Input events of one keyboard in, key actions out."""

    def __init__(self, layout: Keys) -> None:
        self.layout = layout
        self.reset()

    def reset(self) -> None:
        """Forget the modifiers (events were lost, or the device is gone). Caps Lock is kept off too."""
        self._down: set[int] = set()
        self.caps = False

    def feed(self, event: InputEvent) -> Action | None:
        if event.type == EV_SYN and event.code == SYN_DROPPED:
            self.reset()
            return None
        if event.type != EV_KEY:
            return None
        code, value = event.code, event.value
        if value == KEY_RELEASE:
            self._down.discard(code)
            return None
        if value not in (KEY_PRESS, KEY_REPEAT):
            return None
        repeat = value == KEY_REPEAT
        if not repeat:
            self._down.add(code)
            if code == KEY_CAPSLOCK:
                self.caps = not self.caps
                return None
        if any(key in self._down for key in (*_CTRLS, KEY_LEFTALT)):
            return None
        shift = any(key in self._down for key in _SHIFTS)
        if code == KEY_TAB:
            return None if repeat else Key.BACKWARD if shift else Key.FORWARD
        if code in _KEYS:
            key = _KEYS[code]
            return key if key is Key.BACKSPACE or not repeat else None
        plain, shifted, altgr = self.layout.get(code, ("", "", ""))
        if KEY_RIGHTALT in self._down:
            char = altgr
        else:
            char = shifted if shift else plain
            if self.caps and plain.isalpha() and len(plain.upper()) == 1 and plain != plain.upper():
                char = plain if shift else plain.upper()
        return Char(char) if char and char.isprintable() else None


MAX_BUFFER = 128  # above the core's longest line (text_input.LINE, 120): it shows as too long, then stops


class LineEditor:
    """The table's line being typed, from the key actions of every keyboard; the events they make.
    `line(text, at)` makes the `TextEntry` Enter sends."""

    def __init__(self, line: Callable[[str, float], TextEntry], max_buffer: int = MAX_BUFFER) -> None:
        self._entry = line
        self.line = ""
        self.max_buffer = max_buffer

    def apply(self, action: Action, at: float) -> list[Event]:
        if isinstance(action, Char):
            if len(self.line) >= self.max_buffer:
                return []
            self.line += action.char
            return [Typing(self.line, at)]
        if action is Key.BACKSPACE:
            if not self.line:
                return []
            self.line = self.line[:-1]
            return [Typing(self.line, at)]
        if action is Key.ENTER:
            line, self.line = self.line, ""
            return [self._entry(line, at)]
        if action is Key.ESCAPE:
            if self.line:
                self.line = ""
                return [Typing("", at)]
            return [Press(Button.BACK, at)]
        if action is Key.FORWARD:
            return [Press(Button.NEXT, at)]
        if action is Key.BACKWARD:
            return [LongPress(Button.NEXT, at)]
        return [Press(Button.MENU, at)]


def coalesce(events: list[Event]) -> list[Event]:
    """`events` without the `Typing`s that another `Typing` follows before any other event: the table
    needs only the line as it stands."""
    kept: list[Event] = []
    for event in events:
        if isinstance(event, Typing) and kept and isinstance(kept[-1], Typing):
            kept[-1] = event
        else:
            kept.append(event)
    return kept


class ScanLine:
    """A keyboard-mode scanner's codes: the characters up to Enter or Tab. A code longer than
    `max_length` is dropped whole (`dropped` counts them), as the serial scanners' lines are."""

    def __init__(self, max_length: int) -> None:
        self.max_length = max_length
        self._code = ""
        self._spoilt = False
        self.dropped = 0

    def apply(self, action: Action) -> str | None:
        """The code a terminator ends (None: none yet, or dropped)."""
        if isinstance(action, Char):
            if len(self._code) >= self.max_length:
                self._spoilt = True
            else:
                self._code += action.char
            return None
        if action in (Key.ENTER, Key.FORWARD, Key.BACKWARD):  # Enter, or Tab (Shift+Tab) as some send
            code, spoilt = self._code.strip(), self._spoilt
            self._code, self._spoilt = "", False
            if spoilt:
                self.dropped += 1
                return None
            return code or None
        return None
