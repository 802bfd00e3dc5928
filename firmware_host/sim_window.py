"""`wordtable sim --window`: the box in a window — the OLED pixel-exact at 4× (luma.emulator's own rendering
of a frame into a pygame surface), the LED bar, the buttons and the encoder (clickable, and on the keyboard
while the window has the focus: s n b m t e, held = long press, ← → or [ ] turn), and the buzzer's tones
through pygame.mixer when there is an audio device (silently none otherwise).

The window is one more front end of the `LiveBox`, beside the terminal: the terminal keeps its keys (typing
lines too) and its drawing; the window runs in the main thread (SDL wants its window there) and the shell in
a thread of its own. Closing the window, Esc or q in it, or q in the terminal end the run.

An optional extra: `pip install -e '.[window]'` (luma.emulator and pygame). `open_window` returns None and
what to say, in the box's language, when there is no pygame (how to install it) or no display (how to get
one); the caller then plays in the terminal alone.
"""

from __future__ import annotations

import array
import contextlib
import math
import os
import threading
from collections.abc import Callable
from typing import Any

from firmware_host.core.i18n import pick
from firmware_host.render import FONT_DIR
from firmware_host.sim_box import LiveBox

SCALE = 4  # OLED pixels -> window pixels
MARGIN = 24
OLED_AT = (MARGIN, MARGIN)  # the OLED's top-left corner in the window
BUTTON_W, BUTTON_H, GAP = 96, 44, 10
RATE = 22050  # audio samples per second
FPS = 30
KEYS = {"s": "start", "n": "next", "b": "back", "m": "menu", "t": "turn", "e": "encoder"}
TEXT = {
    "de": {"title": "wordtable – die Box", "push": "Knopf",
           "help": "Klick/Taste: s n b m t e (halten = lang) · ← → drehen · Esc schließt"},
    "en": {"title": "wordtable – the box", "push": "Knob",
           "help": "Click/key: s n b m t e (hold = long) · ← → turn · Esc closes"},
}
NO_WINDOW = {  # why there is no window (the first line) and what to do
    "de": {
        "missing": "wordtable sim: kein Fenster, {module} fehlt – es geht im Terminal weiter.\n"
                   "  Installieren: pip install -e '.[window]' (im Checkout; sonst pip install pygame luma.emulator)",
        "no_display": "wordtable sim: kein Fenster, kein Bildschirm (DISPLAY ist nicht gesetzt) – es geht im "
                      "Terminal weiter.\n"
                      "  In einer Desktop-Sitzung starten oder mit einem virtuellen: xvfb-run wordtable sim --window",
        "cannot_open": "wordtable sim: kein Fenster, der Bildschirm lässt sich nicht öffnen ({error}) – es geht im "
                       "Terminal weiter.\n"
                       "  In einer Desktop-Sitzung starten oder mit einem virtuellen: xvfb-run wordtable sim --window",
        "browser": "  (oder die Box im Browser: wordtable sim --page, dann http://127.0.0.1:8080/box öffnen)",
    },
    "en": {
        "missing": "wordtable sim: no window, {module} is not installed – playing in the terminal.\n"
                   "  Install it: pip install -e '.[window]' (in the checkout; else pip install pygame luma.emulator)",
        "no_display": "wordtable sim: no window, no display (DISPLAY is not set) – playing in the terminal.\n"
                      "  Start it in a desktop session, or on a virtual display: xvfb-run wordtable sim --window",
        "cannot_open": "wordtable sim: no window, the display cannot be opened ({error}) – playing in the terminal.\n"
                       "  Start it in a desktop session, or on a virtual display: xvfb-run wordtable sim --window",
        "browser": "  (or try the box in a browser: wordtable sim --page, then open http://127.0.0.1:8080/box)",
    },
}


