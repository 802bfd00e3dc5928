"""When the best play is revealed (off / after each round / only at the game's end): a menu setting on the
box ("Bestes Wort"), remembered like the others, with the config's `[dictionary] reveal` as its default —
the newer of a menu change and a file change wins across restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.config import resolve
from firmware_host.core import app
from firmware_host.core.effects import RevealBest, SaveSettings
from firmware_host.core.events import Button, Press
from firmware_host.core.settings import Settings
from tests.table_driver import Table


def choose_reveal(send, state_of, now: float, reveal: str) -> None:
    """At the table: MENU, "Bestes Wort", NEXT to `reveal`, START, and out of the menu again."""
    for event in app.events_to_choose(state_of(), "Bestes Wort", now) or []:
        send(event)
    keys = [key for key, _, _ in app.menu_entries(state_of(), "reveal")]
    steps = (keys.index(reveal) - state_of().overlay.cursor) % len(keys)
    for event in [Press(Button.NEXT, now)] * steps + [Press(Button.START, now), Press(Button.MENU, now)]:
        send(event)
    assert state_of().settings.reveal == reveal and state_of().overlay is None


def test_the_menu_offers_the_three_choices_in_both_languages_and_shows_the_current_one():
    table = Table()
    assert [label for _, label, _ in app.menu_entries(table.state, "reveal")] == ["je Runde", "am Spielende", "aus"]
    shown = {key: app.current_value(table.state, key) for key in app.menu_keys(table.state)}
    assert shown["reveal"] == "Runde"
    english = Table(lang="en")
    assert [label for _, label, _ in app.menu_entries(english.state, "reveal")] == ["each round", "at the end", "off"]
    assert "Best word" in [label for _, label, _ in app.menu_entries(english.state, "play")]


def test_a_choice_is_saved_and_remembered_and_the_next_game_plays_by_it():
    table = Table()
    effects: list = []

    def send(event):
        table.step(event)
        effects.extend(table.effects)

    choose_reveal(send, lambda: table.state, 0.0, "end")
    saved = [e.settings for e in effects if isinstance(e, SaveSettings)]
    assert saved and saved[-1]["reveal"] == "end"
    assert Settings().with_remembered(saved[-1]).reveal == "end"
    assert Settings().with_remembered({"reveal": "never"}).reveal == "round"  # a stale value is ignored
    table.open_game("game:perfektes-wort")
    assert table.state.flow.reveal == "end"
    table.press("menu")  # back out of the game's setup: "aus" for the next one
    table.press("menu")
    choose_reveal(send, lambda: table.state, 0.0, "off")
    quiddler = Table(reveal="off").open_game("game:quiddler")
    assert quiddler.state.flow.reveal is False


def test_off_in_the_menu_asks_the_word_list_nothing_after_a_round():
    from tests.test_table_perfektes_wort import start_with_own_cards

    for reveal, asks in (("round", True), ("off", False)):
        table = Table()
        choose_reveal(table.step, lambda table=table: table.state, 0.0, reveal)
        start_with_own_cards("Geli", "Klaus", table=table)
        table.press("next").press("start").press("start")  # reveal (F, at most 7), timer, words now
        table.type("Fisch", "Fuß")
        table.press("start")  # the review is done: the round's points
        assert table.state.flow.reveal == reveal
        assert any(isinstance(e, RevealBest) for e in table.effects) is asks


def write_config(path: Path, reveal: str) -> Path:
    path.write_text(f'[dictionary]\nreveal = "{reveal}"\n', encoding="utf-8")
    return path


@pytest.mark.slow  # restarts
def test_the_newer_of_the_config_file_and_the_menu_wins_across_restarts(make_sim, tmp_path):
    config = write_config(tmp_path / "config.toml", "off")
    sim = make_sim(state_dir=tmp_path / "state", config=config)
    assert sim.state.settings.reveal == "off"  # the file's at first

    def restart() -> str:
        sim.resolved = resolve("sim", config, environ={})
        sim.restart()
        return sim.state.settings.reveal

    choose_reveal(sim.send, lambda: sim.state, sim.clock.now, "round")
    assert restart() == "round" and restart() == "round"  # the menu's sticks …
    write_config(config, "end")
    assert restart() == "end"  # … until the file changes it
    choose_reveal(sim.send, lambda: sim.state, sim.clock.now, "off")
    assert restart() == "off"  # a later menu change wins again


def test_a_keyboard_alone_chooses_it_arrows_and_enter():
    from drivers.keys import Key, LineEditor
    from firmware_host.core.text_field import typed

    table = Table()
    keyboard = LineEditor(typed)

    def keys(*actions):
        for action in actions:
            for event in keyboard.apply(action, 0.0):
                table.step(event)

    keys(Key.MENU, Key.ENTER)  # the first group: Spielen
    keys(Key.BACKWARD, Key.ENTER)  # ↑ round its end to its last entry, Bestes Wort; Enter
    assert table.state.overlay == app.MenuView("reveal", 0)
    keys(Key.FORWARD, Key.ENTER)  # ↓ "am Spielende", Enter
    assert table.state.settings.reveal == "end" and "error" not in table.beeps
