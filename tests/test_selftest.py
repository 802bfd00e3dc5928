"""`wordtable selftest` on the sim profile's mock pins: a scripted maker answers the prompts by pressing the
mock buttons, turning the mock encoder, tapping the simulated reader or typing; what the OLED, the LED bar
and the buzzer were given is read back from the real drivers."""

from __future__ import annotations

import io
import queue
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware_host.commands import selftest as command
from firmware_host.config import resolve
from firmware_host.core.events import Button
from firmware_host.core.screens import MessageScreen
from firmware_host.render import render
from firmware_host.selftest import Outcome, Prompt, Result, Selftest, Typed, patterns, summary
from firmware_host.selftest.hands import MockHands
from firmware_host.selftest.walk import DIM_STEPS, TONES
from hw.build import HardwareError, build
from hw.profile import load_profile
from tests.hwhelpers import wait_until

SIM = load_profile("sim")
# Long presses in a tenth of a second; no card reader (its thread takes a read timeout to stop) unless a test
# is about readers.
QUICK = replace(SIM, buttons=replace(SIM.buttons, hold_ms=100), readers=())
TAG = "0A0B0C0D0E"


class Rig:
    """A selftest on fresh mock hardware. `actions[step]` is what the maker does when that step asks;
    `record` (if set) is called at every pause of an animation and its results kept in `paused`."""

    def __init__(self, profile: Any = QUICK, *, lang: str = "de", timeout: float = 5.0) -> None:
        self.profile = profile
        self.inbox: queue.Queue[object] = queue.Queue()
        self.hardware = build(profile, emit=self.inbox.put)
        self.hands = MockHands(self.hardware, profile)
        self.actions: dict[str, Callable[[], object]] = {}
        self.prompts: list[Prompt] = []
        self.remarks: list[str] = []
        self.shown: dict[str, Image.Image] = {}  # step -> the OLED when it asked
        self.record: Callable[[], Any] | None = None
        self.paused: list[Any] = []
        self.test = Selftest(self.hardware, profile, inbox=self.inbox, tell=self.tell, lang=lang, hands=self.hands,
                             pause=self.pause, timeout=timeout)

    def tell(self, message: Prompt | str) -> None:
        if isinstance(message, str):
            self.remarks.append(message)
            return
        self.prompts.append(message)
        self.shown[message.step] = self.oled()
        self.actions.get(message.step, lambda: None)()

    def pause(self, seconds: float) -> None:
        if self.record is not None:
            self.paused.append(self.record())

    def type(self, line: str) -> None:
        self.inbox.put(Typed(line))

    def oled(self) -> Image.Image:
        return self.hardware.display.device.image.copy()  # type: ignore[attr-defined, no-any-return]

    def bar(self) -> list[float]:
        return [round(float(self.hardware.pin_factory.pin(p).state), 2) for p in self.profile.led_bar.pins]

    def run(self, *parts: str) -> list[Result]:
        return self.test.run(parts)


@pytest.fixture
def rig() -> Iterator[Callable[..., Rig]]:
    made: list[Rig] = []

    def make(profile: Any = QUICK, **options: Any) -> Rig:
        made.append(Rig(profile, **options))
        return made[-1]

    yield make
    for one in made:
        one.hardware.close()


def outcomes(results: list[Result]) -> dict[str, Outcome]:
    return {r.step: r.outcome for r in results}


def asking(text: str, lang_title: str, footer: str) -> Image.Image:
    return render(MessageScreen(lang_title, (text,), footer), (128, 64))


# --- the OLED ----------------------------------------------------------------------------------------


