"""`wordtable sim --window`: the box in a window on a virtual display (Xvfb) shows the OLED pixel-exact at
4× and its buttons take clicks; without a display it says how to get one and plays in the terminal."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware_host.config import resolve
from firmware_host.core.events import Button, Press
from firmware_host.sim_window import OLED_AT, RATE, SCALE, square_wave
from firmware_host.simulator import Simulator
from tests.sim_pty import LiveSim


def test_a_tone_is_a_square_wave_and_a_rest_is_silence():
    samples = memoryview(square_wave(((1000.0, 0.01), (None, 0.01)))).cast("h")
    assert len(samples) == 2 * int(0.01 * RATE)
    tone, rest = samples[: len(samples) // 2], samples[len(samples) // 2:]
    assert set(rest) == {0} and set(tone) == {6000, -6000}
    flips = sum(1 for a, b in itertools.pairwise(tone) if a != b)
    assert flips == pytest.approx(2 * 1000 * 0.01, abs=2)  # two edges per period


INSTALL = "pip install -e '.[window]'"
WITHOUT = {"de": ("kein Fenster, pygame fehlt – es geht im Terminal weiter", "Installieren: " + INSTALL),
           "en": ("no window, pygame is not installed – playing in the terminal", "Install it: " + INSTALL)}


def hidden_pygame(folder: Path) -> Path:
    """A folder whose `pygame` fails to import as a missing one does (put first on the path, it hides pygame)."""
    (folder / "pygame").mkdir(parents=True)
    (folder / "pygame" / "__init__.py").write_text(
        'raise ModuleNotFoundError("No module named \'pygame\'", name="pygame")\n', encoding="utf-8")
    return folder


@pytest.mark.parametrize("lang", ["de", "en"])
def test_without_pygame_it_says_how_to_install_it_in_the_boxs_language(monkeypatch, lang):
    from firmware_host.sim_box import LiveBox
    from firmware_host.sim_window import open_window

    monkeypatch.setitem(sys.modules, "pygame", None)  # hidden: its import fails as a missing module's does
    resolved = resolve("sim", None, environ={})
    config = resolved.config
    resolved = replace(resolved, config=replace(config, appliance=replace(config.appliance, language=lang)))
    window, says = open_window(LiveBox(resolved))
    assert window is None
    why, what_to_do, browser = says.split("\n")
    assert why == f"wordtable sim: {WITHOUT[lang][0]}."
    assert what_to_do.strip().startswith(WITHOUT[lang][1])
    assert "wordtable sim --page" in browser


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de", "en"])
def test_without_pygame_the_live_simulator_says_how_to_install_it_and_plays_in_the_terminal(tmp_path, lang):
    hider = hidden_pygame(tmp_path / "hide")
    sim = LiveSim(tmp_path / "state", "--window", "--lang", lang, env={"PYTHONPATH": str(hider)}, size=(160, 30))
    try:
        assert sim.wait_for("LED"), sim.text()
        assert sim.wait_for(WITHOUT[lang][1]), sim.text()  # under the OLED while it plays
        sim.write("q")
        assert sim.wait_exit() == 0
        after = sim.text().rsplit("\x1b[?1049l", 1)[-1]  # on the plain terminal, once the run is over
        assert WITHOUT[lang][0] in after and WITHOUT[lang][1] in after
    finally:
        sim.kill()


@pytest.mark.slow
def test_without_a_display_it_says_how_to_get_one_and_plays_in_the_terminal(tmp_path):
    pytest.importorskip("pygame", reason="the window extra is not installed: pip install '.[window]'")
    pytest.importorskip("luma.emulator", reason="the window extra is not installed: pip install '.[window]'")
    sim = LiveSim(tmp_path / "state", "--window")
    try:
        assert sim.wait_for("LED"), sim.text()
        assert "kein Fenster, kein Bildschirm" in sim.text()
        sim.write("q")
        assert sim.wait_exit() == 0
        assert "xvfb-run wordtable sim --window" in sim.text()
    finally:
        sim.kill()


XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"


@pytest.fixture
def display() -> Iterator[str]:
    pytest.importorskip("pygame", reason="the window extra is not installed: pip install '.[window]'")
    pytest.importorskip("luma.emulator", reason="the window extra is not installed: pip install '.[window]'")
    if not Path(XVFB).exists():
        pytest.skip("no Xvfb (apt-get install xvfb)")
    server = subprocess.Popen([XVFB, "-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    number = server.stdout.readline().strip()
    yield f":{number}"
    server.terminate()
    server.wait(10)


def grab(display: str) -> Image.Image:
    from PIL import ImageGrab

    return ImageGrab.grab(xdisplay=display)


def oled_in(shot: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The OLED's pixels read back from a screenshot of the window at (0, 0): one sample per SCALE block,
    each block checked to be one colour."""
    width, height = size
    area = shot.crop((OLED_AT[0], OLED_AT[1], OLED_AT[0] + width * SCALE, OLED_AT[1] + height * SCALE)).convert("L")
    blocks = area.resize(size, Image.Resampling.BOX)
    sampled = area.resize(size, Image.Resampling.NEAREST)
    assert ImageChops.difference(blocks, sampled).getbbox() is None  # every block is one pixel, not blurred
    return sampled.point(lambda v: 255 if v > 127 else 0).convert("1")


@pytest.mark.slow
def test_the_window_shows_the_rendered_frame_pixel_exact_and_a_click_on_start_presses_it(tmp_path, display):
    resolved = resolve("sim", None, environ={})
    reference = Simulator(resolved, tmp_path / "reference")  # the same boot frame, rendered on the dummy panel
    expected = reference.image.convert("1")
    reference.close()
    sim = LiveSim(tmp_path / "state", "--window", env={"DISPLAY": display, "SDL_VIDEO_WINDOW_POS": "0,0"})
    try:
        assert sim.wait_for("LED"), sim.text()
        assert "no window" not in sim.text()
        size = (resolved.profile.display.width, resolved.profile.display.height)
        deadline = time.monotonic() + 15
        while True:
            shown = oled_in(grab(display), size)
            if ImageChops.difference(shown.convert("L"), expected.convert("L")).getbbox() is None:
                break
            assert time.monotonic() < deadline, "the window never showed the rendered frame"
            time.sleep(0.2)
        xdotool = shutil.which("xdotool")
        if xdotool is not None:  # a click on START (the first button, under the LED bar)
            x, y = OLED_AT[0] + 40, OLED_AT[1] + size[1] * SCALE + 70 + 20
            # one xdotool run for the whole click: a second process started on a loaded machine could let
            # go of the button after the hold time, and the click would be a long press
            subprocess.run([xdotool, "mousemove", str(x), str(y), "mousedown", "1", "sleep", "0.1", "mouseup", "1"],
                           env={"DISPLAY": display}, check=True)
            # the click's own effect, not any change on the panel (its hint pages by itself): a press is sent on
            # its release, which the window may take a while to hand on when the machine is busy
            deadline = time.monotonic() + 20
            while not (presses := [e.button for e in sim.journal_inputs() if isinstance(e, Press)]):
                assert time.monotonic() < deadline, ("a click on START was never pressed", sim.text()[-3000:])
                time.sleep(0.2)
            assert presses == [Button.START]
            deadline = time.monotonic() + 10
            while oled_in(grab(display), size) == shown:
                assert time.monotonic() < deadline, "the press on START changed nothing in the window"
                time.sleep(0.2)
        sim.write("q")
        assert sim.wait_exit() == 0
        if xdotool is not None:
            assert [e.button for e in sim.journal_inputs() if isinstance(e, Press)] == [Button.START]
    finally:
        sim.kill()
