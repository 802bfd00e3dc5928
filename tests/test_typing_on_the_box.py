"""Typing on the box, through the real shell on mock pins: the documented Das perfekte Wort and Quiddler
games with every typed line entered (a) on a keyboard — a FIFO standing in for /dev/input/eventN, read
by the keyboard driver's thread — and (b) with the letter picker on the mock buttons and encoder; the
record exported from the journal scores as the typed game's does. And a keyboard-mode scanner configured
as a reader: its lines are scans, never text, through enrolment and the Deck mode."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from firmware_host.commands.score import score
from firmware_host.config import resolve
from firmware_host.core.events import Button, CardScan, Event, LongPress, Press, ReaderStatus, TextEntry, Turn
from firmware_host.core.games.registry import parse_record
from firmware_host.script import run_script
from firmware_host.simulator import Simulator
from tests.game_scripts import actions
from tests.hwhelpers import edited
from tests.keystreams import Plug, typing_stream
from tests.picking import pick_events

pytestmark = pytest.mark.slow  # whole games through the driver threads

SIM_TOML = (Path(__file__).parent.parent / "hw" / "profiles" / "sim.toml").read_text(encoding="utf-8")
HOLD_S = 0.1


def profile(tmp_path: Path, keyboard: Path, scanner: Path | None = None) -> Path:
    """The sim profile with snappy buttons (no bounce, a 100-ms hold), a keyboard at `keyboard` and, if
    given, a keyboard-mode scanner at `scanner` in place of the RFID reader (reader "rfid" still)."""
    text = edited("bounce_ms = 30", "bounce_ms = 0", SIM_TOML)
    text = edited("hold_ms = 800", f"hold_ms = {int(HOLD_S * 1000)}", text)
    text = edited("devices = []", f'devices = ["{keyboard}"]', text)
    if scanner is not None:
        text = edited('kind = "rdm6300"\nport = "loop://"', f'kind = "hid"\nport = "{scanner}"', text)
    path = tmp_path / "profile.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _wait(condition, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


class Panel:
    """The buttons and the encoder on the simulator's mock pins."""

    def __init__(self, sim: Simulator) -> None:
        profile = sim.resolved.profile
        self.pin = sim.appliance.hardware.pin_factory.pin
        buttons = profile.buttons
        self.buttons = {Button.START: buttons.start, Button.NEXT: buttons.next, Button.BACK: buttons.back,
                        Button.MENU: buttons.menu, Button.ENCODER: profile.encoder.push}
        self.a, self.b = profile.encoder.a, profile.encoder.b

    def press(self, button: Button, hold: bool = False) -> None:
        pin = self.pin(self.buttons[button])
        pin.drive_low()
        if hold:
            time.sleep(HOLD_S + 0.1)
        pin.drive_high()

    def turn(self, steps: int) -> None:
        first, second = (self.pin(self.a), self.pin(self.b)) if steps > 0 else (self.pin(self.b), self.pin(self.a))
        for _ in range(abs(steps)):
            first.drive_low(), second.drive_low(), first.drive_high(), second.drive_high()

    def do(self, event: Event) -> None:
        if isinstance(event, Turn):
            self.turn(event.steps)
        else:
            assert isinstance(event, Press | LongPress)
            self.press(event.button, hold=isinstance(event, LongPress))


def play(sim: Simulator, script: str, how: str, keyboard: Plug | None = None) -> list[Event]:
    """Play a documented script; its typed lines entered `how`: "typed" (the script's own TextEntry),
    "keyboard" (records into the keyboard's FIFO) or "picker" (the mock buttons). Returns every input."""
    hooks = sim.hooks()
    inputs: list[Event] = []

    def send(event: Event) -> None:
        if not isinstance(event, TextEntry) or how == "typed":
            sim.send(event)
            inputs.append(event)
        elif how == "keyboard":
            assert keyboard is not None
            keyboard.send(typing_stream(event.text))
            inputs.extend(sim.take_inputs(lambda e: isinstance(e, TextEntry)))
        else:
            panel = Panel(sim)
            if sim.state.ringing is not None:  # the alarm rings on: as at the table, a first press silences it
                panel.press(Button.NEXT)
                inputs.extend(sim.take_inputs(lambda e: isinstance(e, Press)))
                assert sim.state.ringing is None
            for planned in pick_events(sim.state, event.text, sim.clock.now):
                panel.do(planned)
            inputs.extend(sim.take_inputs(lambda e: isinstance(e, LongPress) and e.button is Button.START))

    hooks.send = send
    run_script(actions(script), hooks, lambda line: None)
    return inputs


