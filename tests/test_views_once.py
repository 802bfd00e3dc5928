"""Views once per step: what is remembered and worked out from the last value gives what working it all out
afresh gives — a game's score whatever was scored before it, each report's totals, the league's running
totals, the known JSON parts of the page's views (core/memo.py, core/view_json.py, games/*/scoring.py)."""

from __future__ import annotations

import gc
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.events import Event
from firmware_host.core.games import registry
from firmware_host.core.games.perfektes_wort.record import RULES as PW_RULES
from firmware_host.core.games.perfektes_wort.report import report as pw_report
from firmware_host.core.games.perfektes_wort.rules import Game, Setup, pending
from firmware_host.core.league_view import running_totals
from firmware_host.core.memo import Same, remembers, remembers_last
from firmware_host.core.page_view import page_views
from firmware_host.core.record import GameRecord, RecordError, RecordLine
from firmware_host.core.table.played import Played
from firmware_host.core.view_json import dumps, known_dict, known_list
from firmware_host.script import run_script
from tests.game_scripts import GAME_SCRIPTS, PureApp, actions

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "docs" / "examples").glob("*.jsonl")) + sorted((ROOT / "tests" / "golden").glob("*.jsonl"))


def _recorded(path: Path) -> GameRecord:
    return registry.parse_record(path.read_text(encoding="utf-8"))


def _records(paths: list[Path]) -> list[Path]:
    """The files among `paths` that hold one game's record."""
    found = []
    for path in paths:
        try:
            _recorded(path)
        except RecordError:
            continue
        found.append(path)
    return found


def _prefixes(record: GameRecord) -> list[GameRecord]:
    """The record cut after its setup, after the next line, … up to the whole."""
    return [GameRecord(record.game, record.lines[:n]) for n in range(1, len(record.lines) + 1)]


def _scored(record: GameRecord) -> tuple[str, object]:
    """What `wordtable score` says of the record: its report as text and JSON, or the error."""
    try:
        report = registry.score(record)
    except RecordError as exc:
        return "error", str(exc)
    return report.text("de"), report.to_json()


GAME_RECORDS = _records(RECORDS)
PW_RECORDS = [path for path in GAME_RECORDS if _recorded(path).game == "perfektes-wort"]