def test_the_oled_patterns_and_the_makers_answers(rig):
    r = rig()
    r.record = r.oled
    r.actions = {"display.border": lambda: r.hands.press(Button.START),  # START = yes
                 "display.checker": lambda: r.type("n"),  # typed no
                 "display.pages": lambda: r.type("y")}
    results = r.run("display")
    assert outcomes(results) == {"display.border": Outcome.PASS, "display.checker": Outcome.FAIL,
                                 "display.pages": Outcome.PASS}
    border = r.shown["display.border"]
    width, height = border.size
    edge = [(x, 0) for x in range(width)] + [(x, height - 1) for x in range(width)]
    edge += [(0, y) for y in range(height)] + [(width - 1, y) for y in range(height)]
    assert all(border.getpixel(p) for p in edge)
    assert not border.getpixel((1, 1)) and not border.getpixel((width - 2, height - 2))
    checker = r.shown["display.checker"]
    assert [bool(checker.getpixel((x, 0))) for x in (0, 3, 4, 7, 8)] == [True, True, False, False, True]
    assert [bool(checker.getpixel((0, y))) for y in (0, 4, 8)] == [True, False, True]
    # The pages ran top to bottom, one band of 8 rows at a time, each the whole width.
    assert len(r.paused) == height // 8
    for index, image in enumerate(r.paused):
        lit_rows = [y for y in range(height) if image.getpixel((0, y)) and image.getpixel((width - 1, y))]
        assert lit_rows == list(range(index * 8, index * 8 + 8))
        assert image.getbbox() == (0, index * 8, width, index * 8 + 8)
    assert r.shown["display.pages"].getpixel((0, 0)) and r.shown["display.pages"].getpixel((127, 63))
    assert "display.driver" in results[1].note
    assert [p.confirm for p in r.prompts] == [True, True, True]
    assert [(p.number, p.total) for p in r.prompts] == [(1, 3), (2, 3), (3, 3)]


def test_a_no_on_the_border_names_the_sh1106_column_offset(rig):
    r = rig()
    r.actions = {"display.border": lambda: r.hands.press(Button.BACK), "display.checker": lambda: r.type("q")}
    border = r.run("display")[0]
    assert border.outcome is Outcome.FAIL and "SH1106" in border.note and 'display.driver = "sh1106"' in border.note


# --- the buttons and the encoder ---------------------------------------------------------------------


def test_each_button_press_and_long_press(rig):
    r = rig()
    h = r.hands
    r.actions = {
        "button.start.press": lambda: (h.press(Button.NEXT), h.press(Button.START)),  # the wrong one first
        "button.start.hold": lambda: h.hold(Button.START),
        "button.next.press": lambda: h.press(Button.NEXT),
        "button.next.hold": lambda: h.hold(Button.NEXT),
        "button.back.press": lambda: h.press(Button.BACK),
        "button.back.hold": lambda: (h.press(Button.BACK), h.hold(Button.BACK)),  # too short first
        "button.menu.press": lambda: r.type("n"),  # nothing happens on this one
        "button.menu.hold": lambda: r.type("s"),
        "button.turn.press": lambda: h.press(Button.TURN),  # the sim board's turn button
    }
    results = r.run("buttons")
    assert outcomes(results) == {
        "button.start.press": Outcome.PASS, "button.start.hold": Outcome.PASS, "button.next.press": Outcome.PASS,
        "button.next.hold": Outcome.PASS, "button.back.press": Outcome.PASS, "button.back.hold": Outcome.PASS,
        "button.menu.press": Outcome.FAIL, "button.menu.hold": Outcome.SKIP, "button.turn.press": Outcome.PASS,
    }
    # The OLED and the terminal speak German, the default language.
    assert results[0].note == "NEXT kam zuerst (ein Versehen, oder vertauschte Kabel?)"
    assert "  das war NEXT (GPIO 27), nicht START (GPIO 26)" in r.remarks
    assert "  zu kurz: BACK 0,1 s lang halten" in r.remarks
    assert results[6].note == "MENU sendet nichts: die Kabel zu GPIO 21 und GND prüfen"
    assert [p.confirm for p in r.prompts] == [False] * 9
    assert r.shown["button.next.hold"] == asking("Halte NEXT gedrückt", "Tasten", "Wenn nichts passiert: n im Terminal")


def test_the_oled_and_the_terminal_follow_the_configured_language(rig):
    r = rig(lang="en")
    h = r.hands
    r.actions = {"button.start.press": lambda: (h.press(Button.NEXT), h.press(Button.START)),
                 "button.start.hold": lambda: (h.press(Button.START), r.type("q"))}
    results = r.run("buttons")
    assert r.shown["button.start.press"] == asking("Press START", "Buttons", "Nothing happens? n in the terminal")
    assert results[0].what == "button START (GPIO 26): press"
    assert results[0].note == "NEXT came first (a mistake, or swapped wires?)"
    assert "  that was NEXT (GPIO 27), not START (GPIO 26)" in r.remarks
    assert "  a short press: hold START for 0.1 s" in r.remarks
    assert r.prompts[0].text == "Press START (GPIO 26) briefly: the OLED says it was pressed."


