"""Zugzeit in the league is time, not points: its standings rank the fastest average turn first, with the
turns, the time thought and the longest turn summed from the records as `wordtable score` scores them."""

from __future__ import annotations

import re

from firmware_host.core.games.registry import parse_record, score
from firmware_host.league.store import LeagueStore, time_standings
from tests.test_league import EXAMPLES, _example


def test_zugzeit_standings_are_turn_times_fastest_first(tmp_path):
    store = LeagueStore(tmp_path / "league.sqlite")
    for n in range(2):
        store.ingest(_example("zugzeit", f"zz-{n}", table=str(n)))
    store.ingest(_example("quiddler", "q-1"))
    standings = store.standings()
    assert standings["quiddler"]["kind"] == "points"
    entry = standings["zugzeit"]
    assert entry["kind"] == "time" and entry["games"] == 2
    report = score(parse_record((EXAMPLES / "zugzeit.jsonl").read_text(encoding="utf-8"))).to_json()
    expected = {row["player"]: (2, 2 * row["turns"], 2 * row["total_ms"], row["longest_ms"],
                                row["total_ms"] // row["turns"], 2 * (row["player"] in report["winners"]))
                for row in report["players"]}
    shown = {row["player"]: (row["played"], row["turns"], row["total_ms"], row["longest_ms"], row["average_ms"],
                             row["wins"]) for row in entry["players"]}
    assert shown == expected
    averages = [row["average_ms"] for row in entry["players"]]
    assert averages == sorted(averages)


def test_a_player_without_a_turn_comes_last_and_has_no_average():
    reports = [{"players": [{"player": "Ann", "turns": 0, "total_ms": 0, "longest_ms": 0},
                            {"player": "Ben", "turns": 2, "total_ms": 9000, "longest_ms": 6000}],
                "winners": ["Ben"]}]
    rows = time_standings(reports)
    assert [(r["player"], r["average_ms"], r["wins"]) for r in rows] == [("Ben", 4500, 1), ("Ann", None, 0)]


def test_a_zugzeit_sheet_shows_each_players_time_fastest_first_never_milliseconds(tmp_path):
    from firmware_host.league.service import sheet_html

    store = LeagueStore(tmp_path / "league.sqlite")
    store.ingest(_example("zugzeit", "zz"))
    game = store.game("zz")
    assert game is not None
    page = sheet_html(game, store.results("zz"), "de")
    report = score(parse_record(game["record"])).to_json()
    expected = {row["player"]: f"{row['total_ms'] // 60000}:{row['total_ms'] // 1000 % 60:02d}"
                for row in report["players"]}
    shown = re.findall(r"<tr><td>([^<]*)</td><td class=num>([^<]*)</td></tr>", page)
    assert dict(shown) == expected and len(shown) == len(expected)
    seconds = [int(m) * 60 + int(s) for _, text in shown for m, s in [text.split(":")]]
    assert seconds == sorted(seconds)  # the fastest first
    assert not any(str(row["total_ms"]) in page for row in report["players"])
