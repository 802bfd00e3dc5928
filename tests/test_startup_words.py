"""A table page that cannot start (a port another program holds) is said on the OLED, in the log and in the
terminal, in the box's language with what to do — never a raw `[Errno 98]`; `wordtable sim --port`; and
`check-config` on the simulator's board shows the address the simulator's page really binds."""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Iterator
from dataclasses import replace

import pytest

from firmware_host.cli import main
from firmware_host.config import PageConfig, Resolved, resolve
from firmware_host.core.events import Notice
from firmware_host.page.attach import serve_page
from firmware_host.simulator import SIM_BIND, Simulator, sim_page
from firmware_host.startup_failure import page_failure
from tests.sim_pty import LiveSim

TAKEN = {"de": "Port {port} ist belegt – anderen Port {how} wählen oder das andere Programm beenden",
         "en": "Port {port} is taken – choose another port {how} or quit the other program"}
HOW = {"sim": {"de": "mit --port", "en": "with --port"},  # `wordtable sim`
       "run": {"de": "in der Konfiguration ([page] port)", "en": "in the config ([page] port)"}}


@pytest.fixture
def held_port() -> Iterator[int]:
    """A port on 127.0.0.1 that this test holds (listening), so nobody else can serve on it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def sim_resolved(lang: str, port: int) -> Resolved:
    resolved = resolve("sim", None, environ={})
    config = resolved.config
    return replace(resolved, config=replace(config, page=PageConfig(True, port, "127.0.0.1"),
                                            appliance=replace(config.appliance, language=lang)))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_taken_port_is_on_the_oled_and_in_the_log_in_the_boxs_language(tmp_path, held_port, lang, caplog):
    resolved = sim_resolved(lang, held_port)
    sim = Simulator(resolved, tmp_path)
    told: list[str] = []
    try:
        with caplog.at_level(logging.ERROR, logger="wordtable.page"):
            assert serve_page(sim.appliance, resolved, tmp_path, failed=told.append) is None
        sim.take_inputs(lambda event: isinstance(event, Notice))
        shown = sim.screen_text()
    finally:
        sim.close()
    assert told == [TAKEN[lang].format(port=held_port, how=HOW["run"][lang])]  # `wordtable run` has no --port
    assert told[0] in shown
    assert told[0] in caplog.text
    assert "Errno" not in shown and "Errno" not in caplog.text


@pytest.mark.parametrize(("code", "says"), [
    (errno.EACCES, {"de": "Port 80 ist nur für root", "en": "Port 80 is for root only"}),
    (errno.EADDRNOTAVAIL, {"de": "Die Adresse 10.9.8.7 hat dieser Rechner nicht",
                           "en": "This machine has no address 10.9.8.7"}),
    (errno.ENOBUFS, {"de": "Handy-Seite nicht gestartet: No buffer space available",
                     "en": "Table page not started: No buffer space available"}),
])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_failure_says_what_it_is_without_its_number(code, says, lang):
    text = page_failure(OSError(code, "No buffer space available"), "10.9.8.7", 80, lang)
    assert text.startswith(says[lang]) and "Errno" not in text and str(code) not in text.split("–")[0]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_live_simulator_says_a_taken_port_in_the_terminal_and_on_its_oled(tmp_path, held_port, lang):
    wanted = TAKEN[lang].format(port=held_port, how=HOW["sim"][lang])
    sim = LiveSim(tmp_path / "state", "--page", "--port", str(held_port), "--lang", lang, size=(160, 30))
    try:
        assert sim.wait_for(wanted), sim.text()  # the line under the OLED's frame
        sim.write("q")
        assert sim.wait_exit() == 0
        assert f"wordtable sim: {wanted}" in sim.text()  # and once more after the run, on the plain terminal
        assert "Errno" not in sim.text()
    finally:
        sim.kill()


def test_the_simulators_page_is_this_machines_on_the_port_asked_for(tmp_path):
    resolved = resolve("sim", None, environ={})
    assert resolved.config.page.bind == "0.0.0.0"  # the service's default: every phone of the network
    page = sim_page(resolved, port=8123).config.page
    assert (page.bind, page.port) == (SIM_BIND, 8123)
    assert sim_page(resolved).config.page.port == 8080
    config = tmp_path / "config.toml"
    config.write_text('[appliance]\nlanguage = "en"\n', encoding="utf-8")
    assert sim_page(resolve("sim", config, environ={})).config.page.bind == SIM_BIND
    config.write_text('[page]\nbind = "0.0.0.0"\nport = 9000\n', encoding="utf-8")
    page = sim_page(resolve("sim", config, environ={})).config.page
    assert (page.bind, page.port) == ("0.0.0.0", 9000)  # asked for in the file: phones of the network too


def test_check_config_shows_the_bind_address_each_board_really_uses(capsys):
    assert main(["check-config", "--profile", "sim"]) == 0
    assert f'\n[page]\n# enabled = (not set)\nport = 8080\nbind = "{SIM_BIND}"\n' in capsys.readouterr().out
    assert main(["check-config", "--profile", "default", "--config", "/dev/null"]) == 0
    assert '\nbind = "0.0.0.0"\n' in capsys.readouterr().out


def test_port_needs_page_and_a_port_number(capsys):
    assert main(["sim", "--port", "8081", "--demo"]) == 2
    assert "--port needs --page" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sim", "--page", "--port", "http"])
    assert "not a port" in capsys.readouterr().err