def scored(sim: Simulator) -> str:
    """The latest game's record as the journal exports it, scored (JSON, upper case: the picker spells
    words in capitals)."""
    journal = sim.appliance.journal
    assert journal is not None
    game = next(g for g in reversed(journal.games()) if g.game != "appliance")
    return json.dumps(score(parse_record(journal.export_record(game.id))).to_json(), ensure_ascii=False).upper()


@pytest.mark.parametrize("script", ["perfektes-wort.script", "quiddler.script"])
def test_a_whole_game_typed_on_a_keyboard_and_picked_on_the_buttons_scores_as_typed(tmp_path, script):
    reference = Simulator(resolve("sim", None, environ={}), tmp_path / "typed")
    try:
        play(reference, script, "typed")
        expected = scored(reference)
    finally:
        reference.close()
    for how in ("keyboard", "picker"):
        keyboard = Plug(tmp_path / f"kbd-{how}").plug()
        sim = Simulator(resolve(profile(tmp_path, keyboard.path), None, environ={}), tmp_path / how)
        try:
            _wait(lambda sim=sim: sim.appliance.hardware.keyboards.open_paths != [])
            inputs = play(sim, script, how, keyboard)
            assert scored(sim) == expected, how
            lines = [e for e in inputs if isinstance(e, TextEntry)]
            if how == "picker":
                assert not lines  # every line was picked: no TextEntry came in from outside
                assert any(isinstance(e, Turn) for e in inputs) and any(isinstance(e, LongPress) for e in inputs)
            else:
                assert lines == [TextEntry(a.arg, lines[i].at) for i, a in
                                 enumerate(a for a in actions(script) if a.verb == "type")]
        finally:
            sim.close()


def test_a_keyboard_mode_scanner_as_reader_gives_scans_never_text_in_enrolment_and_the_deck(tmp_path):
    keyboard, scanner = Plug(tmp_path / "kbd0").plug(), Plug(tmp_path / "scan0").plug()
    sim = Simulator(resolve(profile(tmp_path, keyboard.path, scanner.path), None, environ={}), tmp_path / "state")
    try:
        watcher = sim.appliance.hardware.keyboards
        _wait(lambda: len(watcher.open_paths) == 2)
        hooks = sim.hooks()
        inputs: list[Event] = []

        def send(event: Event) -> None:
            if isinstance(event, CardScan):
                scanner.send(typing_stream(event.code, "us"))
                inputs.extend(sim.take_inputs(lambda e: isinstance(e, CardScan)))
            elif isinstance(event, ReaderStatus):
                if event.present:
                    scanner.plug()
                else:
                    scanner.unplug()
                inputs.extend(sim.take_inputs(lambda e: isinstance(e, ReaderStatus)))
            elif isinstance(event, TextEntry):
                keyboard.send(typing_stream(event.text))
                inputs.extend(sim.take_inputs(lambda e: isinstance(e, TextEntry)))
            else:
                sim.send(event)

        def restart() -> None:
            sim.restart()
            _wait(lambda: len(sim.appliance.hardware.keyboards.open_paths) == 2)

        hooks.send, hooks.restart = send, restart
        run_script(actions("deck.script"), hooks, lambda line: None)  # its expectations hold
        scans = [e for e in inputs if isinstance(e, CardScan)]
        assert [e.code for e in scans][:2] == ["0A00000001", "0A00000001"] and {e.reader for e in scans} == {"rfid"}
        assert [e.text for e in inputs if isinstance(e, TextEntry)] == ["K/5", "M/7", "S/6"]  # the keyboard's only
        # A scan while a name is wanted stays a scan: refused as a card, the name untouched.
        run_script(actions("perfektes-wort.script")[:1], hooks, lambda line: None)
        before = sim.state.flow.seats.players
        send(CardScan("rfid", "0A00000001", sim.clock.now))
        assert sim.state.flow.seats.players == before
    finally:
        sim.close()