@pytest.mark.parametrize("path", GAME_RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_reports_totals_are_the_last_total_of_each_players_rows_at_every_line(path: Path) -> None:
    for prefix in _prefixes(_recorded(path)):
        try:
            report = registry.score(prefix)
        except RecordError:
            continue
        expected: dict[str, int] = {}
        for row in report.rows():
            expected[row.player] = row.total
        assert list(report.totals().items()) == list(expected.items()), prefix.lines[-1].line


def _built(record: GameRecord, setup: Setup | None = None) -> list[Game]:
    """Every game value of the record's game as a table's steps make them: each from the one before (the
    very same entries), from `setup` (the record's own, by default)."""
    first, *rest = record.lines
    game = PW_RULES.start(setup or PW_RULES.codec.decode(first))
    built = [game]
    for line in rest:
        game = PW_RULES.apply(game, PW_RULES.codec.decode(line), line.line)
        built.append(game)
    return built


def _report(game: Game) -> tuple[str, object]:
    try:
        report = pw_report(game)
    except RecordError as exc:
        return "error", str(exc)
    return report.text("en"), report.to_json()


@pytest.mark.parametrize("path", PW_RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_game_scores_the_same_whatever_was_scored_before_it(path: Path) -> None:
    record = _recorded(path)
    games = _built(record)
    afresh = [_report(replace(game, setup=replace(game.setup))) for game in games]  # a setup of its own each:
    # nothing scored before is of its game
    assert afresh == [_report(PW_RULES.replay(prefix)) for prefix in _prefixes(record)]
    forward = [_report(game) for game in games]  # each from the one before it
    backward = [_report(game) for game in reversed(games)][::-1]  # each from the one after it
    order = list(range(len(games)))
    random.Random(34).shuffle(order)
    shuffled = dict(zip(order, (_report(games[i]) for i in order), strict=True))
    again = [_report(game) for game in _built(record, games[0].setup)]  # equal entries, not the same ones
    assert forward == afresh == backward == [shuffled[i] for i in range(len(games))] == again
    assert [text == "error" for text, _ in afresh] == [bool(pending(game)) for game in games]
    assert sum(1 for text, _ in afresh if text != "error") > len(games) // 2


class _Checked(PureApp):
    """A table whose league totals are checked after every step against its record so far, written out
    and scored by `wordtable score`'s code path (what the league published before it read the live game)."""

    checked = 0

    def send(self, event: Event) -> None:
        super().send(event)
        played = getattr(self.state.flow, "played", None)
        if not isinstance(played, Played):
            assert running_totals(self.state) is None
            return
        codec = played.rules.codec
        lines = (codec.encode(played.setup), *(codec.encode(e) for e in played.events))
        record = GameRecord(played.rules.game, tuple(RecordLine(n, line["event"], line)
                                                     for n, line in enumerate(lines, start=2)))
        try:
            rows = registry.score(record).rows()
        except RecordError:
            assert running_totals(self.state) is None
            return
        expected: dict[str, int] = {}
        for row in rows:
            expected[row.player] = row.total
        assert running_totals(self.state) == expected
        self.checked += 1


class _Controlled(PureApp):
    """A table whose page views' controls are checked after every step against `app.page_controls`."""

    checked = 0

    def send(self, event: Event) -> None:
        super().send(event)
        views = page_views(self.state)
        expected = json.loads(json.dumps(app.page_controls(self.state)))
        for text in (views.guest, *views.seats):
            assert json.loads(text)["controls"] == expected
        self.checked += 1


@pytest.mark.parametrize("script", [*GAME_SCRIPTS, "timer.script", "scoreboard.script"])
def test_the_views_controls_are_the_tables_at_every_step(script: str) -> None:
    table = _Controlled()
    run_script(actions(script), table.hooks(), lambda line: None)
    assert table.checked > 10


@pytest.mark.parametrize("script", GAME_SCRIPTS)
def test_the_league_totals_are_the_record_so_far_scored_at_every_step(script: str) -> None:
    table = _Checked()
    run_script(actions(script), table.hooks(), lambda line: None)
    assert table.checked > 10


# -- the memo -------------------------------------------------------------------------------------------


def test_a_memo_answers_for_the_very_same_value_and_forgets_the_least_recently_asked() -> None:
    worked: list[tuple[int, ...]] = []

    @remembers(2)
    def total(values: tuple[int, ...], scale: int = 1) -> list[int]:
        worked.append(values)
        return [sum(values) * scale]

    a, b, c = (1, 2), (3, 4), (5, 6)
    assert total(a) is total(a) and worked == [a]
    assert total(tuple([1, 2])) == [3] and len(worked) == 2  # an equal value, not the same: worked out
    assert total(a, 2) == [6] and len(worked) == 3  # further arguments by equality
    total(a)  # now the most recently asked
    total(b)
    total(c)  # three values asked since: the memo keeps two, b and c
    worked.clear()
    total(b), total(c)
    assert worked == []
    total(a)
    assert worked == [a]


def test_a_memo_keeps_what_it_remembers_alive_so_no_other_value_takes_its_identity() -> None:
    @remembers_last
    def first(values: list[int]) -> int:
        return values[0]

    assert first([1]) == 1
    gc.collect()
    assert first([2]) == 2  # had the first list died, the second might have had its identity


def test_same_stands_for_values_by_identity() -> None:
    a, b = [1], [1]
    assert Same(a, b) == Same(a, b) and hash(Same(a, b)) == hash(Same(a, b))
    assert Same(a, a) != Same(a, b) and Same(a) != Same(a, b) and Same(a) != (a,)


# -- known JSON parts -------------------------------------------------------------------------------------


VALUES: list[object] = [
    "Größe Ä Ö Ü ß", "line\u2028break", "\ud800", 'quote " \\ / \n', "", 0, -7, 10**30, 1.5, -0.0, 1e100, True,
    False, None, [], {}, [1, "zwei", None, [3.0, {"b": 1, "a": [True]}]], {"ß": 1, "a": {"z": [], "m": "ü"}},
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_views_text_is_what_json_writes(value: object) -> None:
    expected = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert dumps(value) == expected
    nested = {"value": value, "list": [value, value]}
    part = known_dict({"value": known_list(value) if isinstance(value, list) else value,
                       "list": known_list([value, value])})
    assert part == nested and part.text == dumps(part) == dumps(nested)
    assert dumps({"outer": part}) == dumps({"outer": nested})  # a known part inside a plain one: written again
