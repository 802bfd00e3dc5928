"""End to end: the real shell, real drivers on mock pins, luma's dummy display, on a virtual clock."""

from pathlib import Path

import pytest

from firmware_host.core.events import Button, LongPress, Press, TextEntry
from firmware_host.script import ExpectationFailed, parse_script, run_script
from tests.cli import wordtable

pytestmark = pytest.mark.slow  # the whole shell on mock hardware, and the program in a subprocess

ROOT = Path(__file__).resolve().parent.parent


def lit(sim):
    return [round(v, 3) for v in sim.bar_states()]


@pytest.mark.parametrize("name", ["timer", "scoreboard"])
def test_documented_scripts_hold(name, sim):
    script = (ROOT / "docs" / "scripts" / f"{name}.script").read_text()
    run_script(parse_script(script), sim.hooks(), lambda line: None)


def test_led_bar_drains_on_the_mock_pins(sim):
    sim.send(TextEntry("0:10", sim.clock.now))
    assert lit(sim) == [1.0] * 10  # all lit at the start
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 5.0)
    assert lit(sim) == [1.0] * 5 + [0.0] * 5  # half-way
    sim.wait_until(sim.clock.now + 1.25)  # 3.75 s left: 3 lit, the 4th dimmed to 3/4 by PWM
    assert lit(sim) == [1.0] * 3 + [0.75] + [0.0] * 6
    sim.send(Press(Button.START, sim.clock.now))  # pause: the bar holds
    sim.wait_until(sim.clock.now + 30)
    assert lit(sim) == [1.0] * 3 + [0.75] + [0.0] * 6
    sim.send(LongPress(Button.START, sim.clock.now))  # flip: 6.25 s left
    assert lit(sim) == [1.0] * 6 + [0.25] + [0.0] * 3
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 7)
    assert lit(sim) == [0.0] * 10  # none at 0
    assert "Zeit!" in sim.screen_text()


def test_warnings_and_alarm_reach_the_buzzer(sim):
    sim.send(TextEntry("15", sim.clock.now))
    sim.send(Press(Button.START, sim.clock.now))
    start = sim.clock.now
    sim.wait_until(start + 16)
    warns = [round(at - start, 6) for at, pattern in sim.sounds if pattern == "warn"]
    alarms = [round(at - start, 6) for at, pattern in sim.sounds if pattern == "alarm"]
    assert warns == [float(s) for s in range(5, 15)]
    assert alarms == [15.0]


def test_a_restart_brings_the_running_timer_back_paused(sim):
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 20)
    sim.restart()
    assert "0:40" in sim.screen_text() and "pausiert" in sim.screen_text()
    assert lit(sim)[:6] == [1.0] * 6 and lit(sim)[6] > 0
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 41)
    assert "Zeit!" in sim.screen_text()


def test_the_scoreboard_survives_a_restart_and_undo_still_works(sim):
    for event in (Press(Button.MENU, 0), Press(Button.START, 0), Press(Button.NEXT, 0), Press(Button.START, 0),
                  TextEntry("+12", 0), Press(Button.NEXT, 0), TextEntry("5", 0)):
        sim.send(event)
    sim.restart()
    assert sim.state.board.totals[:2] == (12, 5)
    assert "Punktetafel" in sim.screen_text()
    sim.send(Press(Button.BACK, sim.clock.now))
    assert sim.state.board.totals[:2] == (12, 0)


def test_a_failing_expectation_names_its_line(sim):
    with pytest.raises(ExpectationFailed, match="line 2"):
        run_script(parse_script("press start\nexpect Zeit!\n"), sim.hooks(), lambda s: None)


def test_sim_without_a_terminal_plays_the_demo_to_zeit():
    result = wordtable("sim")
    assert result.returncode == 0, result.stderr
    assert "| Zeit! (inverted) |" in result.stdout
    assert "expect Zeit!" in result.stdout


def test_sim_script_exit_codes(tmp_path):
    bad = tmp_path / "bad.script"
    bad.write_text("press start\njump\n")
    result = wordtable("sim", "--script", str(bad))
    assert result.returncode == 2 and "line 2" in result.stderr
    failing = tmp_path / "failing.script"
    failing.write_text("expect Nirgends\n")
    result = wordtable("sim", "--script", str(failing))
    assert result.returncode == 1 and "Nirgends" in result.stderr


def test_a_typed_line_with_an_at_sign_is_a_card_scan_in_the_live_simulator(sim_config):
    from firmware_host.core.events import CardScan
    from firmware_host.sim_terminal import typed_event

    resolved = sim_config
    assert typed_event("@0A1B2C3D4E", resolved, 1.0) == CardScan("rfid", "0A1B2C3D4E", 1.0)
    assert typed_event("@rfid QU", resolved, 1.0) == CardScan("rfid", "QU", 1.0)
    assert typed_event("Hund", resolved, 1.0) == TextEntry("Hund", 1.0)


def test_power_off_from_the_table_reaches_the_shell_only_when_confirmed(sim):
    sim.send(LongPress(Button.MENU, sim.clock.now))
    assert "Ausschalten?" in sim.screen_text() and not sim.powered_off
    sim.send(Press(Button.BACK, sim.clock.now))
    assert not sim.powered_off and "1:00" in sim.screen_text()
    sim.send(LongPress(Button.MENU, sim.clock.now))
    sim.send(Press(Button.START, sim.clock.now))
    assert sim.powered_off
