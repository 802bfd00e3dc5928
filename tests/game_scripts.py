"""The documented game scripts (docs/scripts/*.script), played on the pure app, and their named snapshots.

A comment line `# snapshot: NAME` in a script marks a point of the game: the screen shown once every action
above it is done. `tests/test_game_screens.py` compares that screen with the reference PNGs
`tests/reference/game_<script>_<name as a slug>_<W>x<H>.png`; `python -m tests.update_references` writes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from firmware_host.core import app
from firmware_host.core.events import Event, Tick
from firmware_host.core.screens import Screen, describe
from firmware_host.core.settings import Settings
from firmware_host.script import Action, ScriptHooks, parse_script, run_script

SCRIPTS = Path(__file__).resolve().parent.parent / "docs" / "scripts"
GAME_SCRIPTS = ["perfektes-wort.script", "quiddler.script", "perfect-words.script", "knack-das-wort.script",
                "turn-timer.script"]
SNAPSHOT = re.compile(r"#\s*snapshot:\s*(?P<name>\S.*?)\s*$")


def actions(name: str) -> list[Action]:
    return parse_script((SCRIPTS / name).read_text(encoding="utf-8"))


class PureApp:
    """ScriptHooks over `app.step` (no shell, no hardware): time moves only by `wait`."""

    def __init__(self) -> None:
        self.state, _ = app.initial(Settings())
        self.now = 0.0

    def send(self, event: Event) -> None:
        self.state, _ = app.step(self.state, event)

    def wait(self, until: float) -> None:
        self.now = until
        self.send(Tick(until))  # the wake-up at the end of the wait (e.g. the sand timer's alarm)

    def hooks(self) -> ScriptHooks:
        return ScriptHooks(now=lambda: self.now, send=self.send, wait=self.wait,
                           screen_text=lambda: describe(app.screen(self.state)), state=lambda: self.state,
                           frame_text=lambda: describe(app.screen(self.state)), restart=lambda: None)


@dataclass(frozen=True)
class Snapshot:
    name: str  # as written in the script: "after round 3"
    line: int  # the marker's line: the snapshot follows every action above it

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")


def snapshots(name: str) -> list[Snapshot]:
    """The `# snapshot: NAME` markers of a script, in order (each name once)."""
    text = (SCRIPTS / name).read_text(encoding="utf-8")
    found = [Snapshot(m["name"], number) for number, raw in enumerate(text.splitlines(), start=1)
             if (m := SNAPSHOT.fullmatch(raw.strip()))]
    slugs = [s.slug for s in found]
    assert len(set(slugs)) == len(slugs), f"{name}: a snapshot name is used twice: {slugs}"
    return found


def reference_name(script: str, snapshot: Snapshot) -> str:
    """The stem of the snapshot's reference PNGs (without the panel size)."""
    return f"game_{script.removesuffix('.script')}_{snapshot.slug}"


def play_to_snapshots(script: str) -> Iterator[tuple[Snapshot, Screen]]:
    """Play `script` on the pure app, yielding the screen at each of its snapshot markers."""
    steps = actions(script)
    table = PureApp()
    done = 0
    for snapshot in snapshots(script):
        upto = sum(1 for step in steps if step.line < snapshot.line)
        run_script(steps[done:upto], table.hooks(), lambda line: None)
        done = upto
        yield snapshot, app.screen(table.state)
