"""docs/scripts/deck.script (the issue's acceptance): enrol three cards, scan them onto the draw and
discard piles, unplug and replug the reader — through the pure core, and through the simulator."""

from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.cards import table_from_data
from firmware_host.core.effects import Keep, WakeAt
from firmware_host.core.events import Tick, kept_event
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings
from firmware_host.script import ExpectationFailed, ScriptHooks, parse_script, run_script

SCRIPT = Path(__file__).resolve().parent.parent / "docs" / "scripts" / "deck.script"


class Core:
    """The core alone on a virtual clock; a Keep comes back as a Kept event, as the shell does."""

    def __init__(self):
        self.state, _ = app.initial(Settings())
        self.now = 0.0
        self.saved = []

    def send(self, event):
        self.state, effects = app.step(self.state, event)
        for effect in effects:
            if isinstance(effect, Keep):
                self.saved.append(table_from_data(effect.data))
                self.state, _ = app.step(self.state, kept_event({effect.name: effect.data}, self.now))

    def wait(self, until):
        while (wake := app.view(self.state)[-1]) and isinstance(wake, WakeAt) and wake.at is not None \
                and wake.at <= until:
            self.now = wake.at
            self.send(Tick(wake.at))
        self.now = until

    def hooks(self):
        def now():
            self.now += 0.25
            return self.now

        text = lambda: describe(app.screen(self.state))  # noqa: E731
        return ScriptHooks(now=now, send=self.send, wait=self.wait, screen_text=text, frame_text=text,
                           state=lambda: self.state,
                           restart=lambda: None)


def test_the_deck_script_holds_on_the_core():
    core = Core()
    lines = []
    run_script(parse_script(SCRIPT.read_text(encoding="utf-8")), core.hooks(), lines.append)
    assert [s.faces for s in core.saved] == [{"0A00000001": "K/5", "0A00000002": "M/7", "0A00000003": "S/6"}]


def test_a_wrong_expectation_in_the_script_fails():
    text = SCRIPT.read_text(encoding="utf-8").replace("expect K · 6\nexpect Runde 2", "expect K · 9")
    with pytest.raises(ExpectationFailed):
        run_script(parse_script(text), Core().hooks(), lambda line: None)


@pytest.mark.slow
def test_the_deck_script_holds_in_the_simulator(sim, tmp_path):
    run_script(parse_script(SCRIPT.read_text(encoding="utf-8")), sim.hooks(), lambda line: None)
    sim.close()
    saved = (tmp_path / "kept" / "cards" / "perfektes-wort.json").read_text(encoding="utf-8")
    assert '"0A00000002": "M/7"' in saved
