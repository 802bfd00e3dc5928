from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.config import ConfigError, ResolveError, dump, load_config, parse_config, resolve
from firmware_host.core.settings import Settings

GOOD = """
[appliance]
language = "en"
state_dir = "/srv/wordtable"

[timer]
duration_s = 90
presets = [45, 90]
warn_s = 0
volume = "soft"

[scoreboard]
players = ["Anna", "Björn", "Ülkü"]

[dictionary]
path = "/usr/share/dict/ngerman"

[logging]
level = "DEBUG"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file():
    config = parse_config({}, environ={})
    assert config.appliance.language == "de"
    assert config.appliance.state_dir == Path("/var/lib/wordtable")
    assert (config.timer.duration_s, config.timer.warn_s, config.timer.volume) == (60, 10, "normal")
    assert config.timer.presets == (30, 60, 90, 120, 180)
    assert config.scoreboard.players == ()
    assert config.dictionary.path is None and config.logging.level == "INFO"


def test_systemd_state_directory_is_the_default_state_dir():
    assert parse_config({}, environ={"STATE_DIRECTORY": "/var/lib/wordtable2"}).appliance.state_dir == Path(
        "/var/lib/wordtable2"
    )


def test_full_file(tmp_path):
    config = load_config(write(tmp_path, GOOD), environ={})
    assert config.appliance.language == "en" and config.appliance.state_dir == Path("/srv/wordtable")
    assert config.timer.presets == (45, 90) and config.timer.warn_s == 0 and config.timer.volume == "soft"
    assert config.scoreboard.players == ("Anna", "Björn", "Ülkü")
    assert config.dictionary.path == Path("/usr/share/dict/ngerman")


def test_every_error_is_listed_by_key(tmp_path):
    text = """
[appliance]
language = "fr"
[timer]
duration_s = 0
presets = [30, 30]
warn_s = -1
volume = "deafening"
colour = "red"
[scoreboard]
players = ["Anna"]
[logging]
level = 3
[extra]
"""
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text), environ={})
    keys = [key for key, _ in info.value.errors]
    assert keys == [
        "extra",
        "appliance.language",
        "timer.colour",
        "timer.duration_s",
        "timer.presets[1]",
        "timer.warn_s",
        "timer.volume",
        "scoreboard.players",
        "logging.level",
    ]
    assert "timer.presets[1]: 30 repeats timer.presets[0]" in str(info.value)


def test_too_many_or_blank_player_names():
    with pytest.raises(ConfigError) as info:
        parse_config({"scoreboard": {"players": [f"P{i}" for i in range(9)]}}, environ={})
    assert info.value.errors == [("scoreboard.players", "expected 2–8 entries, got 9")]
    with pytest.raises(ConfigError) as info:
        parse_config({"scoreboard": {"players": ["Anna", " "]}}, environ={})
    assert info.value.errors == [("scoreboard.players[1]", "must not be empty")]


def test_explicit_missing_file_and_bad_toml(tmp_path):
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "none.toml")
    assert info.value.errors[0][0] == "config"
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, "[timer]\nduration_s = = 3\n"))
    assert "line 2" in info.value.errors[0][1]


def test_resolve_collects_profile_and_config_errors(tmp_path):
    profile = tmp_path / "board.toml"
    profile.write_text("[buzzer]\npin = 18\n", encoding="utf-8")
    config = write(tmp_path, "[timer]\nvolume = 3\n")
    with pytest.raises(ResolveError) as info:
        resolve(profile, config)
    assert ("led_bar", "missing section") in info.value.profile_errors
    assert [key for key, _ in info.value.config_errors] == ["timer.volume"]
    assert all(where.startswith((str(profile), str(config))) for where, _ in info.value.errors)


def test_dump_shows_profile_and_config(tmp_path):
    text = dump(resolve("sim", write(tmp_path, GOOD)))
    assert "# [led_bar]\n# pins = [5, 6, 12, 13, 16, 17, 22, 23, 24, 25]\n" in text
    assert 'players = ["Anna", "Björn", "Ülkü"]' in text
    assert 'driver = "dummy"' in text and 'volume = "soft"' in text


@pytest.mark.parametrize("text", ["", GOOD])
def test_the_dump_pasted_into_the_config_file_means_the_same(tmp_path, text):
    resolved = resolve("sim", write(tmp_path, text))
    pasted = tmp_path / "pasted.toml"
    pasted.write_text(dump(resolved), encoding="utf-8")
    assert "[timer]\n" in dump(resolved) and "[config." not in dump(resolved)
    assert replace(load_config(pasted, environ={}), source=None) == replace(resolved.config, source=None)


@pytest.mark.slow
@given(st.lists(st.integers(-10, 7000), min_size=0, max_size=10))
def test_presets_are_accepted_exactly_when_valid(presets):
    ok = 1 <= len(presets) <= 8 and len(set(presets)) == len(presets) and all(1 <= p <= 5999 for p in presets)
    try:
        config = parse_config({"timer": {"presets": presets}}, environ={})
    except ConfigError as exc:
        assert not ok
        assert all(key.startswith("timer.presets") for key, _ in exc.errors)
    else:
        assert ok and config.timer.presets == tuple(presets)


def test_the_turn_timer_section_gives_the_turn_settings(tmp_path):
    config = load_config(write(tmp_path, '[turn_timer]\nmode = "sudden-death"\nbank_s = 300\ndelay_s = 3\n'
                                         "game_turn_s = 45\n"), environ={})
    turns = config.turn_timer.settings()
    assert (turns.mode, turns.bank_s, turns.delay_s, turns.increment_s, turns.game_turn_s) == (
        "sudden-death", 300, 3, 0, 45)
    assert parse_config({}, environ={}).turn_timer.settings() == Settings().turns


def test_every_turn_timer_error_is_listed_by_key():
    with pytest.raises(ConfigError) as info:
        parse_config({"turn_timer": {"mode": "chess", "turn_s": 2, "over": "stop", "bank_s": 100_000,
                                     "increment_s": 5, "delay_s": 3, "game_turn_s": 3, "fischer": 1}}, environ={})
    keys = [key for key, _ in info.value.errors]
    assert sorted(keys) == sorted(["turn_timer.fischer", "turn_timer.mode", "turn_timer.turn_s", "turn_timer.over",
                                   "turn_timer.bank_s", "turn_timer.delay_s", "turn_timer.game_turn_s"])
    messages = dict(info.value.errors)
    assert "cannot both be set" in messages["turn_timer.delay_s"]
    assert "'chess' is not one of" in messages["turn_timer.mode"]
