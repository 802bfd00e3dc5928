"""Every screen the documented scripts (docs/scripts/*.script) reach, played on the pure app action by action."""

from __future__ import annotations

from firmware_host.core import app
from firmware_host.core.screens import Screen
from firmware_host.script import run_script
from tests.game_scripts import SCRIPTS, PureApp, actions

ALL_SCRIPTS = sorted(path.name for path in SCRIPTS.glob("*.script"))


def every_screen(script: str) -> list[tuple[int, Screen]]:
    """(script line, screen) after each action of `script`, each distinct screen once."""
    table = PureApp()
    seen: list[tuple[int, Screen]] = [(0, app.screen(table.state))]
    for step in actions(script):
        run_script([step], table.hooks(), lambda line: None)
        screen = app.screen(table.state)
        if all(screen != other for _, other in seen):
            seen.append((step.line, screen))
    return seen
