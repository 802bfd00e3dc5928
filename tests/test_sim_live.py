"""The live `wordtable sim` in a terminal (a pty): a fast paste reaches the shell whole and in order, the
screen follows resizes, the sound marker goes when the tone ends, and `q` / Ctrl-C leave the terminal clean."""

from __future__ import annotations

import re
import termios
import time

import pytest

from firmware_host.core.events import Button, Press, TextEntry
from tests.sim_pty import LiveSim

pytestmark = pytest.mark.slow  # a child process in real time

# In the scoreboard: names (full of the button letters s n b m) and point entries, between button keys.
BURST = ("msns"  # MENU, START (Spielen), NEXT (to Punktetafel), START (into it)
         "\rSabine Schmidt\r" "s" "\r+5\r" "n"
         "\rBenno Mann\r" "\r+7\r" "\r-2\r" "n"
         "\rMiriam Nsimba\r" "ss" "\r+13\r" "b" "n"
         "\rBob Sims\r" "\r+5\r" "\r+5\r" "[" "]" "n" "n"
         "\rSusanne Brenn\r" "\r+21\r" "s" "n" "\r+1\r" "\rAnnemarie\r" "b" "\r+3\r" "\r+2\r" "n"
         "\rBernhard Mann\r" "\r+8\r" "s" "n" "\rSimon Baumann\r" "\r+4\r" "bb" "\rAnna-Lena Ems\r" "\r+11\r" "mb")
B = {"s": Button.START, "n": Button.NEXT, "b": Button.BACK, "m": Button.MENU}


def expected_inputs(burst: str) -> list[tuple[str, str]]:
    """What each key of `burst` should give, in order: ("press", button) or ("line", text); turns left out."""
    out: list[tuple[str, str]] = []
    parts = burst.split("\r")
    for index, part in enumerate(parts):
        if index % 2 == 1:
            out.append(("line", part))
        else:
            out.extend(("press", B[c].value) for c in part if c in B)
    return out


def shown(events: list) -> list[tuple[str, str]]:
    out = []
    for event in events:
        if isinstance(event, Press):
            out.append(("press", event.button.value))
        elif isinstance(event, TextEntry):
            out.append(("line", event.text))
    return out


@pytest.fixture
def live(tmp_path):
    sims: list[LiveSim] = []

    def start(*args: str, size: tuple[int, int] = (80, 24)) -> LiveSim:
        sim = LiveSim(tmp_path / f"state{len(sims)}", *args, size=size)
        sims.append(sim)
        assert sim.wait_for("LED"), sim.text()
        return sim

    yield start
    for sim in sims:
        sim.kill()


def test_a_200_character_burst_of_lines_and_keys_reaches_the_journal_whole_and_in_order(live):
    assert len(BURST) >= 200
    sim = live()
    sim.write(BURST)  # one write: the sim reads it as one burst
    sim.write("q")
    assert sim.wait_exit(60) == 0, sim.text()[-2000:]
    events = sim.journal_inputs()
    assert shown(events) == expected_inputs(BURST)
    turns = [e.steps for e in events if type(e).__name__ == "Turn"]
    assert turns == [-1, 1]  # [ and ] on the encoder's mock pins


def test_80x24_and_a_resize_redraws_at_the_new_size(live):
    sim = live(size=(80, 24))
    screen = sim.text()
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", re.sub(r"\x1b\[[0-9;]*H", "\n", screen)).split("\n")
    assert max(len(line) for line in lines) <= 81  # a cursor move to a row (a redraw) starts a line
    mark = len(screen)
    sim.resize(40, 24)  # the kernel tells the sim with SIGWINCH
    half_box = "┌" + "─" * 32 + "┐"  # the 128×64 OLED at half scale: 32 Braille columns
    assert sim.wait_for(half_box, since=mark), sim.text()[mark:]
    assert "\x1b[2J" in sim.text()[mark:]  # a full clear: nothing of the wider screen stays
    sim.write("q")
    assert sim.wait_exit() == 0


def test_the_sound_marker_shows_while_the_tone_plays_and_goes_when_it_ends(live):
    sim = live()
    mark = len(sim.text())
    sim.write("s")  # START: the timer runs (the start beep)
    assert sim.wait_for("♪", since=mark, timeout=10), sim.text()[mark:]
    time.sleep(2.0)
    last_led = sim.text().rsplit("LED ", 1)[1].split("\x1b[K", 1)[0]
    assert "♪" not in last_led
    sim.write("q")
    assert sim.wait_exit() == 0


@pytest.mark.parametrize("leave", ["q", "\x03"])
def test_q_and_ctrl_c_leave_the_terminal_as_it_was(live, leave):
    sim = live()
    before = termios.tcgetattr(sim.fd)  # the sim's own mode, while it runs
    assert not before[3] & termios.ICANON and not before[3] & termios.ISIG
    sim.write(leave)
    assert sim.wait_exit() == 0
    after = termios.tcgetattr(sim.fd)
    assert after[3] & termios.ICANON and after[3] & termios.ECHO and after[3] & termios.ISIG
    tail = sim.text()[-40:]
    assert tail.endswith("\x1b[?25h\x1b[?1049l")  # cursor shown, the normal screen back


@pytest.mark.parametrize("lang, words", [("de", "Handy-Seite: {url}/ · virtuelle Box: {url}/box"),
                                         ("en", "Table page: {url}/ · virtual box: {url}/box")])
def test_with_page_the_terminal_says_where_the_page_and_the_virtual_box_are(live, tmp_path, lang, words):
    """`wordtable sim --page` names its addresses under the key help (the config may move the port), in
    the box's language; without --page there is no such line."""
    from tests.helpers.ports import free_port

    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'[page]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n')
    sim = live("--page", "--config", str(config), "--lang", lang)
    assert sim.wait_for(words.format(url=f"http://127.0.0.1:{port}")), sim.text()[-2000:]
    plain = live()
    assert sim.wait_for("/box") and not plain.wait_for("/box", timeout=1.5)
