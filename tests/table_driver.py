"""Driving the whole app through a table game by events (pure `app.step`), keeping the game's record."""

from __future__ import annotations

import json

from firmware_host.core import app
from firmware_host.core.effects import Beep, BeginGame, EndGame, Record, Retract, Show
from firmware_host.core.events import Button, LongPress, Press, TextEntry, Turn
from firmware_host.core.record import dump_line, header_line
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings


class Table:
    """One appliance: `press`, `hold`, `type`, `turn` step it; `lines` is the record (minus retractions)."""

    def __init__(self, **settings):
        self.state, _ = app.initial(Settings(**settings))
        self.now = 0.0
        self.lines: list[dict] = []
        self.effects: list = []
        self.begun: list[BeginGame] = []
        self.ended: list[EndGame] = []

    def step(self, event):
        self.state, effects = app.step(self.state, event)
        self.effects = effects
        for effect in effects:
            if isinstance(effect, Record):
                self.lines.append(effect.line)
            elif isinstance(effect, Retract):
                self.lines.pop()
            elif isinstance(effect, BeginGame):
                self.begun.append(effect)
            elif isinstance(effect, EndGame):
                self.ended.append(effect)
        return self

    def _at(self):
        self.now += 1.0
        return self.now

    def press(self, name, times=1):
        for _ in range(times):
            self.step(Press(Button(name), self._at()))
        return self

    def hold(self, name):
        return self.step(LongPress(Button(name), self._at()))

    def type(self, *texts):
        for text in texts:
            self.step(TextEntry(text, self._at()))
        return self

    def turn(self, steps):
        return self.step(Turn(steps, self._at()))

    @property
    def screen(self):
        return [e.screen for e in self.effects if isinstance(e, Show)][-1]

    @property
    def text(self):
        return describe(self.screen)

    @property
    def beeps(self):
        return [e.pattern for e in self.effects if isinstance(e, Beep)]

    def record_text(self, game):
        return "\n".join(dump_line(line) for line in [header_line(game), *self.lines]) + "\n"

    def open_game(self, index):
        """From the timer: MENU, move to the game's entry (a menu key: "game:quiddler") through its group, START."""
        for event in app.events_to_open(self.state, index, self.now) or []:
            self.step(event)
        return self


def record_json(table, game):
    return [json.loads(line) for line in table.record_text(game).splitlines()]
