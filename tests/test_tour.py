"""The guided tour (`wordtable sim --tour`): its hints follow the table's state to the end, in German and in
English; the live tour on a pty is driven by keys alone, reading each next step from the hint line."""

from __future__ import annotations

import re
import time

import pytest

from firmware_host.config import resolve
from firmware_host.core import app
from firmware_host.core.events import Button, LongPress, Press, TextEntry, Turn
from firmware_host.simulator import Simulator
from firmware_host.tour import STEPS, TEXT, Tour
from tests.sim_pty import LiveSim


def no_word_list(folder):
    """A user config without the system's word list: the round's perfect word is not searched (seconds on a
    full German list), which the tour does not need."""
    config = folder / "config.toml"
    config.write_text("[dictionary]\nsystem = false\n")
    return config


def test_every_hint_is_in_both_languages():
    keys = {step.key for step in STEPS} | {step.away for step in STEPS if step.away} | {"end"}
    assert set(TEXT["de"]) == set(TEXT["en"]) == keys


def play_the_tour(sim: Simulator, tour: Tour, board: str) -> list[str]:
    """The tour's own steps, done as its hints say; returns the hints shown, in order."""
    hints: list[str] = []

    def send(event) -> None:
        sim.send(event)
        hint = tour.hint(sim.state)
        if not hints or hints[-1] != hint:
            hints.append(hint)

    now = lambda: sim.clock.now  # noqa: E731
    hints.append(tour.hint(sim.state))
    send(TextEntry("0:05", now()))
    send(Press(Button.START, now()))
    sim.wait_until(now() + 6)
    hints.append(tour.hint(sim.state))
    send(Press(Button.BACK, now()))
    for event in app.events_to_choose(sim.state, board, now()) or []:
        send(event)
    send(TextEntry("Anna", now()))
    send(TextEntry("+5", now()))
    send(Press(Button.NEXT, now()))
    send(Press(Button.START, now()))
    for event in app.events_to_choose(sim.state, "Das perfekte Wort", now()) or []:
        send(event)
    send(Turn(-2, now()))
    for _ in range(4):
        send(Press(Button.START, now()))
    send(Press(Button.NEXT, now()))
    send(Press(Button.START, now()))
    send(Press(Button.START, now()))
    letter = re.search(r"(?:mit|with) (\w):", hints[-1])
    assert letter, hints[-1]
    send(TextEntry(letter.group(1) + "ans", now()))
    send(TextEntry(letter.group(1) + "ute", now()))
    send(Press(Button.START, now()))
    send(Press(Button.START, now()))
    return hints


@pytest.mark.slow  # a round of Das perfekte Wort
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_tour_walks_from_the_sand_timer_to_the_standings_of_a_round(tmp_path, lang):
    from dataclasses import replace

    resolved = resolve("sim", no_word_list(tmp_path), environ={})
    resolved = replace(resolved, config=replace(resolved.config,
                                                appliance=replace(resolved.config.appliance, language=lang)))
    sim = Simulator(resolved, tmp_path)
    tour = Tour()
    try:
        hints = play_the_tour(sim, tour, {"de": "Punktetafel", "en": "Scoreboard"}[lang])
    finally:
        sim.close()
    assert tour.over and tour.seen == [step.key for step in STEPS]
    assert hints[-1] == TEXT[lang]["end"]
    shown = [h for h in hints if h != TEXT[lang]["end"]]
    assert shown[0] == TEXT[lang]["timer_set"]
    assert all(h.startswith("Tour ") for h in shown)


def test_a_quick_player_skips_hints_but_never_goes_back(sim):
    tour = Tour()
    sim.send(TextEntry("0:05", sim.clock.now))
    sim.send(Press(Button.START, sim.clock.now))
    assert tour.hint(sim.state) == TEXT["de"]["timer_wait"] and tour.at == 2  # two steps at once
    sim.send(Press(Button.START, sim.clock.now))  # paused: not running, yet the step stays passed
    assert tour.hint(sim.state) == TEXT["de"]["timer_wait"]


def test_a_player_who_wanders_off_is_told_the_way_back(make_sim, tmp_path):
    sim = make_sim(config=no_word_list(tmp_path))
    tour = Tour()
    now = lambda: sim.clock.now  # noqa: E731

    def do(*events) -> str:
        for event in events:
            sim.send(event)
        return tour.hint(sim.state)

    do(TextEntry("0:05", now()), Press(Button.START, now()))
    sim.wait_until(now() + 6)
    do(Press(Button.BACK, now()), *app.events_to_choose(sim.state, "Punktetafel", now()) or [])
    assert do(TextEntry("Anna", now())) == TEXT["de"]["board_points"]
    assert do(*app.events_to_choose(sim.state, "Zugzeit", now()) or []) == TEXT["de"]["board_away"]
    # out of the turn timer's setup: back on the scoreboard it was opened from, its menu open
    assert do(Press(Button.BACK, now())) == TEXT["de"]["board_points"] and sim.state.home == "scoreboard"
    assert do(*app.events_to_choose(sim.state, "Timer", now()) or []) == TEXT["de"]["board_away"]
    assert do(*app.events_to_choose(sim.state, "Punktetafel", now()) or []) == TEXT["de"]["board_points"]
    do(TextEntry("+5", now()), Press(Button.NEXT, now()), Press(Button.START, now()))
    assert do(*app.events_to_choose(sim.state, "Das perfekte Wort", now()) or []) == TEXT["de"]["pw_setup"]
    # the hint's two ways back into the game: a long BACK from the timer, the menu's first entry
    assert do(LongPress(Button.BACK, now())) == TEXT["de"]["pw_away"] and sim.state.home == "timer"
    assert do(LongPress(Button.BACK, now())) == TEXT["de"]["pw_setup"]
    assert do(LongPress(Button.BACK, now())) == TEXT["de"]["pw_away"]
    back = (Press(Button.MENU, now()), Press(Button.START, now()), Press(Button.START, now()))  # Weiterspielen
    assert do(*back) == TEXT["de"]["pw_setup"]
    assert not tour.over and tour.at == [step.key for step in STEPS].index("pw_setup")


@pytest.mark.slow
def test_the_live_tour_is_driven_by_keys_to_its_end(tmp_path):
    sim = LiveSim(tmp_path / "state", "--tour", "--lang", "en", "--config", str(no_word_list(tmp_path)))
    try:
        def step(keys: str, then: str, timeout: float = 15.0) -> str:
            mark = len(sim.text())
            sim.write(keys)
            assert sim.wait_for(then, since=mark, timeout=timeout), (then, sim.text()[-600:])
            return sim.text()[mark:]

        assert sim.wait_for("Tour 1/12"), sim.text()
        step("\r0:05\r", "Tour 2/12")
        step("s", "Tour 3/12")
        step("", "Tour 4/12", timeout=20)
        step("b", "Tour 5/12")
        step("msns", "Tour 6/12")
        step("\rAnna\r", "Tour 7/12")
        step("\r+5\r", "Tour 8/12")
        step("ns", "Tour 9/12")
        step("msnnnns", "Tour 10/12")  # Play; in the scoreboard its first entry is the letter picker
        step("[[ssss", "Tour 11/12")
        step("n", "s starts the sand timer")
        screen = step("ss", "Tour 12/12")
        time.sleep(0.3)
        letter = re.findall(r"with (\w):", sim.text())[-1]
        step(f"\r{letter}ans\r\r{letter}ute\r", "s: on to the round")
        step("ss", "Tour done!")
        sim.write("q")
        assert sim.wait_exit() == 0
        assert screen
    finally:
        sim.kill()
