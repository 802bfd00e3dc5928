import pytest

from firmware_host.cli import main
from tests.cli import wordtable
from tests.hwhelpers import edited


@pytest.mark.slow
def test_doubled_pin_exits_2_naming_both_keys(tmp_path):
    profile = tmp_path / "board.toml"
    profile.write_text(edited("start = 26", "start = 22"), encoding="utf-8")
    result = wordtable("check-config", "--profile", str(profile), timeout=60)
    assert result.returncode == 2
    assert "buttons.start" in result.stderr and "led_bar.pins[6]" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_every_error_on_stderr(tmp_path, capsys):
    profile = tmp_path / "board.toml"
    profile.write_text(edited('driver = "ssd1306"', 'driver = "oled9000"').replace("back = 20", "back = 14"),
                       encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text('[appliance]\nlanguage = "fr"\n', encoding="utf-8")
    assert main(["check-config", "--profile", str(profile), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"{profile}: display.driver: unknown display driver 'oled9000'" in err
    assert f"{profile}: buttons.back: GPIO 14 is UART TXD" in err
    assert f"{config}: appliance.language" in err
    assert "3 errors" in err


def test_prints_the_resolved_configuration(capsys):
    assert main(["check-config", "--profile", "sim"]) == 0
    out = capsys.readouterr().out
    assert "# [display]" in out and '# driver = "dummy"' in out and "\n[timer]\n" in out


@pytest.mark.parametrize(("content", "says"), [
    (b"[timer\n", "invalid TOML: "),
    (b"[timer]\nvolume = \"laut\xff\"\n", "not UTF-8 text"),
    (None, "cannot read it: No such file or directory"),
])
def test_an_unreadable_file_is_named_once(tmp_path, capsys, content, says):
    config = tmp_path / "config.toml"
    if content is not None:
        config.write_bytes(content)
    assert main(["check-config", "--profile", "sim", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"wordtable check-config: {config}: config: {says}" in err
    assert err.count(str(config)) == 1


@pytest.mark.slow  # a subprocess each
@pytest.mark.parametrize(("section", "value", "says"), [
    ("dictionary", "/dev/zero", "/dev/zero is a device or pipe, not a file: name a file"),
    ("dictionary", "{tmp}", "is a folder: name a file"),
    ("league", "{tmp}/missing.pem", "missing.pem is not there"),
    ("league", "{tmp}/words.txt", "holds no certificates TLS can use"),
])
def test_a_file_the_service_could_not_use_is_refused_before_it_runs(tmp_path, capsys, section, value, says):
    (tmp_path / "words.txt").write_text("Haus\nMaus\n", encoding="utf-8")
    key = "path" if section == "dictionary" else "ca_file"
    league = '[league]\nbroker = "mqtts://broker.example:8884"\nvenue = "cafe"\ntable = "t1"\n'
    text = league.replace("[league]\n", f'[league]\n{key} = "{value.format(tmp=tmp_path)}"\n') \
        if section == "league" else f'[dictionary]\n{key} = "{value.format(tmp=tmp_path)}"\n'
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    assert main(["check-config", "--profile", "sim", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"{section}.{key}" in err and says in err and "Traceback" not in err
    started = wordtable("run", "--profile", "sim", "--config", str(config), timeout=60)  # refused at its start
    assert started.returncode == 2 and says in started.stderr and "Traceback" not in started.stderr


def test_a_word_list_that_is_not_there_leaves_the_assist_off_and_is_no_error(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text(f'[dictionary]\npath = "{tmp_path}/none.txt"\n', encoding="utf-8")
    assert main(["check-config", "--profile", "sim", "--config", str(config)]) == 0
