"""The registry is the only list of games: a toy game added to it (and nowhere else) is in the menu,
is scored by `wordtable score`, and its records are read; every game package has the same shape, and a
game's code loads at its first use."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host import cli
from firmware_host.core import app
from firmware_host.core.games import registry
from firmware_host.core.games.registry import parse_record
from firmware_host.core.record import RecordError, dump_line, header_line
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings
from tests import toy_game

GAME_PACKAGE_MODULES = ("record", "rules", "report", "table", "text")


@pytest.fixture
def with_toy(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, toy_game.KIT))


def toy_record(*points: str) -> str:
    lines = [header_line("tally"), {"event": "setup", "players": ["Ann", "Bob"]}]
    lines += [{"event": "point", "player": p} for p in points]
    return "\n".join(dump_line(line) for line in lines) + "\n"


def test_without_the_toy_in_the_registry_nothing_knows_it():
    with pytest.raises(RecordError, match="unknown game 'tally'"):
        parse_record(toy_record("Ann"))
    state, _ = app.initial(Settings())
    assert "game:tally" not in app.menu_keys(state)


def test_the_record_reader_reads_a_registered_game(with_toy):
    record = parse_record(toy_record("Ann", "Bob", "Ann"))
    assert record.game == "tally" and [line.event for line in record.lines] == ["setup", "point", "point", "point"]


def test_score_scores_a_registered_game(with_toy, tmp_path: Path, capsys):
    path = tmp_path / "tally.jsonl"
    path.write_text(toy_record("Ann", "Bob", "Ann"), encoding="utf-8")
    assert cli.main(["score", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"game": "tally", "totals": {"Ann": 2, "Bob": 1}}
    path.write_text(toy_record("Cem"), encoding="utf-8")
    assert cli.main(["score", str(path), "--lang", "en"]) == 2
    assert "line 3: point: Cem is not playing" in capsys.readouterr().err


def test_the_menu_offers_and_plays_a_registered_game(with_toy):
    state, _ = app.initial(Settings(lang="en", player_names=("Ann", "Bob")))
    assert "game:tally" in app.menu_keys(state)
    effects = []
    for event in app.events_to_choose(state, "Tally", 0.0):
        state, out = app.step(state, event)
    assert state.flow is not None and state.flow.game == "tally"
    from firmware_host.core.events import Button, Press

    for button in (Button.START, Button.START, Button.START, Button.BACK):  # begin, Ann +1, Bob +1, undo Bob
        state, out = app.step(state, Press(button, 1.0))
        effects += out
    recorded = [type(e).__name__ for e in effects if type(e).__name__ in ("BeginGame", "Record", "Retract")]
    assert recorded == ["BeginGame", "Record", "Record", "Record", "Retract"]
    assert describe(app.screen(state)) == "Tally | Ann 1; > Bob 0"


@pytest.mark.parametrize("kit", [k for k in registry.GAMES if k.score_record is not None], ids=lambda k: k.id)
def test_every_game_is_one_package_of_the_same_shape(kit):
    package = kit.score_record.load(kit.score_record.module).__name__.rpartition(".")[0]  # its record module
    assert package.startswith("firmware_host.core.games.") and package.count(".") == 3
    for name in GAME_PACKAGE_MODULES:
        importlib.import_module(f"{package}.{name}")
    assert importlib.import_module(package).KIT is kit


def test_the_registry_names_each_game_once():
    ids = [kit.id for kit in registry.GAMES]
    assert len(ids) == len(set(ids))


LOADS_AT_START = """
import json, sys
import firmware_host.appliance, firmware_host.cli
from firmware_host.core import app
from firmware_host.core.games import registry
from firmware_host.core.settings import Settings

def loaded():
    return sorted(name for name in sys.modules if name.startswith("firmware_host.core.games.")
                  and name.count(".") == 4 and name.rsplit(".", 1)[1] in sys.argv[1:])

state, _ = app.initial(Settings())
app.screen(state)  # the main menu, every game's title on it
at_start = loaded()
next(kit for kit in registry.GAMES if kit.id == "quiddler").record_rules()
print(json.dumps([at_start, loaded()]))
"""


@pytest.mark.slow  # a subprocess
def test_a_games_code_loads_at_its_first_use_not_at_start():
    """Starting the program and showing the menu with every game loads no game's rules, flow or record;
    asking one game for its rules loads that game's code and no other's."""
    code = [name for name in GAME_PACKAGE_MODULES if name != "text"]  # a game's texts name it in the menu
    out = subprocess.run([sys.executable, "-c", LOADS_AT_START, *code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent).stdout
    at_start, after = json.loads(out)
    assert at_start == []
    assert "firmware_host.core.games.quiddler.record" in after
    assert {name.split(".")[3] for name in after} == {"quiddler"}


@pytest.mark.parametrize("kit", [k for k in registry.GAMES if k.score_record is not None], ids=lambda k: k.id)
def test_every_game_is_a_table_of_stages_on_the_one_flow_base(kit):
    """Each game's flow is a `RecordedFlow` whose transitions table has a row for every one of its stage
    types (what it does, shows and waits for), and for nothing else."""
    import typing

    from firmware_host.core.flow import Ctx
    from firmware_host.core.table.played import RecordedFlow, StageRow

    flow = kit.new_flow(Ctx("de", "normal", 0.0, False, False, 0.0, 60.0), ("Ann", "Bob"))
    assert isinstance(flow, RecordedFlow) and flow.game == kit.id
    stages = set(typing.get_args(sys.modules[type(flow).__module__].Stage))
    assert type(flow.stage) in stages and set(flow.STAGES) == stages
    assert all(isinstance(row, StageRow) for row in flow.STAGES.values())