def test_every_text_of_the_selftest_is_there_in_both_languages_with_the_same_fields():
    from string import Formatter

    from firmware_host.selftest.text import OLED, TERMINAL

    for table in (OLED, TERMINAL):
        assert set(table["de"]) == set(table["en"])
        for key, german in table["de"].items():
            fields = {name for _, name, _, _ in Formatter().parse(german) if name}
            assert fields == {name for _, name, _, _ in Formatter().parse(table["en"][key]) if name}, key


def test_the_encoder_both_ways_and_its_push(rig):
    r = rig()
    r.actions = {"encoder.cw": lambda: r.hands.turn(3),
                 "encoder.ccw": lambda: (r.hands.turn(1), r.hands.turn(-4)),  # a click back and forth is fine
                 "encoder.push": lambda: r.hands.press(Button.ENCODER)}
    assert set(outcomes(r.run("encoder")).values()) == {Outcome.PASS}
    assert [p.step for p in r.prompts] == ["encoder.cw", "encoder.ccw", "encoder.push"]


def test_an_encoder_counting_the_wrong_way_says_to_swap_a_and_b(rig):
    r = rig(lang="en")
    r.actions = {"encoder.cw": lambda: r.hands.turn(-3), "encoder.ccw": lambda: r.type("q")}
    results = r.run("encoder")
    assert results[0].outcome is Outcome.FAIL and "swap encoder.a and encoder.b (GPIO 9 and 10)" in results[0].note
    assert [x.outcome for x in results[1:]] == [Outcome.SKIP, Outcome.SKIP]


def test_no_encoder_steps_without_an_encoder(rig):
    r = rig(replace(QUICK, encoder=replace(QUICK.encoder, enabled=False)))
    results = r.run("encoder", "keyboard")
    assert [x.step for x in results] == ["keyboard"]
    assert results[0].outcome is Outcome.SKIP and results[0].note.startswith("keine Tastatur in Gebrauch")


def test_a_word_typed_on_a_usb_keyboard_is_shown_back(rig, tmp_path):
    from tests.keystreams import Plug, typing_stream

    kbd = Plug(tmp_path / "event0").plug()
    r = rig(replace(QUICK, keyboard=replace(QUICK.keyboard, devices=(str(kbd.path),))), lang="en")
    r.record = r.oled
    watcher = r.hardware.keyboards
    assert watcher is not None

    def type_a_word() -> None:
        assert wait_until(lambda: watcher.open_paths == [str(kbd.path)])
        kbd.send(typing_stream("Tisch"))

    r.actions = {"keyboard": type_a_word}
    try:
        results = r.run("keyboard")
    finally:
        kbd.unplug()
    assert results[0].outcome is Outcome.PASS and results[0].note == "typed Tisch"
    assert r.shown["keyboard"] == asking("Type a word, Enter", "Keyboard", "Nothing happens? n in the terminal")
    assert r.paused[0] == asking("Typed: Tisch", "Keyboard", "")
    assert r.prompts[0].text == "Type a word on the USB keyboard and press Enter: the OLED shows it."


# --- the LED bar and the buzzer ----------------------------------------------------------------------


def test_the_led_bar_lights_segment_after_segment_then_dims_the_last(rig):
    r = rig()
    r.record = r.bar
    seen: list[list[float]] = []
    r.actions = {"led_bar.segments": lambda: (seen.append(r.bar()), r.hands.press(Button.START)),
                 "led_bar.dim": lambda: (seen.append(r.bar()), r.type("y"))}
    results = r.run("led_bar")
    n = len(QUICK.led_bar.pins)
    assert outcomes(results) == {"led_bar.segments": Outcome.PASS, "led_bar.dim": Outcome.PASS}
    assert r.paused[:n] == [[1.0] * k + [0.0] * (n - k) for k in range(1, n + 1)]
    assert [frame[-1] for frame in r.paused[n:]] == list(DIM_STEPS)
    assert all(frame[:-1] == [1.0] * (n - 1) for frame in r.paused[n:])
    assert seen == [[1.0] * n, [1.0] * (n - 1) + [DIM_STEPS[-1]]]
    assert r.bar() == [0.0] * n  # dark after the walk


