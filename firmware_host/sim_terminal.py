"""The live simulator in a terminal: keys press the buttons on the mock pins, frames are drawn as text.

Runs the same `Shell.run` loop as the service, in real time. Three threads meet here, each with one job:
- the key reader (`term_keys.KeyReader`) turns every byte of the terminal into keys, in order, and
  `KeyHandler` turns those into inputs queued on the `LiveBox` (buttons and the encoder on the mock pins,
  typed lines as events) — a paste is never lost, and a pasted text never presses a button;
- the painter draws the table whenever something changed: a frame, the LED bar (polled from the mock pins,
  so a blink shows), the sound marker (cleared when the tone ends), the terminal's size (SIGWINCH);
- the shell runs in the main thread (with `--window` in a thread of its own: the window takes the main one).
The terminal is put in cbreak mode without signals (Ctrl-C is a key: it quits like `q`), on the alternate
screen with bracketed paste; whatever ends the run, the terminal is restored and the cursor shown.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import termios
import textwrap
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from firmware_host.appliance import Appliance, open_appliance, settle_heap
from firmware_host.config import Resolved
from firmware_host.core.events import Typing
from firmware_host.core.i18n import pick
from firmware_host.core.text_input import LINE
from firmware_host.sim_box import LiveBox, typed_event
from firmware_host.term_keys import Key, KeyReader
from firmware_host.textscreen import frame

TEXT = {
    "de": {
        "help": "s n b m Tasten · S N B M lang · [ ] drehen · e Knopf · t Zug · ⏎ tippen · q Ende",
        "typing": "Eingabe: {line}▏ (Enter: senden, Esc: abbrechen)",
        "page": "Handy-Seite: {address}/ · virtuelle Box: {address}/box",
    },
    "en": {
        "help": "s n b m buttons · S N B M hold · [ ] turn · e knob · t turn key · ⏎ type · q end",
        "typing": "Typing: {line}▏ (Enter: send, Esc: cancel)",
        "page": "Table page: {address}/ · virtual box: {address}/box",
    },
}
KEYS = {"s": "start", "n": "next", "b": "back", "m": "menu", "t": "turn", "e": "encoder"}
TURNS = {"[": -1, "]": 1, "left": -1, "right": 1}
TYPED_MAX = 4 * LINE.limit  # what the typing line keeps
POLL_S = 0.1  # the painter looks at the LED bar this often


class KeyHandler:
    """Keys -> inputs on the box, in order. Enter opens a typing line; while it is open every key is text
    (Enter sends it, Esc cancels it). Outside it, letters are buttons — except pasted text, which opens a
    typing line with it, so a pasted name never presses a button."""

    def __init__(self, box: LiveBox, quit: Callable[[], None]) -> None:
        self.box = box
        self.quit = quit
        self.typing: str | None = None
        self._shown = ""  # the line in the making last sent as `Typing`

    def handle(self, keys: list[Key]) -> None:
        for key in keys:
            self._key(key)
        self._show_typing()

    def _key(self, key: Key) -> None:
        if key.name == "ctrl-c":
            self.box.after(self.quit)
        elif self.typing is not None:
            self._typing_key(key)
        elif key.name == "enter":
            self.typing = ""
        elif key.name == "char" and key.pasted:
            self.typing = key.text
        elif key.name == "char" and key.text == "q":
            self.box.after(self.quit)
        elif key.name == "char" and key.text.lower() in KEYS:
            self.box.press(KEYS[key.text.lower()], long=key.text.isupper())
        elif key.name in TURNS or key.text in TURNS:
            self.box.turn(TURNS[key.name if key.name in TURNS else key.text])

    def _typing_key(self, key: Key) -> None:
        assert self.typing is not None
        if key.name == "enter":
            line, resolved = self.typing, self.box.resolved
            self.typing = None
            if line.startswith("@"):
                self._show_typing()
            self._shown = ""  # a TextEntry clears the line on the OLED
            self.box.put(lambda at: typed_event(line, resolved, at))
        elif key.name == "esc":
            self.typing = None
            self._show_typing()
        elif key.name == "backspace":
            self.typing = self.typing[:-1]
        elif key.name == "char" and len(self.typing) <= TYPED_MAX:  # a longer paste is cut (then refused)
            self.typing += key.text

    def _show_typing(self) -> None:
        """The OLED shows the line as it is typed (a card code, "@…", is not shown)."""
        line = self.typing or ""
        if line != self._shown and not line.startswith("@"):
            self._shown = line
            self.box.put(lambda at: Typing(line, at))


class Painter:
    """Draws the table on `out` from its own thread: at once when asked (`request`), when the sound's notes
    end, and whenever the LED bar on the mock pins or the terminal's size changed. `status(columns)` gives
    the lines under the table: the key help or typing line, then more (a tour's hint, wrapped)."""

    def __init__(self, box: LiveBox, out: TextIO, status: Callable[[int], list[str]],
                 size: Callable[[], tuple[int, int]]) -> None:
        self.box, self.out, self.status, self.size = box, out, status, size
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._clear = True
        self._last: tuple[Any, ...] | None = None
        self._thread = threading.Thread(target=self._run, name="sim-painter", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def request(self, clear: bool = False) -> None:
        self._clear = self._clear or clear
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(2)

    def _run(self) -> None:
        while not self._stop.is_set():
            sound = self.box.sound_now()
            timeout = POLL_S if sound is None else max(0.0, min(POLL_S, sound.until - self.box.clock()))
            self._wake.wait(timeout)
            self._wake.clear()
            if not self._stop.is_set():
                self.paint()

    def paint(self) -> None:
        """Draw now if anything shown differs from the last drawing."""
        if self.box.appliance is None:  # not open yet
            return
        seq, image = self.box.frame()
        sound = self.box.sound_now()
        tone = None if sound is None else (sound.first_tone or True)
        columns, lines = self.size()
        status = self.status(columns)
        bar = self.box.bar()
        state = (seq, tuple(bar), tone, columns, lines, tuple(status))
        if state == self._last and not self._clear:
            return
        if self._last is not None and self._last[3:5] != (columns, lines):  # resized (also without SIGWINCH)
            self._clear = True
        self._last = state
        extra = [row for line in status[1:] for row in textwrap.wrap(line, columns) or [""]]
        text = frame(image, bar, tone, status[0] if status else "", size=(columns, lines - len(extra)))
        rows = text.split("\n") + extra
        prefix = "\x1b[H\x1b[2J" if self._clear else "\x1b[H"
        self._clear = False
        self.out.write(prefix + "\r\n".join(row + "\x1b[K" for row in rows) + "\x1b[J")
        self.out.flush()


@contextlib.contextmanager
def raw_terminal(fd: int, out: TextIO) -> Iterator[None]:
    """cbreak without signals, alternate screen, bracketed paste, hidden cursor; all undone on the way out."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        mode = termios.tcgetattr(fd)
        mode[3] &= ~(termios.ISIG | termios.IEXTEN)
        mode[0] &= ~(termios.IXON | termios.ICRNL)  # Ctrl-S/Ctrl-Q are keys; CR stays CR (CR LF is one Enter)
        termios.tcsetattr(fd, termios.TCSADRAIN, mode)
        out.write("\x1b[?1049h\x1b[?2004h\x1b[?25l")
        out.flush()
        yield
    finally:
        out.write("\x1b[?2004l\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def terminal_size(fd: int) -> tuple[int, int]:
    try:
        size = os.get_terminal_size(fd)
    except OSError:
        return 80, 24
    return max(size.columns, 20), max(size.lines, 8)


def press(appliance: Appliance, pin_number: int, seconds: float) -> None:
    """Press a button on its mock pin (active low, as wired) for `seconds`."""
    pin = appliance.hardware.pin_factory.pin(pin_number)
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def appliance_buttons(resolved: Resolved) -> dict[str, int]:
    b = resolved.profile.buttons
    buttons = {"start": b.start, "next": b.next, "back": b.back, "menu": b.menu}
    return buttons if b.turn is None else {**buttons, "turn": b.turn}


def status_lines(box: LiveBox, keys: KeyHandler, hint: Callable[[], str | None] = lambda: None,
                 columns: int = 80) -> list[str]:
    """The lines under the table: the typing line or the key help, then `hint`'s lines (a tour's hint, where
    the table page is; None: none). A typing line wider than `columns` shows the end of what is typed
    (where the cursor is)."""
    lang = box.appliance.shell.state.settings.lang if box.appliance is not None else "de"
    if keys.typing is None:
        bottom = pick(TEXT, lang, "help")
    else:
        line = keys.typing
        bottom = pick(TEXT, lang, "typing", line=line)
        if len(bottom) > columns:
            room = max(1, len(line) - (len(bottom) - columns) - 1)
            bottom = pick(TEXT, lang, "typing", line="…" + line[-room:])
    extra = hint()
    return [bottom] if extra is None else [bottom, *extra.split("\n")]


def run_live(resolved: Resolved, state_dir: Path, *, page: bool = False, window: bool = False,
             hint: Callable[[LiveBox], str | None] | None = None) -> int:
    """Play the box in this terminal until `q` or Ctrl-C. `hint` (a tour's) gives a line shown under the
    key help, asked again at every redraw. `window`: the box in a window too (sim_window), when it can be
    opened; else two lines under the key help say why and what to do (install it, or get a display), and so
    does stderr at the end.
    The appliance lives in the thread that runs its shell (its journal belongs to that thread): this one,
    or with a window a thread of its own, the window taking this one."""
    box = LiveBox(resolved)
    win, no_window = None, ""
    if window:
        from firmware_host.sim_window import open_window

        win, no_window = open_window(box)
    fd, out = sys.stdin.fileno(), sys.stdout
    stop = threading.Event()

    def quit_() -> None:
        if box.appliance is not None:
            box.appliance.shell.stop()

    served: list[str] = []  # the table page's address, once it is served (`--page`)
    unserved: list[str] = []  # why the table page could not be served, and what to do

    def extra() -> str | None:
        lines = no_window.split("\n")[:2] if no_window else [hint(box) or ""] if hint is not None else []
        if served:
            lang = box.appliance.shell.state.settings.lang if box.appliance is not None else "de"
            lines.append(pick(TEXT, lang, "page", address=served[0]))
        lines = [line for line in lines + unserved if line]
        return "\n".join(lines) if lines else None

    keys = KeyHandler(box, quit_)
    painter = Painter(box, out, lambda columns: status_lines(box, keys, extra, columns),
                      lambda: terminal_size(out.fileno()))
    box.listeners.append(painter.request)
    previous = signal.signal(signal.SIGWINCH, lambda *_: painter.request(clear=True))

    def read() -> None:
        for batch in KeyReader(fd).keys(stop):
            keys.handle(batch)
            painter.request()
        box.after(quit_)  # the input ended

    def session() -> None:
        from firmware_host.page.attach import serve_page

        appliance = open_appliance(resolved, state_dir, outputs_hook=box.hook, power_off=lambda: None,
                                   prepare_lists=True)
        box.attach(appliance)
        server = serve_page(appliance, resolved, state_dir, asked=page, box=box, failed=unserved.append)
        if server is not None and server.address is not None:
            served.append(server.address)
        settle_heap()
        try:
            painter.request()
            appliance.shell.run()
        finally:
            if server is not None:
                server.close()
            box.close()
            appliance.close()

    try:
        with raw_terminal(fd, out):
            painter.start()
            threading.Thread(target=read, name="sim-keys", daemon=True).start()
            try:
                with contextlib.suppress(KeyboardInterrupt):
                    if win is not None:
                        from firmware_host.sim_window import run_window

                        run_window(win, session, lambda: box.after(quit_))
                    else:
                        session()
            finally:
                stop.set()
                painter.stop()
    finally:
        stop.set()
        signal.signal(signal.SIGWINCH, previous)
        if no_window:
            print(no_window, file=sys.stderr)
        for text in unserved:
            print(f"wordtable sim: {text}", file=sys.stderr)
    return 0
