"""The self-test walk: every part of the box in turn, on the hardware `hw.build` made from the profile.

Each step puts its pattern or instruction on the OLED and tells the terminal, through `tell(Prompt)`, what
should happen (both in the box's language, `text`); then it waits for the answer (`conversation`):
- a confirm step (the OLED patterns, the LED bar, the buzzer) for yes or no;
- an event step (each button's press and long press, the encoder both ways and its push, each reader, a
  line typed on a USB keyboard) for that event itself; the wrong button is named (swapped wires show up).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from drivers.errors import HardwareError
from firmware_host.core.events import Button, CardScan, LongPress, Press, ReaderStatus, TextEntry, Turn
from firmware_host.core.screens import MessageScreen
from firmware_host.core.sounds import Note, duty
from firmware_host.core.sounds import notes as pattern_notes
from firmware_host.render import render
from firmware_host.selftest import patterns
from firmware_host.selftest.conversation import Conversation
from firmware_host.selftest.hands import MockHands
from firmware_host.selftest.steps import Outcome, Quit, Result, Step, Tell
from firmware_host.selftest.text import say, text
from hw.build import Hardware
from hw.profile import Profile

if TYPE_CHECKING:
    from PIL import Image

PARTS = ("display", "buttons", "encoder", "led_bar", "buzzer", "readers", "keyboard")
BUTTONS = (Button.START, Button.NEXT, Button.BACK, Button.MENU)
TONES = (262.0, 330.0, 392.0, 523.0, 659.0, 784.0, 1047.0, 1319.0)  # C4 … E6, inside the buzzer's range
TONE_S = 0.2
BEEPS = 3
FRAME_S = 0.3  # one LED segment, one display page, one dimming step
DIM_STEPS = (1.0, 0.8, 0.6, 0.4, 0.2, 0.1, 0.2)  # the last segment's brightness; it stays at the last
SHOWN_S = 0.6  # how long a "pressed ✓" or a card's ID stays before the next step
ENCODER_STEPS = 3


class Selftest:
    """One walk over `hardware` (built by `hw.build.build` with `emit=inbox.put`). `run()` returns a
    `Result` per step. `pause` waits out animations and sounds (injectable so tests need not).
    `display_error`: the OLED did not start (the hardware has a stand-in): its steps fail with this reason."""

    def __init__(self, hardware: Hardware, profile: Profile, *, inbox: queue.Queue[object], tell: Tell,
                 lang: str = "de", hands: MockHands | None = None, pause: Callable[[float], None] = time.sleep,
                 timeout: float = 120.0, clock: Callable[[], float] = time.monotonic,
                 display_error: str | None = None) -> None:
        self.hardware, self.profile, self.lang = hardware, profile, lang
        self._tell, self._pause = tell, pause
        self._talk = Conversation(inbox, tell, hands, timeout=timeout, clock=clock, lang=lang)
        self._display_error = display_error  # set: the OLED failed (at start or since); its steps fail with it

    # --- the plan ------------------------------------------------------------------------------------

    def plan(self, parts: Iterable[str] = PARTS) -> list[Step]:
        """The steps for `parts` (see PARTS), in walking order."""
        steps: list[Step] = []
        wanted = set(parts)
        p = self.profile
        lang = self.lang
        if "display" in wanted:
            steps += [Step("display.border", say(lang, "what_border"), self._border),
                      Step("display.checker", say(lang, "what_checker"), self._checker),
                      Step("display.pages", say(lang, "what_pages"), self._pages)]
        if "buttons" in wanted:
            for button in BUTTONS:
                for hold in (False, True):
                    step = f"button.{button}.{'hold' if hold else 'press'}"
                    what = say(lang, "what_button", button=button.value.upper(), pin=self._pin(button),
                               kind=say(lang, "kind_hold" if hold else "kind_press"))
                    steps.append(Step(step, what, partial(self._press, button, step, what, hold=hold)))
            if p.buttons.turn is not None:  # the turn timer's big button: a press only (reported at its edge)
                what = say(lang, "what_button", button="TURN", pin=p.buttons.turn, kind=say(lang, "kind_press"))
                steps.append(Step("button.turn.press", what,
                                  partial(self._press, Button.TURN, "button.turn.press", what)))
        if "encoder" in wanted and p.encoder.enabled:
            steps += [Step("encoder.cw", self._turn_what(+1), lambda: self._turn(+1)),
                      Step("encoder.ccw", self._turn_what(-1), lambda: self._turn(-1))]
            if p.encoder.push is not None:
                what = say(lang, "what_push", pin=p.encoder.push)
                steps.append(Step("encoder.push", what, partial(self._press, Button.ENCODER, "encoder.push", what)))
        if "led_bar" in wanted:
            steps += [Step("led_bar.segments", say(lang, "what_segments", n=len(p.led_bar.pins)), self._segments),
                      Step("led_bar.dim", say(lang, "what_dim"), self._dim)]
        if "buzzer" in wanted:
            steps += [Step("buzzer.tones", say(lang, "what_tones", kind=p.buzzer.kind, pin=p.buzzer.pin), self._tones),
                      Step("buzzer.volume", say(lang, "what_volume"), self._volume)]
        if "readers" in wanted:
            for reader in p.readers:
                steps.append(Step(f"reader.{reader.name}", self._reader_what(reader.name),
                                  partial(self._reader, reader.name)))
        if "keyboard" in wanted:
            steps.append(Step("keyboard", say(lang, "what_keyboard"), self._keyboard))
        return steps

    def run(self, parts: Iterable[str] = PARTS) -> list[Result]:
        steps = self.plan(parts)
        results: list[Result] = []
        ended = False
        for number, step in enumerate(steps, start=1):
            if ended:
                results.append(Result(step.id, step.what, Outcome.SKIP, say(self.lang, "not_run")))
                continue
            self._talk.where = (number, len(steps))
            self._talk.drain()
            try:
                results.append(step.run())
            except Quit:
                ended = True
                results.append(Result(step.id, step.what, Outcome.SKIP, say(self.lang, "ended_here")))
        self._finish(results)
        return results

    # --- the parts -----------------------------------------------------------------------------------

    def _pattern_step(self, step: str, what: str, image: Image.Image, says: str, fails: str) -> Result:
        if self._display_error is not None:
            return Result(step, what, Outcome.FAIL, self._display_error)
        self._show(image)
        return self._talk.confirm(step, what, says, fails)

    def _border(self) -> Result:
        size = self._size
        image = patterns.captioned(patterns.border(size), [text(self.lang, "border"), text(self.lang, "yes_no")])
        lang = self.lang
        return self._pattern_step("display.border", say(lang, "what_border"), image, say(lang, "says_border"),
                                  say(lang, "fails_border"))

    def _checker(self) -> Result:
        size = self._size
        image = patterns.captioned(patterns.checkerboard(size), [text(self.lang, "checker"), text(self.lang, "yes_no")])
        lang = self.lang
        return self._pattern_step("display.checker", say(lang, "what_checker"), image, say(lang, "says_checker"),
                                  say(lang, "fails_checker"))

    def _pages(self) -> Result:
        size = self._size
        if self._display_error is None:
            for index in range(patterns.pages(size)):
                self._show(patterns.page(size, index))
                self._pause(FRAME_S)
        image = patterns.captioned(patterns.lit(size), [text(self.lang, "pages"), text(self.lang, "yes_no")])
        lang = self.lang
        return self._pattern_step("display.pages", say(lang, "what_pages"), image,
                                  say(lang, "says_pages", n=patterns.pages(size)), say(lang, "fails_pages"))

    def _press(self, button: Button, step: str, what: str, *, hold: bool = False) -> Result:
        lang = self.lang
        name, pin = self._name(button), self._pin(button)
        called = say(lang, "the_knob") if button is Button.ENCODER else name
        title = text(lang, "encoder" if button is Button.ENCODER else "buttons")
        self._message(title, [text(lang, "hold" if hold else "press", button=name)], text(lang, "not_yet"))
        held_s = f"{self.profile.buttons.hold_ms / 1000:.1f}".replace(".", "," if lang == "de" else ".")
        says = say(lang, "says_hold" if hold else "says_press", button=called, pin=pin, s=held_s)
        wrong: list[str] = []

        def on_event(event: object) -> Result | None:
            if not isinstance(event, (Press, LongPress)):
                return None
            if event.button is not button:
                got = event.button.value.upper()
                wrong.append(got)
                self._message(title, [text(self.lang, "wrong", got=self._name(event.button), want=name)],
                              text(self.lang, "not_yet"))
                self._tell(say(lang, "that_was", got=got, got_pin=self._pin(event.button), want=called, pin=pin))
                return None
            if hold and isinstance(event, Press):
                self._message(title, [text(lang, "longer")], text(lang, "hold", button=name))
                self._tell(say(lang, "too_short", button=called, s=held_s))
                return None
            self._message(title, [text(lang, "held" if hold else "pressed", button=name)])
            self._pause(SHOWN_S)
            note = say(lang, "came_first", buttons=", ".join(wrong)) if wrong else ""
            return Result(step, what, Outcome.PASS, note)

        return self._talk.await_event(step, what, says, on_event, say(lang, "fails_press", button=called, pin=pin))

    def _turn_what(self, sign: int) -> str:
        enc = self.profile.encoder
        return say(self.lang, "what_turn", a=enc.a, b=enc.b, way=say(self.lang, "cw" if sign > 0 else "ccw"))

    def _turn(self, sign: int) -> Result:
        lang, enc = self.lang, self.profile.encoder
        step = "encoder.cw" if sign > 0 else "encoder.ccw"
        what = self._turn_what(sign)
        title = text(lang, "encoder")
        self._message(title, [text(lang, "turn_cw" if sign > 0 else "turn_ccw")], text(lang, "not_yet"))
        says = say(lang, "says_turn", n=ENCODER_STEPS, way=say(lang, "cw" if sign > 0 else "ccw"))
        counted = 0

        def on_event(event: object) -> Result | None:
            nonlocal counted
            if not isinstance(event, Turn):
                return None
            counted += event.steps
            self._message(title, [text(self.lang, "turned", steps=f"{counted:+d}")])
            if counted * sign >= ENCODER_STEPS:
                return Result(step, what, Outcome.PASS)
            if counted * sign <= -ENCODER_STEPS:
                return Result(step, what, Outcome.FAIL, say(lang, "wrong_way", a=enc.a, b=enc.b))
            return None

        return self._talk.await_event(step, what, says, on_event, say(lang, "fails_turn", a=enc.a, b=enc.b))

    def _segments(self) -> Result:
        bar = self.hardware.bar
        pins = self.profile.led_bar.pins
        for k in range(1, len(pins) + 1):
            bar.set_level(k / len(pins))
            self._pause(FRAME_S)
        lang = self.lang
        self._message(text(lang, "bar"), [text(lang, "bar_segments", n=len(pins))], text(lang, "yes_no"))
        order = ", ".join(str(pin) for pin in pins)
        return self._talk.confirm("led_bar.segments", say(lang, "what_segments", n=len(pins)),
                                  say(lang, "says_segments", n=len(pins), order=order), say(lang, "fails_segments"))

    def _dim(self) -> Result:
        lang = self.lang
        what = say(lang, "what_dim")
        if not self.profile.led_bar.pwm:
            self.hardware.bar.set_level(0)
            return Result("led_bar.dim", what, Outcome.SKIP, say(lang, "no_pwm"))
        count = len(self.profile.led_bar.pins)
        for share in DIM_STEPS:
            self.hardware.bar.set_level((count - 1 + share) / count)
            self._pause(FRAME_S)
        self._message(text(lang, "bar"), [text(lang, "bar_dim")], text(lang, "yes_no"))
        result = self._talk.confirm("led_bar.dim", what, say(lang, "says_dim", pin=self.profile.led_bar.pins[-1]),
                                    say(lang, "fails_dim"))
        self.hardware.bar.set_level(0)
        return result

    def _play(self, notes: Sequence[Note], volume: str = "loud") -> None:
        self.hardware.sounder.play(notes, duty(volume))
        self._pause(sum(seconds for _, seconds in notes) + 0.3)

    def _tones(self) -> Result:
        lang, buzzer = self.lang, self.profile.buzzer
        if buzzer.kind == "tonal":
            self._play([(hz, TONE_S) for hz in TONES])
            heard = say(lang, "heard_tones", n=len(TONES), low=f"{TONES[0]:.0f}", high=f"{TONES[-1]:.0f}")
            key, count = "buzzer_tones", len(TONES)
        else:
            self._play([(1000.0, 0.15), (None, 0.15)] * BEEPS)
            heard = say(lang, "heard_beeps", n=BEEPS)
            key, count = "buzzer_beeps", BEEPS
        self._message(text(lang, "buzzer"), [text(lang, key, n=count)], text(lang, "yes_no"))
        return self._talk.confirm("buzzer.tones", say(lang, "what_tones", kind=buzzer.kind, pin=buzzer.pin),
                                  say(lang, "says_tones", heard=heard), say(lang, "fails_tones"))

    def _volume(self) -> Result:
        for volume in ("soft", "normal", "loud"):
            self._play(pattern_notes("celebrate", volume), volume)
        lang = self.lang
        self._message(text(lang, "buzzer"), [text(lang, "buzzer_volume")], text(lang, "yes_no"))
        return self._talk.confirm("buzzer.volume", say(lang, "what_volume"), say(lang, "says_volume"),
                                  say(lang, "fails_volume"))

    def _reader_what(self, name: str) -> str:
        config = next(r for r in self.profile.readers if r.name == name)
        return say(self.lang, "what_reader", name=name, kind=config.kind, where=config.where())

    def _reader(self, name: str) -> Result:
        lang = self.lang
        config = next(r for r in self.profile.readers if r.name == name)
        step, what = f"reader.{name}", self._reader_what(name)
        title = text(lang, "reader", name=name)
        self._message(title, [text(lang, "tap")], text(lang, "not_yet"))
        says = say(lang, "says_reader", name=name, kind=config.kind, where=config.where())

        def on_event(event: object) -> Result | None:
            if isinstance(event, ReaderStatus) and event.reader == name and not event.present:
                self._message(title, [text(lang, "missing")], text(lang, "not_yet"))
                self._tell(say(lang, "reader_missing", name=name))
            elif isinstance(event, CardScan) and event.reader != name:
                self._tell(say(lang, "other_reader", got=event.reader, name=name))
            elif isinstance(event, CardScan):
                self._message(title, [text(lang, "read", code=event.code)])
                self._tell(say(lang, "read", code=event.code))
                self._pause(SHOWN_S)
                return Result(step, what, Outcome.PASS, say(lang, "read_note", code=event.code))
            return None

        return self._talk.await_event(step, what, says, on_event, say(lang, "fails_reader"))

    def _keyboard(self) -> Result:
        """A line typed on a USB keyboard (the board's keyboards as `hw.build` opens them), shown back."""
        lang, what = self.lang, say(self.lang, "what_keyboard")
        if self.hardware.keyboards is None:
            return Result("keyboard", what, Outcome.SKIP, say(lang, "no_keyboard"))
        title = text(lang, "keyboard")
        self._message(title, [text(lang, "type_word")], text(lang, "not_yet"))

        def on_event(event: object) -> Result | None:
            if not isinstance(event, TextEntry) or not event.text.strip():
                return None
            self._message(title, [text(lang, "typed", word=event.text)])
            self._tell(say(lang, "typed", word=event.text))
            self._pause(SHOWN_S)
            return Result("keyboard", what, Outcome.PASS, say(lang, "typed", word=event.text).strip())

        return self._talk.await_event("keyboard", what, say(lang, "says_keyboard"), on_event,
                                      say(lang, "fails_keyboard"))

    # --- the outputs ---------------------------------------------------------------------------------

    @property
    def _size(self) -> tuple[int, int]:
        return self.hardware.display.size

    def _show(self, image: Image.Image) -> None:
        """Put `image` on the OLED; a failing display is noted once and the walk goes on without it."""
        if self._display_error is not None:
            return
        try:
            self.hardware.display.show(image)
        except HardwareError as exc:
            self._display_error = str(exc)
            self._tell(say(self.lang, "display_failed", reason=exc))

    def _message(self, title: str, lines: Sequence[str], footer: str = "") -> None:
        self._show(render(MessageScreen(title, tuple(lines), footer), self._size))

    def _finish(self, results: list[Result]) -> None:
        self.hardware.bar.set_level(0)
        self.hardware.sounder.stop()
        counts = {outcome: sum(r.outcome is outcome for r in results) for outcome in Outcome}
        self._message(text(self.lang, "done"), [text(self.lang, "counts", passed=counts[Outcome.PASS],
                                                     failed=counts[Outcome.FAIL], skipped=counts[Outcome.SKIP])])

    def _name(self, button: Button) -> str:
        return text(self.lang, "knob") if button is Button.ENCODER else button.value.upper()

    def _pin(self, button: Button) -> int:
        b = self.profile.buttons
        pins = {Button.START: b.start, Button.NEXT: b.next, Button.BACK: b.back, Button.MENU: b.menu,
                Button.TURN: b.turn if b.turn is not None else -1}
        return pins.get(button, self.profile.encoder.push or -1)