def test_without_pwm_the_dimming_is_skipped(rig):
    r = rig(replace(QUICK, led_bar=replace(QUICK.led_bar, pwm=False)))
    r.actions = {"led_bar.segments": lambda: r.type("y")}
    assert outcomes(r.run("led_bar"))["led_bar.dim"] is Outcome.SKIP


def test_the_buzzer_plays_rising_tones_then_the_volumes(rig):
    r = rig()
    played: list[tuple[Any, ...]] = []
    play = r.hardware.sounder.play
    pin = r.hardware.pin_factory.pin(QUICK.buzzer.pin)
    duties: list[float] = []

    def spy(notes, duty=0.5):
        played.append(tuple(notes))
        play(notes, duty)
        if len(played) > 1:  # a volume: the duty the piezo's pin plays at
            duties.append(wait_until(lambda: pin.state != 0) and pin.state)

    r.hardware.sounder.play = spy  # type: ignore[method-assign]
    sounded: list[bool] = []

    def heard() -> None:  # the piezo's pin plays while the maker listens
        sounded.append(wait_until(lambda: r.hardware.pin_factory.pin(QUICK.buzzer.pin).state != 0))
        r.type("y")

    r.actions = {"buzzer.tones": heard, "buzzer.volume": lambda: r.type("y")}
    results = r.run("buzzer")
    assert outcomes(results) == {"buzzer.tones": Outcome.PASS, "buzzer.volume": Outcome.PASS}
    tones, soft, normal, loud = played
    assert [hz for hz, _ in tones] == list(TONES) and list(TONES) == sorted(TONES)
    assert soft == normal == loud  # the same tune …
    assert duties == sorted(duties) and len(set(duties)) == 3  # … louder each time
    assert "8 steigende Töne (262–1319 Hz)" in r.prompts[0].text
    assert sounded == [True]
    assert r.hardware.pin_factory.pin(QUICK.buzzer.pin).state == 0  # silent after the walk


# --- the readers -------------------------------------------------------------------------------------


def test_a_card_on_the_reader_shows_its_id(rig):
    r = rig(replace(QUICK, readers=SIM.readers))
    r.record = r.oled
    port = r.hardware.readers.simulated["rfid"]

    def tap() -> None:
        assert wait_until(lambda: bool(port.opened))
        assert r.hands.tap("rfid", TAG)

    r.actions = {"reader.rfid": tap}
    results = r.run("readers")
    assert results[0].outcome is Outcome.PASS and results[0].note == f"gelesen: {TAG}"
    assert r.shown["reader.rfid"] == asking("Karte auflegen", "Leser rfid", "Wenn nichts passiert: n im Terminal")
    assert r.paused[0] == asking(f"Gelesen: {TAG}", "Leser rfid", "")
    assert f"  gelesen: {TAG}" in r.remarks


# --- ending, the summary, the command ----------------------------------------------------------------


def test_q_ends_the_walk_and_the_rest_is_listed_as_not_run(rig):
    r = rig(timeout=0.05, lang="en")
    r.actions = {"display.checker": lambda: r.type("q")}
    results = r.run("display", "buttons")
    assert results[0].outcome is Outcome.SKIP and results[0].note == "no answer in 0 s"
    assert results[1].note == "ended here"
    assert {r.note for r in results[2:]} == {"not run: the test was ended"}
    text = summary(results, ["board: test"], "en")
    assert text.splitlines()[:2] == ["wordtable selftest", "board: test"]
    assert "– display: checkerboard: ended here" in text
    assert text.rstrip().endswith(f"0 passed, 0 failed, {len(results)} skipped")


def test_the_hands_understand_the_typed_words():
    profile = QUICK
    inbox: queue.Queue[object] = queue.Queue()
    with build(profile, emit=inbox.put) as hardware:
        hands = MockHands(hardware, profile)
        assert hands.act("next") and hands.act("push") and hands.act("+") and hands.act("-")
        assert not hands.act("y") and not hands.act("hold nothing") and not hands.act("@XYZ")
        events = [inbox.get(timeout=1) for _ in range(4)]
    assert [type(e).__name__ for e in events] == ["Press", "Press", "Turn", "Turn"]
    assert [getattr(e, "button", getattr(e, "steps", None)) for e in events] == [Button.NEXT, Button.ENCODER, 1, -1]


