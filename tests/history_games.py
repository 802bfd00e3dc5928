"""The documented game scripts (docs/scripts/*.script) played on the pure app (`app.step`) to their end,
each kept as the statistics see it (`core.history.PlayedGame`): the record the flow wrote, scored by the
registry as `wordtable stats` scores the journal's."""

from __future__ import annotations

from functools import cache

from firmware_host.core import app
from firmware_host.core.effects import BeginGame, Record, Retract
from firmware_host.core.events import Button, Event, Press
from firmware_host.core.games import registry
from firmware_host.core.history import PlayedGame, played_game
from firmware_host.core.record import dump_line, header_line
from firmware_host.script import run_script
from tests.game_scripts import PureApp, actions

SCRIPTS = {  # game id -> the script that plays a whole game of it
    "perfektes-wort": "perfektes-wort.script",
    "quiddler": "quiddler.script",
    "perfect-words": "perfect-words.script",
    "knack-das-wort": "knack-das-wort.script",
    "zugzeit": "turn-timer.script",
}


class Recording(PureApp):
    """The pure app that keeps the record of the game being played (less what was taken back)."""

    def __init__(self) -> None:
        super().__init__()
        self.game = ""
        self.lines: list[dict[str, object]] = []

    def send(self, event: Event) -> None:
        self.state, effects = app.step(self.state, event)
        for effect in effects:
            if isinstance(effect, BeginGame):
                self.game, self.lines = effect.game, []
            elif isinstance(effect, Record):
                self.lines.append(effect.line)
            elif isinstance(effect, Retract):
                self.lines.pop()

    def record(self) -> str:
        return "\n".join(dump_line(line) for line in [header_line(self.game), *self.lines]) + "\n"


@cache
def script_record(game: str) -> str:
    """The record of the whole game `game` its script plays (START leaves the winner's screen)."""
    table = Recording()
    run_script(actions(SCRIPTS[game]), table.hooks(), lambda line: None)
    table.send(Press(Button.START, table.now + 1))
    assert table.state.flow is None, f"{game}: the script does not end on the winner's screen"
    return table.record()


def script_game(game: str, game_id: int, started: str, finished: str) -> PlayedGame:
    """The scripted game of `game` as the journal's game `game_id` (the statistics' view of it)."""
    report = registry.score(registry.parse_record(script_record(game)))
    played = played_game(game_id, game, started, finished, report)
    assert played is not None, f"{game}: the scripted game is not finished"
    return played
