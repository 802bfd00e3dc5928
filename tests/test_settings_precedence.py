"""Settings that stick, and a config file that means what it says: the newer of a menu change and a change
in /etc/wordtable/config.toml wins, across restarts (`settings.still_chosen`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.config import resolve
from firmware_host.core import app
from firmware_host.core.events import Button, Press
from firmware_host.core.settings import FILE_PREFIX, remembered_with_file, still_chosen


def write_config(path: Path, volume: str, duration_s: int) -> Path:
    path.write_text(f'[timer]\nvolume = "{volume}"\nduration_s = {duration_s}\n', encoding="utf-8")
    return path


def choose_volume(sim, volume: str) -> None:
    """Open the menu, the volume, and choose `volume` with NEXT presses (as at the table)."""
    now = sim.clock.now
    for event in app.events_to_choose(sim.state, "Lautstärke", now) or []:
        sim.send(event)
    keys = [key for key, _, _ in app.menu_entries(sim.state, "volume")]
    steps = (keys.index(volume) - sim.state.overlay.cursor) % len(keys)
    for event in [Press(Button.NEXT, now)] * steps + [Press(Button.START, now), Press(Button.BACK, now)]:
        sim.send(event)
    assert sim.state.settings.volume == volume and sim.state.overlay is None


def restart_with(sim, config: Path) -> tuple[str, int]:
    sim.resolved = resolve("sim", config, environ={})
    sim.restart()
    return sim.state.settings.volume, sim.state.settings.duration_s


@pytest.mark.slow  # restarts
def test_the_newer_of_file_and_menu_wins_across_restarts(make_sim, tmp_path):
    config = write_config(tmp_path / "config.toml", "soft", 90)
    sim = make_sim(state_dir=tmp_path / "state", config=config)
    assert (sim.state.settings.volume, sim.state.settings.duration_s) == ("soft", 90)  # the file at first
    choose_volume(sim, "normal")
    assert restart_with(sim, config) == ("normal", 90)  # a menu change sticks …
    assert restart_with(sim, config) == ("normal", 90)
    write_config(config, "loud", 90)  # … until the file changes that key
    assert restart_with(sim, config) == ("loud", 90)
    assert restart_with(sim, config) == ("loud", 90)  # and stays the file's
    choose_volume(sim, "soft")  # a later menu change wins again
    assert restart_with(sim, config) == ("soft", 90)
    write_config(config, "loud", 120)  # another key changed in the file: it applies, the menu's stays
    assert restart_with(sim, config) == ("soft", 120)
    assert sim.state.timer.left(sim.clock.now) == 120  # the timer is set to it as well


def test_the_menu_wins_over_the_built_in_defaults_when_there_is_no_file(make_sim, tmp_path):
    sim = make_sim(state_dir=tmp_path)
    choose_volume(sim, "loud")
    sim.restart()
    assert sim.state.settings.volume == "loud"


VALUES = st.one_of(st.integers(0, 5), st.sampled_from(["a", "b"]))


@pytest.mark.slow  # hypothesis
@given(st.dictionaries(st.sampled_from(["volume", "warn_s", "lang"]), VALUES),
       st.dictionaries(st.sampled_from(["volume", "warn_s", "lang"]), VALUES),
       st.dictionaries(st.sampled_from(["volume", "warn_s", "lang"]), VALUES))
def test_a_choice_stands_exactly_while_the_file_says_what_it_said_then(chosen, file_then, file_now):
    saved = remembered_with_file(chosen, file_then)
    standing = still_chosen(saved, file_now)
    assert not any(key.startswith(FILE_PREFIX) for key in standing)
    for key, value in chosen.items():
        changed = key in file_then and key in file_now and file_then[key] != file_now[key]
        assert (key not in standing) == changed
        if not changed:
            assert standing[key] == value


def test_a_kept_list_is_the_same_as_the_files_tuple():
    import json

    kept = json.loads(json.dumps(remembered_with_file({"player_names": ["Ben", "Anna"]},
                                                      {"player_names": ("Anna", "Ben")})))
    assert still_chosen(kept, {"player_names": ("Anna", "Ben")}) == {"player_names": ["Ben", "Anna"]}
    assert still_chosen(kept, {"player_names": ("Anna", "Cem")}) == {}