def open_window(box: LiveBox) -> tuple[Window | None, str]:
    """The window for `box`, or None and what to say instead, in the box's language: the first line why
    (pygame or luma.emulator missing, no display), the next what to do, the last the browser's virtual box."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # its greeting would land in the terminal's frame
    lang = box.resolved.config.appliance.language

    def why(key: str, **fields: object) -> tuple[None, str]:
        return None, pick(NO_WINDOW, lang, key, **fields) + "\n" + pick(NO_WINDOW, lang, "browser")

    try:
        import pygame
        from luma.emulator.device import emulator
    except ImportError as exc:
        return why("missing", module=exc.name or "pygame")
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return why("no_display")
    try:
        return Window(box, pygame, emulator), ""
    except pygame.error as exc:
        with contextlib.suppress(Exception):
            pygame.quit()
        return why("cannot_open", error=exc)


class Window:
    def __init__(self, box: LiveBox, pygame: Any, emulator: type) -> None:
        self.box, self.pg = box, pygame
        display = box.resolved.profile.display
        # luma.emulator's rendering: a frame -> a pygame surface, each pixel a SCALE×SCALE block
        self.oled = emulator(display.width, display.height, 0, "RGB", "identity", SCALE)
        self.oled_size = (display.width * SCALE, display.height * SCALE)
        pygame.display.init()
        pygame.font.init()
        font = str(FONT_DIR / "DejaVuSans.ttf")
        self.font = pygame.font.Font(font, 16)
        self.small = pygame.font.Font(font, 12)
        self.buttons = self._layout()
        bottom = max(rect.bottom for rect, _, _ in self.buttons)
        self.size = (self.oled_size[0] + 2 * MARGIN, bottom + 2 * MARGIN + 16)
        self.screen = pygame.display.set_mode(self.size)
        pygame.display.set_caption(TEXT["de"]["title"])
        self.audio = _open_audio(pygame)
        self.held: set[str] = set()
        self._heard = 0

    # --- layout -------------------------------------------------------------------------------------

    def bar_rects(self) -> list[Any]:
        count = len(self.box.resolved.profile.led_bar.pins)
        width = (self.oled_size[0] - (count - 1) * 8) // count
        top = OLED_AT[1] + self.oled_size[1] + 20
        return [self.pg.Rect(OLED_AT[0] + i * (width + 8), top, width, 16) for i in range(count)]

    def _layout(self) -> list[tuple[Any, str, str]]:
        """(rect, kind, name) of every clickable thing: ("pin", button) or ("turn", "-1"/"+1")."""
        rect = self.pg.Rect
        top = OLED_AT[1] + self.oled_size[1] + 70
        names = [n for n in self.box.buttons() if n != "encoder"]
        out = [(rect(OLED_AT[0] + i * (BUTTON_W + GAP), top, BUTTON_W, BUTTON_H), "pin", name)
               for i, name in enumerate(names)]
        if self.box.resolved.profile.encoder.enabled:
            top += BUTTON_H + GAP
            out += [(rect(OLED_AT[0], top, BUTTON_H, BUTTON_H), "turn", "-1"),
                    (rect(OLED_AT[0] + BUTTON_H + GAP, top, BUTTON_W, BUTTON_H), "pin", "encoder"),
                    (rect(OLED_AT[0] + BUTTON_H + BUTTON_W + 2 * GAP, top, BUTTON_H, BUTTON_H), "turn", "+1")]
        return out

    # --- the loop -----------------------------------------------------------------------------------

    def run(self, running: Callable[[], bool], close: Callable[[], None]) -> None:
        """Draw and take input until `running()` is false or the window is closed (then `close()`)."""
        clock = self.pg.time.Clock()
        try:
            while running():
                if not self._events():
                    close()
                    break
                self.draw()
                self._sound()
                clock.tick(FPS)
        finally:
            for name in list(self.held):
                self.box.drive(name, False)
            self.pg.quit()

    def _events(self) -> bool:
        pg = self.pg
        for event in pg.event.get():
            if event.type == pg.QUIT:
                return False
            if event.type == pg.KEYDOWN:
                if event.key == pg.K_ESCAPE or event.unicode == "q":
                    return False
                if event.key in (pg.K_LEFT, pg.K_RIGHT) or event.unicode in ("[", "]"):
                    self.box.turn(1 if event.key == pg.K_RIGHT or event.unicode == "]" else -1)
                elif event.unicode.lower() in KEYS:
                    self._pin(KEYS[event.unicode.lower()], True)
            elif event.type == pg.KEYUP:
                name = KEYS.get(pg.key.name(event.key).lower())
                if name is not None:
                    self._pin(name, False)
            elif event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
                for rect, kind, name in self.buttons:
                    if rect.collidepoint(event.pos):
                        if kind == "pin":
                            self._pin(name, True)
                        else:
                            self.box.turn(int(name))
            elif event.type == pg.MOUSEBUTTONUP and event.button == 1:
                for name in list(self.held):
                    self._pin(name, False)
        return True

    def _pin(self, name: str, down: bool) -> None:
        if down == (name in self.held) or name not in self.box.buttons():
            return
        (self.held.add if down else self.held.discard)(name)
        self.box.drive(name, down)

    def draw(self) -> None:
        pg, screen = self.pg, self.screen
        if self.box.appliance is None:  # the appliance is still opening
            return
        lang = self.box.appliance.shell.state.settings.lang if self.box.appliance is not None else "de"
        texts = TEXT.get(lang, TEXT["de"])
        pg.display.set_caption(texts["title"])
        screen.fill((58, 53, 48))
        _, image = self.box.frame()
        bezel = pg.Rect(OLED_AT[0] - 6, OLED_AT[1] - 6, self.oled_size[0] + 12, self.oled_size[1] + 12)
        pg.draw.rect(screen, (17, 17, 17), bezel, border_radius=4)
        screen.blit(self.oled.to_surface(image.convert("RGB")), OLED_AT)
        for rect, value in zip(self.bar_rects(), self.box.bar(), strict=True):
            level = 0.08 + 0.92 * value
            pg.draw.rect(screen, (int(255 * level), int(136 * level), 0), rect, border_radius=3)
        sound = self.box.sound_now()
        tone = sound.first_tone if sound is not None else None
        if tone:
            label = self.font.render(f"♪ {tone:.0f} Hz", True, (255, 204, 102))
            screen.blit(label, (OLED_AT[0], self.bar_rects()[0].bottom + 8))
        for rect, kind, name in self.buttons:
            down = kind == "pin" and name in self.held
            pg.draw.rect(screen, (150, 150, 150) if down else (221, 221, 221), rect, border_radius=8)
            text = {"-1": "◀", "+1": "▶"}.get(name, texts["push"] if name == "encoder" else name.upper())
            label = self.font.render(text, True, (17, 17, 17))
            screen.blit(label, label.get_rect(center=rect.center))
        help_ = self.small.render(texts["help"], True, (190, 190, 190))
        screen.blit(help_, (OLED_AT[0], self.size[1] - MARGIN - 8))
        pg.display.flip()

    def _sound(self) -> None:
        sound = self.box.sound_now()
        if sound is None or sound.seq == self._heard:
            return
        self._heard = sound.seq
        if self.audio is not None:
            with contextlib.suppress(Exception):
                self.audio.Sound(buffer=square_wave(sound.notes)).play()


def square_wave(notes: tuple[tuple[float | None, float], ...], rate: int = RATE, volume: int = 6000) -> bytes:
    """The notes as 16-bit mono samples: a square wave per tone, silence for a rest."""
    samples = array.array("h")
    for hz, seconds in notes:
        count = int(seconds * rate)
        if not hz:
            samples.extend([0] * count)
            continue
        half = rate / (2 * hz)
        samples.extend(volume if math.floor(i / half) % 2 == 0 else -volume for i in range(count))
    return samples.tobytes()


def _open_audio(pygame: Any) -> Any:
    """pygame.mixer at 16-bit mono, or None when there is no audio device."""
    try:
        pygame.mixer.init(frequency=RATE, size=-16, channels=1)
    except Exception:
        return None
    return pygame.mixer


def run_window(window: Window, shell_run: Callable[[], None], stop: Callable[[], None]) -> None:
    """`shell_run` (the appliance's whole session) in a thread, the window in this (the main) thread, until
    either ends; closing the window calls `stop`. An error of the session is raised here."""
    done = threading.Event()
    failed: list[BaseException] = []

    def shell() -> None:
        try:
            shell_run()
        except BaseException as exc:
            failed.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=shell, name="shell", daemon=True)
    thread.start()
    window.run(lambda: not done.is_set(), stop)
    thread.join(10)
    if failed:
        raise failed[0]
