"""`wordtable journal export --format bgstats|plays`: each game as a play — players, scores, winners, date,
duration — in BG Stats' import format (checked against docs/bgstats-play.schema.json) and as CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import jsonschema
import pytest

from firmware_host.core.games import registry
from firmware_host.exports.bgstats import bgstats_play, create_play_link
from firmware_host.exports.plays import PLAY_COLUMNS, play_of
from firmware_host.journal import RECORD, GameSummary, Journal
from firmware_host.paths import journal_path
from tests.test_backup import GOLDEN, add_recorded_games, run_cli

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "bgstats-play.schema.json").read_text("utf-8"))
GAMES = ("perfektes-wort", "knack-das-wort", "perfect-words", "quiddler")


def validator() -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


@pytest.fixture
def state(tmp_path: Path) -> Path:
    add_recorded_games(tmp_path, GAMES)
    with Journal.open(journal_path(tmp_path)) as journal:  # a game still running, and the box's session
        journal.start_game("appliance", ["Anna"], wall_time="2026-05-05T18:00:00Z")
        game = journal.start_game("quiddler", ["Ann", "Bob"], wall_time="2026-05-05T19:00:00Z")
        for line in _golden("quiddler")[:4]:
            journal.append(game, RECORD, line, "2026-05-05T19:42:10Z")
    return tmp_path


def _golden(game: str) -> list[dict[str, object]]:
    text = (GOLDEN / f"{game}.record.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines()[1:] if line.startswith("{")]


def _scored(record: str) -> dict[str, int]:
    """The final totals `wordtable score` gives each player."""
    totals: dict[str, int] = {}
    for row in registry.score(registry.parse_record(record)).rows():
        totals[row.player] = row.total
    return totals


def test_every_play_validates_against_the_documented_format(state: Path) -> None:
    code, text, err = run_cli("journal", "export", "--all", "--format", "bgstats", "--state-dir", str(state))
    assert (code, err) == (0, "")
    plays = [json.loads(line) for line in text.splitlines()]
    assert [p["game"]["sourceGameId"] for p in plays] == [*GAMES, "quiddler"]
    check = validator()
    for play in plays:
        check.validate(play)
    schema_games = SCHEMA["properties"]["game"]["properties"]["sourceGameId"]["enum"]
    assert sorted(schema_games) == sorted(registry.record_games())  # every game that keeps a record, no other


@pytest.mark.parametrize("broken", [
    lambda p: p.pop("players"),
    lambda p: p.update(playDate="2026-05-01T19:00:00Z"),
    lambda p: p["players"][0].update(score="180"),
    lambda p: p["players"][0].update(rank=0),
    lambda p: p["game"].pop("name"),
    lambda p: p.update(durationMin=-1),
    lambda p: p.update(players=[]),
    lambda p: p.update(colour="blue"),
])
def test_the_schema_refuses_what_bg_stats_would_not_read(state: Path, broken: object) -> None:
    _, text, _ = run_cli("journal", "export", "--game", "1", "--format", "bgstats", "--state-dir", str(state))
    play = json.loads(text)
    validator().validate(play)
    assert callable(broken)
    broken(play)
    assert not validator().is_valid(play)


def test_scores_winners_ranks_date_and_duration_are_the_game_s(state: Path) -> None:
    with Journal.open(journal_path(state), readonly=True) as journal:
        games = {g.id: g for g in journal.games()}
        records = {game_id: journal.export_record(game_id) for game_id in games if games[game_id].game != "appliance"}
    for game_id, record in records.items():
        play = bgstats_play(play_of(games[game_id], record))
        totals = _scored(record)
        report = registry.score(registry.parse_record(record))
        players = {p["name"]: p for p in play["players"]}
        assert list(players) == list(games[game_id].players)
        assert {name: p["score"] for name, p in players.items()} == {n: totals.get(n, 0) for n in players}
        winners = {name for name, p in players.items() if p["winner"]}
        assert winners == (set(report.leaders) if report.finished else set())
        for p in players.values():
            assert p["rank"] == 1 + sum(other["score"] > p["score"] for other in players.values())
        assert play["playDate"] == games[game_id].started.replace("T", " ").removesuffix("Z")
    assert bgstats_play(play_of(games[1], records[1]))["durationMin"] == 65  # 19:00 to the finish at 20:05
    unfinished = bgstats_play(play_of(games[6], records[6]))
    assert unfinished["durationMin"] == 42  # no finish: to the last entry, 19:42:10
    assert not any(p["winner"] for p in unfinished["players"])


def test_a_tie_shares_the_rank_and_the_win() -> None:
    """Perfect Words is cooperative: the team wins together, on the same total."""
    lines = _golden("perfect-words")
    record = "\n".join(json.dumps(line) for line in [{"record": "wordtable", "version": 1, "game": "perfect-words"},
                                                     *lines]) + "\n"
    summary = GameSummary(3, "2026-05-03T19:00:00Z", "perfect-words", ("Anna", "Ben"), "2026-05-03T19:30:00Z", None)
    players = bgstats_play(play_of(summary, record))["players"]
    assert [(p["rank"], p["winner"]) for p in players] == [(1, True), (1, True)]


def test_zugzeit_is_a_play_without_points(tmp_path: Path) -> None:
    with Journal.open(journal_path(tmp_path)) as journal:
        game = journal.start_game("zugzeit", ["Anna", "Ben", "Cem"], wall_time="2026-05-06T19:00:00Z")
        for line in _golden("turn-timer"):
            journal.append(game, RECORD, line, "2026-05-06T19:05:00Z")
        journal.finish(game, None, wall_time="2026-05-06T19:10:00Z")
    code, text, err = run_cli("journal", "export", "--format", "bgstats", "--state-dir", str(tmp_path))
    assert (code, err) == (0, "")
    play = json.loads(text)
    validator().validate(play)
    assert play["game"]["noPoints"] is True and play["durationMin"] == 10
    assert all("score" not in p and "rank" not in p for p in play["players"])


def test_the_plays_csv_has_one_row_per_player_per_play(state: Path) -> None:
    code, text, err = run_cli("journal", "export", "--all", "--format", "plays", "--state-dir", str(state))
    assert (code, err) == (0, "")
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == PLAY_COLUMNS
    _, listed, _ = run_cli("journal", "export", "--all", "--format", "bgstats", "--state-dir", str(state))
    expected = [
        [str(n), p["sourcePlayId"].split("@")[1], p["game"]["sourceGameId"], p["game"]["name"], player["name"],
         str(player["score"]), str(int(player["winner"])), str(player["rank"]), str(p["durationMin"])]
        for p in map(json.loads, listed.splitlines()) for n in [int(p["sourcePlayId"].split("@")[0])]
        for player in p["players"]
    ]
    assert rows[1:] == expected
    code, one, _ = run_cli("journal", "export", "--game", "2", "--format", "plays", "--state-dir", str(state))
    assert code == 0 and one.splitlines() == [",".join(PLAY_COLUMNS), *[",".join(r) for r in expected if r[0] == "2"]]


def test_all_takes_only_play_formats(state: Path) -> None:
    for args in (["--all"], ["--all", "--format", "csv"], ["--all", "--format", "plays", "--game", "1"]):
        code, out, err = run_cli("journal", "export", *args, "--state-dir", str(state))
        assert (code, out) == (2, "") and "--all exports plays" in err


def test_the_link_opens_bg_stats_with_the_play(state: Path) -> None:
    _, text, _ = run_cli("journal", "export", "--game", "4", "--format", "bgstats", "--state-dir", str(state))
    play = json.loads(text)
    link = urlsplit(create_play_link(play))
    assert (link.scheme, link.netloc, link.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    assert json.loads(parse_qs(link.query)["data"][0]) == play
