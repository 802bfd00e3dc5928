import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hw.profile import BUS_PINS, ProfileError, load_profile, parse_profile
from tests.hwhelpers import DEFAULT_TOML, edited


def errors_of(text: str) -> list[tuple[str, str]]:
    with pytest.raises(ProfileError) as info:
        parse_profile(tomllib.loads(text))
    return info.value.errors


def keys_of(text: str) -> list[str]:
    return [key for key, _ in errors_of(text)]


def test_bundled_profiles_load_by_name():
    default, sim = load_profile("default"), load_profile("sim")
    assert default.led_bar.pins == (5, 6, 12, 13, 16, 17, 22, 23, 24, 25)
    assert default.buzzer.kind == "tonal" and default.buzzer.pin == 18
    assert default.display.driver == "ssd1306" and default.display.address == 0x3C
    assert default.board.pin_factory == "auto" and not default.encoder.enabled
    assert sim.board.pin_factory == "mock" and sim.display.driver == "dummy" and sim.encoder.enabled


def test_profile_loads_by_path(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(edited("hold_ms = 800", "hold_ms = 1200"), encoding="utf-8")
    profile = load_profile(path)
    assert profile.buttons.hold_ms == 1200
    assert profile.source == str(path)


def test_profile_is_frozen():
    profile = load_profile("default")
    with pytest.raises(AttributeError):
        profile.buzzer.pin = 19  # type: ignore[misc]


def test_doubled_pin_names_both_keys():
    errors = errors_of(edited("start = 26", "start = 13"))
    assert errors == [("buttons.start", "GPIO 13 is also used by led_bar.pins[3]")]


def test_pin_of_enabled_bus_is_rejected_and_free_when_disabled():
    assert keys_of(edited("next = 27", "next = 3")) == ["buttons.next"]
    assert keys_of(edited("menu = 21", "menu = 15")) == ["buttons.menu"]
    assert parse_profile(
        tomllib.loads(edited("uart = true", "uart = false").replace("menu = 21", "menu = 15"))
    )


def test_spi_bus_claims_encoder_pins_when_enabled():
    text = edited("spi = false", "spi = true").replace("enabled = false", "enabled = true")
    assert keys_of(text) == ["encoder.a", "encoder.b", "encoder.push"]


def test_id_pins_and_out_of_range_pins():
    errors = dict(errors_of(edited("back = 20", "back = 0").replace("menu = 21", "menu = 28")))
    assert "ID EEPROM" in errors["buttons.back"]
    assert "out of range" in errors["buttons.menu"]


def test_shutdown_pin_is_kept_free():
    assert keys_of(edited("shutdown_pin = 4", "shutdown_pin = 26")) == ["power.shutdown_pin"]


def test_unknown_display_driver():
    errors = dict(errors_of(edited('driver = "ssd1306"', 'driver = "st7735"')))
    assert "unknown display driver 'st7735'" in errors["display.driver"]


def test_display_needs_its_bus_and_a_supported_size():
    text = edited('driver = "ssd1306"', 'driver = "ssd1322"')
    assert set(keys_of(text)) >= {"display.interface", "display.width"}
    assert keys_of(edited("i2c = true", "i2c = false")) == ["display.interface"]


def test_the_display_refresh_is_seconds_from_0_to_an_hour():
    assert load_profile("default").display.refresh_s == 30
    assert parse_profile(tomllib.loads(edited("refresh_s = 30", "refresh_s = 0"))).display.refresh_s == 0
    errors = dict(errors_of(edited("refresh_s = 30", "refresh_s = -5")))
    assert "out of range 0–3600" in errors["display.refresh_s"]
    assert "expected an integer" in dict(errors_of(edited("refresh_s = 30", 'refresh_s = "30s"')))["display.refresh_s"]


def test_wrong_types_unknown_and_missing_keys_all_at_once():
    text = (
        edited("pwm = true", "pwm = 1")
        .replace("pin = 18", 'pin = "18"')
        .replace("hold_ms = 800", "hold_ms = 800\nlong_ms = 3")
        .replace("start = 26\n", "")
        + "\n[lights]\nx = 1\n"
    )
    assert sorted(keys_of(text)) == sorted(
        ["led_bar.pwm", "buzzer.pin", "buttons.long_ms", "buttons.start", "lights"]
    )


def test_invalid_toml_and_missing_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[buttons\nstart = 1", encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(bad)
    assert info.value.errors[0][0] == "profile" and "line 1" in info.value.errors[0][1]
    with pytest.raises(ProfileError) as info:
        load_profile(tmp_path / "nope.toml")
    assert "cannot read" in info.value.errors[0][1]


FREE = sorted(set(range(2, 28)) - {p for pins in BUS_PINS.values() for p in pins})


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.permutations(FREE), st.integers(1, 10))
def test_any_distinct_free_pins_load_and_any_repeat_is_caught(order, bar_len):
    pins = order[:bar_len]
    rest = order[bar_len:]
    text = edited("pins = [5, 6, 12, 13, 16, 17, 22, 23, 24, 25]", f"pins = {pins}")
    for key, pin in zip(
        ("pin = 18", "start = 26", "next = 27", "back = 20", "menu = 21", "shutdown_pin = 4"),
        rest,
        strict=False,
    ):
        text = text.replace(key, f"{key.split(' = ')[0]} = {pin}", 1)
    profile = parse_profile(tomllib.loads(text))
    assert len(profile.used_pins()) == bar_len + 6
    # now reuse the bar's first pin for START: exactly that conflict is reported
    doubled = text.replace(f"start = {rest[1]}", f"start = {pins[0]}", 1)
    assert errors_of(doubled) == [("buttons.start", f"GPIO {pins[0]} is also used by led_bar.pins[0]")]


def test_default_text_is_the_bundled_file():
    assert load_profile("default") == parse_profile(
        tomllib.loads(DEFAULT_TOML), load_profile("default").source
    )


def test_a_256x64_spi_panel_by_profile():
    text = (
        edited('driver = "ssd1306"', 'driver = "ssd1322"')
        .replace('interface = "i2c"', 'interface = "spi"\ndc_pin = 19\nreset_pin = 4')
        .replace("width = 128", "width = 256")
        .replace("spi = false", "spi = true")
        .replace("shutdown_pin = 4", "shutdown_pin = 7")
    )
    errors = dict(errors_of(text))
    # GPIO 7 is SPI CE1, kept free while the SPI bus is on: the only error
    assert set(errors) == {"power.shutdown_pin"}
    profile = parse_profile(
        tomllib.loads(
            text.replace("shutdown_pin = 7", "shutdown_pin = 14").replace("uart = true", "uart = false")
        )
    )
    assert (profile.display.width, profile.display.dc_pin, profile.display.reset_pin) == (256, 19, 4)
    assert profile.used_pins()[19] == "display.dc_pin"


def test_an_optional_turn_button_claims_its_pin():
    assert load_profile("default").buttons.turn is None
    assert load_profile("sim").buttons.turn == 19
    with_turn = edited("hold_ms = 800", "hold_ms = 800\nturn = 19")
    assert parse_profile(tomllib.loads(with_turn)).used_pins()[19] == "buttons.turn"
    assert errors_of(edited("hold_ms = 800", "hold_ms = 800\nturn = 26")) == [
        ("buttons.turn", "GPIO 26 is also used by buttons.start")]
