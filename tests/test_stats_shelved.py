"""The statistics of a game left for another mid-game (shelved), the box restarted, and the game resumed and
played to its end: the same as the game played straight through — one game, its winner, its totals — and a
backup of that box restored onto a fresh state directory reads the same, statistics included."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_host.script import parse_script, run_script
from firmware_host.simulator import Simulator
from tests.test_backup import run_cli, views

pytestmark = pytest.mark.slow  # two whole Quiddler games on the simulator

ROOT = Path(__file__).resolve().parent.parent
QUIDDLER = (ROOT / "docs" / "scripts" / "quiddler.script").read_text(encoding="utf-8") + "press start\n"  # the end
CUT = QUIDDLER.index("# round 2")  # round 1 scored
SHELVE = "choose Das perfekte Wort\npress start\npress back\n"  # asked: START leaves Quiddler; BACK: no new game
RESUME = "choose Fortsetzen\npress start\n"


def play(sim: Simulator, script: str) -> None:
    run_script(parse_script(script), sim.hooks(), lambda line: None)


def stats(state: Path, *args: str) -> dict:
    code, out, err = run_cli("stats", "--json", *args, "--state-dir", str(state))
    assert code == 0, err
    return json.loads(out)


UNDATED = ("id", "last_played", "started", "finished")


def undated(data: object) -> object:
    """`data` without its wall-clock times and journal ids (two boxes play at different moments; the resumed
    game is a later part of the journal)."""
    if isinstance(data, dict):
        return {key: undated(value) for key, value in data.items() if key not in UNDATED}
    if isinstance(data, list):
        return [undated(value) for value in data]
    return data


def test_a_shelved_and_resumed_game_counts_once_as_played_straight(
        make_sim: Callable[..., Simulator], tmp_path: Path) -> None:
    straight = make_sim(tmp_path / "straight")
    play(straight, QUIDDLER)
    straight.close()
    box = tmp_path / "box"
    sim = make_sim(box)
    play(sim, QUIDDLER[:CUT] + SHELVE)
    assert [game.flow.game for game in sim.state.shelf] == ["quiddler"]
    sim.restart()
    play(sim, RESUME + QUIDDLER[CUT:])
    assert sim.state.shelf == () and sim.state.flow is None
    sim.close()

    everyone = stats(box)
    assert everyone["games"] == 1 and [(p["name"], p["played"]) for p in everyone["people"]] == [("Ann", 1), ("Bob", 1)]
    assert undated(everyone) == undated(stats(tmp_path / "straight"))
    for name in ("Ann", "Bob"):
        assert undated(stats(box, "--person", name)) == undated(stats(tmp_path / "straight", "--person", name))

    target = tmp_path / "box.wtbackup"
    assert run_cli("backup", str(target), "--state-dir", str(box))[0] == 0
    fresh = tmp_path / "fresh"
    code, _, err = run_cli("restore", str(target), "--state-dir", str(fresh))
    assert code == 0, err
    assert views(fresh) == views(box)