def test_the_patterns_are_what_they_say():
    size = (128, 64)
    assert patterns.pages(size) == 8 and patterns.pages((256, 64)) == 8
    page = patterns.page(size, 2)
    assert page.getbbox() == (0, 16, 128, 24)
    box = patterns.caption_box(size, ["Rahmen an 4 Kanten?", "START ja · BACK nein"])
    assert box[0] >= 4 and box[2] <= 123 and box[1] > 0 and box[3] < 63
    image = patterns.captioned(patterns.lit(size), ["x"])
    left, top, _, _ = patterns.caption_box(size, ["x"])
    assert not image.getpixel((left + 1, top + 1)) and image.getpixel((0, 0))


@pytest.mark.slow
def test_the_command_walks_the_sim_board_answered_on_stdin(tmp_path):
    profile = tmp_path / "sim.toml"
    profile.write_text((Path(__file__).parent.parent / "hw/profiles/sim.toml").read_text(encoding="utf-8")
                       .replace("hold_ms = 800", "hold_ms = 100"), encoding="utf-8")
    answers = ["y", "y", "y", "start", "hold start", "next", "hold next", "back", "hold back", "menu", "hold menu",
               "turn", "+", "+", "+", "-", "-", "-", "push", "y", "y", "y", "n", f"@{TAG}"]
    out = io.StringIO()
    code = command.walk(resolve(profile, None, environ={}), io.StringIO("\n".join(answers) + "\n"), out,
                        pause=lambda s: None, timeout=5)
    text = out.getvalue()
    assert code == 1  # the volume step was answered no
    assert "[1/21] display.border" in text and "(Mock-Board: `hold start` tippen)" in text
    pasted = text.split("```")[1]
    assert "✗ Summer: leise, normal, laut" in pasted and f"✓ Leser rfid (rdm6300 an loop://): gelesen: {TAG}" in pasted
    assert "– Tastatur: keine Tastatur in Gebrauch" in pasted
    assert pasted.rstrip().endswith("19 bestanden, 1 fehlgeschlagen, 1 übersprungen")
    assert "Sprache des Displays: de" in pasted
    assert "not supported" not in text and "keyboard input is its own issue" not in text


def test_the_command_says_to_stop_the_service_when_the_pins_are_taken(monkeypatch, capsys):
    def busy(*args: Any, **kwargs: Any) -> Any:
        raise HardwareError("led_bar: GPIO5: GPIO busy")

    monkeypatch.setattr(command, "build", busy)
    code = command.walk(resolve("sim", None, environ={}), io.StringIO(""), io.StringIO())
    err = capsys.readouterr().err
    assert code == 1 and "GPIO busy" in err and "sudo systemctl stop wordtable" in err


def test_a_dead_oled_fails_the_display_steps_and_the_rest_still_runs(monkeypatch):
    from drivers.display import DisplayError, open_device

    asked: list[Any] = []

    def dead_then_stand_in(config: Any) -> Any:  # the panel fails; the stand-in opens
        asked.append(config)
        if len(asked) == 1:
            raise DisplayError("display ssd1306 on I2C bus 1 at address 0x3C: [Errno 121] Remote I/O error")
        return open_device(config)

    monkeypatch.setattr(command, "open_device", dead_then_stand_in)
    out = io.StringIO()
    code = command.walk(resolve("sim", None, environ={}), io.StringIO("n\n"), out, parts=("display", "led_bar"),
                        pause=lambda s: None, timeout=5)
    text = out.getvalue()
    assert code == 1
    assert "Remote I/O error\n  Die Display-Schritte schlagen fehl; der Rest läuft ohne Display" in text
    pasted = text.split("```")[1]
    assert pasted.count("✗ Display: ") == 3 and "[Errno 121] Remote I/O error" in pasted
    assert "✗ LED-Leiste: 10 Segmente der Reihe nach" in pasted  # it still asked, and was answered n
    assert [c.driver for c in asked] == ["dummy", "dummy"] and asked[1].interface == "none"
