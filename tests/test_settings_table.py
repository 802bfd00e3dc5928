"""One table of settings (`core.settings.SETTINGS`): the menu's submenus, what is remembered, the phones'
controls, the config file's keys and its precedence all iterate it — a new setting is one row and its text."""

import pytest

from firmware_host.appliance import settings_from_config
from firmware_host.cli import main
from firmware_host.config import resolve
from firmware_host.core import app
from firmware_host.core import settings as table
from firmware_host.core.app_text import TEXT
from firmware_host.core.events import Button, Press, SeatCommand
from firmware_host.core.settings import Setting, Settings

SPARKLE = ("none", "some", "lots")
SPARKLE_TEXT = {
    "de": {"sparkle": "Funkeln", "sparkle_none": "kein", "sparkle_some": "etwas", "sparkle_lots": "viel"},
    "en": {"sparkle": "Sparkle", "sparkle_none": "none", "sparkle_some": "some", "sparkle_lots": "lots"},
}


@pytest.fixture
def sparkle(monkeypatch):
    """A copy of the table with one new row — a setting no part of the code knows — and its texts."""
    row = Setting("sparkle", "sparkle", SPARKLE, SPARKLE, lambda say, value: say(f"sparkle_{value}"),
                  config=("screen", "sparkle", SPARKLE), phone="sparkle", default="none")
    monkeypatch.setattr(table, "SETTINGS", (*table.SETTINGS, row))
    for lang, texts in SPARKLE_TEXT.items():
        for key, text in texts.items():
            monkeypatch.setitem(TEXT[lang], key, text)
    return row


def run(state, *events):
    for event in events:
        state = app.step(state, event)[0]
    return state


def test_the_new_row_is_checked_and_printed_by_check_config(sparkle, tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[screen]\nsparkle = "glitter"\n', encoding="utf-8")
    assert main(["check-config", "--profile", "sim", "--config", str(config)]) == 2
    assert "screen.sparkle: 'glitter' is not one of 'none', 'some', 'lots'" in capsys.readouterr().err
    config.write_text('[screen]\nsparkle = "lots"\n', encoding="utf-8")
    assert main(["check-config", "--profile", "sim", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert '\n[screen]\ncontrast = 255\ndim_after_min = 10\nblank_after_min = 60\nsparkle = "lots"\n' in out
    resolved = resolve("sim", config, environ={})
    assert sparkle.value(settings_from_config(resolved, {})) == "lots"  # the file's value is the default
    assert sparkle.value(settings_from_config(resolved, {"sparkle": "some"})) == "some"  # a menu choice wins


def test_the_new_row_is_a_submenu_of_the_menu_and_is_remembered(sparkle):
    state = app.initial(Settings())[0]
    keys = app.main_keys(state)
    assert keys[keys.index("power_off") - 1] == "sparkle"  # placed in no group: in the main menu
    assert app.current_value(state, "sparkle") == "kein"
    state = run(state, Press(Button.MENU, 0.0), *[Press(Button.NEXT, 0.0)] * keys.index("sparkle"),
                Press(Button.START, 0.0))
    assert app.screen(state).title == "Funkeln"
    assert [label for _, label, _ in app.menu_entries(state, "sparkle")] == ["kein", "etwas", "viel"]
    state, effects = app.step(state, Press(Button.NEXT, 0.0))
    state, effects = app.step(state, Press(Button.START, 0.0))
    assert sparkle.value(state.settings) == "some"
    saved = next(effect.settings for effect in effects if type(effect).__name__ == "SaveSettings")
    assert saved["sparkle"] == "some" and sparkle.value(Settings().with_remembered(saved)) == "some"
    assert sparkle.value(Settings().with_remembered({"sparkle": "glitter"})) == "none"  # not one of its choices


def test_the_new_row_survives_a_resume(sparkle):
    state = run(app.initial(Settings())[0], SeatCommand(0, "sparkle", "lots", 0.0))
    resumed = app.restore(app.snapshot(state))
    assert sparkle.value(resumed.settings) == "lots" and resumed.settings == state.settings


def test_the_new_row_is_among_the_phones_controls(sparkle):
    state = app.initial(Settings(lang="en"))[0]
    controls = app.page_controls(state)
    assert controls["sparkle"] == {"title": "Sparkle", "options": [("none", "none", True), ("some", "some", False),
                                                                   ("lots", "lots", False)]}
    state, effects = app.step(state, SeatCommand(1, "sparkle", "glitter", 0.0))  # not one of its choices
    assert sparkle.value(state.settings) == "none" and any(type(e).__name__ == "Refused" for e in effects)


def test_without_the_row_nothing_knows_it(tmp_path, capsys):
    assert "sparkle" not in app.main_keys(app.initial(Settings())[0])
    assert "sparkle" not in app.page_controls(app.initial(Settings())[0])
    config = tmp_path / "config.toml"
    config.write_text('[screen]\nsparkle = "lots"\n', encoding="utf-8")
    assert main(["check-config", "--profile", "sim", "--config", str(config)]) == 2
    assert "screen.sparkle: unknown key" in capsys.readouterr().err


def test_every_row_says_its_choices_in_both_languages():
    for lang in ("de", "en"):
        state = app.initial(Settings(lang=lang))[0]
        for row in table.SETTINGS:
            entries = app.menu_entries(state, row.key)
            assert entries and all(label for _, label, _ in entries), (lang, row.key)
            assert sum(marked for _, _, marked in entries) == 1, (lang, row.key)
            assert app.current_value(state, row.key), (lang, row.key)
