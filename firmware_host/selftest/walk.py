"""The self-test walk: every part of the box in turn, on the hardware `hw.build` made from the profile.

Each step puts its pattern or instruction on the OLED (in the UI language) and tells the terminal, through
`tell(Prompt)`, what should happen (English); then it waits for the answer (`conversation`):
- a confirm step (the OLED patterns, the LED bar, the buzzer) for yes or no;
- an event step (each button's press and long press, the encoder both ways and its push, each reader) for
  that event itself; the wrong button is named (swapped wires show up).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from drivers.errors import HardwareError
from firmware_host.core.events import Button, CardScan, LongPress, Press, ReaderStatus, Turn
from firmware_host.core.screens import MessageScreen
from firmware_host.core.sounds import Note, duty
from firmware_host.core.sounds import notes as pattern_notes
from firmware_host.render import render
from firmware_host.selftest import patterns
from firmware_host.selftest.conversation import Conversation
from firmware_host.selftest.hands import MockHands
from firmware_host.selftest.steps import Outcome, Quit, Result, Step, Tell
from firmware_host.selftest.text import text
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
        self._talk = Conversation(inbox, tell, hands, timeout=timeout, clock=clock)
        self._display_error = display_error  # set: the OLED failed (at start or since); its steps fail with it

    # --- the plan ------------------------------------------------------------------------------------

    def plan(self, parts: Iterable[str] = PARTS) -> list[Step]:
        """The steps for `parts` (see PARTS), in walking order."""
        steps: list[Step] = []
        wanted = set(parts)
        p = self.profile
        if "display" in wanted:
            steps += [Step("display.border", "display: border", self._border),
                      Step("display.checker", "display: checkerboard", self._checker),
                      Step("display.pages", "display: every page", self._pages)]
        if "buttons" in wanted:
            for button in BUTTONS:
                for hold, kind in ((False, "press"), (True, "long press")):
                    step = f"button.{button}.{'hold' if hold else 'press'}"
                    what = f"button {button.value.upper()} (GPIO {self._pin(button)}): {kind}"
                    steps.append(Step(step, what, partial(self._press, button, step, what, hold=hold)))
            if p.buttons.turn is not None:  # the turn timer's big button: a press only (reported at its edge)
                what = f"button TURN (GPIO {p.buttons.turn}): press"
                steps.append(Step("button.turn.press", what,
                                  partial(self._press, Button.TURN, "button.turn.press", what)))
        if "encoder" in wanted and p.encoder.enabled:
            pins = f"GPIO {p.encoder.a}/{p.encoder.b}"
            steps += [Step("encoder.cw", f"encoder ({pins}): clockwise", lambda: self._turn(+1)),
                      Step("encoder.ccw", f"encoder ({pins}): counter-clockwise", lambda: self._turn(-1))]
            if p.encoder.push is not None:
                what = f"encoder push (GPIO {p.encoder.push})"
                steps.append(Step("encoder.push", what, partial(self._press, Button.ENCODER, "encoder.push", what)))
        if "led_bar" in wanted:
            steps += [Step("led_bar.segments", f"LED bar: {len(p.led_bar.pins)} segments in order", self._segments),
                      Step("led_bar.dim", "LED bar: PWM dimming", self._dim)]
        if "buzzer" in wanted:
            steps += [Step("buzzer.tones", f"buzzer ({p.buzzer.kind}, GPIO {p.buzzer.pin}): tones", self._tones),
                      Step("buzzer.volume", "buzzer: volume soft, normal, loud", self._volume)]
        if "readers" in wanted:
            for reader in p.readers:
                steps.append(Step(f"reader.{reader.name}", f"reader {reader.name} ({reader.kind} at "
                                  f"{reader.where()})", partial(self._reader, reader.name)))
        if "keyboard" in wanted:
            steps.append(Step("keyboard", "keyboard", lambda: Result(
                "keyboard", "keyboard", Outcome.SKIP, "not supported yet (keyboard input is its own issue)")))
        return steps

    def run(self, parts: Iterable[str] = PARTS) -> list[Result]:
        steps = self.plan(parts)
        results: list[Result] = []
        ended = False
        for number, step in enumerate(steps, start=1):
            if ended:
                results.append(Result(step.id, step.what, Outcome.SKIP, "not run: the test was ended"))
                continue
            self._talk.where = (number, len(steps))
            self._talk.drain()
            try:
                results.append(step.run())
            except Quit:
                ended = True
                results.append(Result(step.id, step.what, Outcome.SKIP, "ended here"))
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
        return self._pattern_step(
            "display.border", "display: border", image,
            "The OLED shows a one-pixel frame along all four edges around a box of text. All four edges there?",
            "an edge missing and a stripe of noise at the other side: a wrong column offset — an SH1106 driven as "
            'an SSD1306 (set display.driver = "sh1106") or the reverse',
        )

    def _checker(self) -> Result:
        size = self._size
        image = patterns.captioned(patterns.checkerboard(size), [text(self.lang, "checker"), text(self.lang, "yes_no")])
        return self._pattern_step(
            "display.checker", "display: checkerboard", image,
            "The OLED shows an even checkerboard of 4-pixel squares around a box of text. Even everywhere?",
            "broken rows or shifted blocks: check display.driver, display.height and the panel's wiring",
        )

    def _pages(self) -> Result:
        size = self._size
        if self._display_error is None:
            for index in range(patterns.pages(size)):
                self._show(patterns.page(size, index))
                self._pause(FRAME_S)
        image = patterns.captioned(patterns.lit(size), [text(self.lang, "pages"), text(self.lang, "yes_no")])
        return self._pattern_step(
            "display.pages", "display: every page", image,
            f"A bright band ran down the OLED, {patterns.pages(size)} bands of 8 rows, each across the whole width; "
            "now every pixel is lit around a box of text. Right?",
            "a band missing or short: the panel's height or driver is wrong in the profile",
        )

    def _press(self, button: Button, step: str, what: str, *, hold: bool = False) -> Result:
        name, pin = self._name(button), self._pin(button)
        called = "the encoder's knob" if button is Button.ENCODER else name
        title = text(self.lang, "encoder" if button is Button.ENCODER else "buttons")
        self._message(title, [text(self.lang, "hold" if hold else "press", button=name)], text(self.lang, "not_yet"))
        hold_ms = self.profile.buttons.hold_ms
        says = (f"Hold {called} (GPIO {pin}) down for {hold_ms / 1000:.1f} s: the OLED says it was held."
                if hold else f"Press {called} (GPIO {pin}) briefly: the OLED says it was pressed.")
        wrong: list[str] = []

        def on_event(event: object) -> Result | None:
            if not isinstance(event, (Press, LongPress)):
                return None
            if event.button is not button:
                got = event.button.value.upper()
                wrong.append(got)
                self._message(title, [text(self.lang, "wrong", got=self._name(event.button), want=name)],
                              text(self.lang, "not_yet"))
                self._tell(f"  that was {got} (GPIO {self._pin(event.button)}), not {called} (GPIO {pin})")
                return None
            if hold and isinstance(event, Press):
                self._message(title, [text(self.lang, "longer")], text(self.lang, "hold", button=name))
                self._tell(f"  a short press: hold {called} for {hold_ms / 1000:.1f} s")
                return None
            self._message(title, [text(self.lang, "held" if hold else "pressed", button=name)])
            self._pause(SHOWN_S)
            note = f"{', '.join(wrong)} came first (a mistake, or swapped wires?)" if wrong else ""
            return Result(step, what, Outcome.PASS, note)

        return self._talk.await_event(step, what, says, on_event,
                           f"pressing {called} sends nothing: check its wires to GPIO {pin} and GND")

    def _turn(self, sign: int) -> Result:
        enc = self.profile.encoder
        step = "encoder.cw" if sign > 0 else "encoder.ccw"
        way = "clockwise" if sign > 0 else "counter-clockwise"
        what = f"encoder (GPIO {enc.a}/{enc.b}): {way}"
        title = text(self.lang, "encoder")
        self._message(title, [text(self.lang, "turn_cw" if sign > 0 else "turn_ccw")], text(self.lang, "not_yet"))
        says = f"Turn the encoder {ENCODER_STEPS} clicks {way}: the OLED counts them."
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
                return Result(step, what, Outcome.FAIL, f"it counts the other way: swap encoder.a and encoder.b "
                              f"(GPIO {enc.a} and {enc.b}) in the profile, or the wires")
            return None

        return self._talk.await_event(step, what, says, on_event,
                           f"turning sends nothing: check CLK → GPIO {enc.a}, DT → GPIO {enc.b}, + → 3.3 V, GND")

    def _segments(self) -> Result:
        bar = self.hardware.bar
        pins = self.profile.led_bar.pins
        for k in range(1, len(pins) + 1):
            bar.set_level(k / len(pins))
            self._pause(FRAME_S)
        self._message(text(self.lang, "bar"), [text(self.lang, "bar_segments", n=len(pins))], text(self.lang, "yes_no"))
        order = ", ".join(str(pin) for pin in pins)
        return self._talk.confirm(
            "led_bar.segments", f"LED bar: {len(pins)} segments in order",
            f"The LED bar lit one segment after the other, from segment 1 to {len(pins)} (GPIO {order}); all are "
            "lit now. Right?",
            "a dark segment: its LED is reversed or its resistor/GPIO wire is off; out of order: the wires to "
            "the GPIOs are crossed (pin table in wiring/README.md)",
        )

    def _dim(self) -> Result:
        what = "LED bar: PWM dimming"
        if not self.profile.led_bar.pwm:
            self.hardware.bar.set_level(0)
            return Result("led_bar.dim", what, Outcome.SKIP, "led_bar.pwm = false")
        count = len(self.profile.led_bar.pins)
        for share in DIM_STEPS:
            self.hardware.bar.set_level((count - 1 + share) / count)
            self._pause(FRAME_S)
        self._message(text(self.lang, "bar"), [text(self.lang, "bar_dim")], text(self.lang, "yes_no"))
        result = self._talk.confirm(
            "led_bar.dim", what,
            f"The last segment (GPIO {self.profile.led_bar.pins[-1]}) faded in steps and glows dimly now. Right?",
            "no fading: the pin factory has no PWM on these pins (wordtable doctor names it; lgpio has it)",
        )
        self.hardware.bar.set_level(0)
        return result

    def _play(self, notes: Sequence[Note], volume: str = "loud") -> None:
        self.hardware.sounder.play(notes, duty(volume))
        self._pause(sum(seconds for _, seconds in notes) + 0.3)

    def _tones(self) -> Result:
        tonal = self.profile.buzzer.kind == "tonal"
        if tonal:
            self._play([(hz, TONE_S) for hz in TONES])
            heard = f"{len(TONES)} rising tones ({TONES[0]:.0f}–{TONES[-1]:.0f} Hz)"
            key, count = "buzzer_tones", len(TONES)
        else:
            self._play([(1000.0, 0.15), (None, 0.15)] * BEEPS)
            heard = f"{BEEPS} beeps (an active buzzer has one pitch)"
            key, count = "buzzer_beeps", BEEPS
        self._message(text(self.lang, "buzzer"), [text(self.lang, key, n=count)], text(self.lang, "yes_no"))
        return self._talk.confirm(
            "buzzer.tones", f"buzzer ({self.profile.buzzer.kind}, GPIO {self.profile.buzzer.pin}): tones",
            f"The buzzer played {heard}. Heard them?",
            "silence: check the transistor and the piezo's 5 V; a passive piezo needs buzzer.kind = \"tonal\", "
            "an active buzzer \"active\"",
        )

    def _volume(self) -> Result:
        for volume in ("soft", "normal", "loud"):
            self._play(pattern_notes("celebrate", volume), volume)
        self._message(text(self.lang, "buzzer"), [text(self.lang, "buzzer_volume")], text(self.lang, "yes_no"))
        return self._talk.confirm(
            "buzzer.volume", "buzzer: volume soft, normal, loud",
            "The buzzer played the same tune three times, louder each time (soft, normal, loud). Right?",
            "no difference: an active buzzer has no loudness control (a passive piezo, buzzer.kind = \"tonal\", "
            "has: the PWM duty cycle); or the pin factory has no PWM on the pin",
        )

    def _reader(self, name: str) -> Result:
        config = next(r for r in self.profile.readers if r.name == name)
        step, what = f"reader.{name}", f"reader {name} ({config.kind} at {config.where()})"
        title = text(self.lang, "reader", name=name)
        self._message(title, [text(self.lang, "tap")], text(self.lang, "not_yet"))
        says = f"Tap a card on reader {name} ({config.kind} at {config.where()}): the OLED shows its ID."

        def on_event(event: object) -> Result | None:
            if isinstance(event, ReaderStatus) and event.reader == name and not event.present:
                self._message(title, [text(self.lang, "missing")], text(self.lang, "not_yet"))
                self._tell(f"  reader {name} is missing (wordtable doctor says why)")
            elif isinstance(event, CardScan) and event.reader != name:
                self._tell(f"  that was reader {event.reader}, not {name}")
            elif isinstance(event, CardScan):
                self._message(title, [text(self.lang, "read", code=event.code)])
                self._tell(f"  read {event.code}")
                self._pause(SHOWN_S)
                return Result(step, what, Outcome.PASS, f"read {event.code}")
            return None

        return self._talk.await_event(step, what, says, on_event,
                           "no card read: check the reader's power and its TX wire (and wordtable doctor)")

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
            self._tell(f"  the display failed: {exc}")

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

