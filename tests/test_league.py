"""The league without a broker: the [league] config, topics, the journal's outbox (queued with the game's
end, atomically), the table's league view, the league's store (once by id, re-scored, standings), the
payloads against the published JSON Schemas, the export and the broker ACL files."""

from __future__ import annotations

import csv
import json
import sqlite3
import ssl
from datetime import UTC
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.config import ConfigError, dump, parse_config, resolve
from firmware_host.core import app
from firmware_host.core.effects import BeginGame, EndGame, Record
from firmware_host.core.events import Tick
from firmware_host.core.games.registry import parse_record, score
from firmware_host.core.league_view import league_view, running_totals
from firmware_host.core.screens import describe
from firmware_host.journal import Journal, JournalError
from firmware_host.league.export import export
from firmware_host.league.publisher import state_message
from firmware_host.league.store import LeagueStore
from firmware_host.league.topics import TopicError, parse_broker, split, topic
from firmware_host.script import ScriptHooks, parse_script, run_script
from firmware_host.shell_journal import SessionJournal
from tests.game_scripts import GAME_SCRIPTS, actions

DOCS = Path(__file__).resolve().parent.parent / "docs"
EXAMPLES = DOCS / "examples"
QUICK = '[dictionary]\nreveal = "off"\nsystem = false\n'
RECORDED = ("perfektes-wort", "quiddler", "perfect-words", "knack-das-wort")


def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((DOCS / f"league-{name}.schema.json").read_text()))


# -- config and topics -------------------------------------------------------------------------------


def test_the_league_section_is_read_and_every_error_is_listed_by_key():
    ca_file = ssl.get_default_verify_paths().cafile or "/etc/ssl/certs/ca-certificates.crt"  # a real bundle
    config = parse_config({"league": {"broker": "mqtts://broker.example:8884", "venue": "cafe", "table": "t-3",
                                      "username": "cafe-t-3", "password": "geheim", "ca_file": ca_file}})
    assert config.league.enabled and config.league.table == "t-3" and str(config.league.ca_file) == ca_file
    assert not parse_config({}).league.enabled
    with pytest.raises(ConfigError) as failed:
        parse_config({"league": {"broker": "http://x", "venue": "café", "table": "a/b", "password": "p"}})
    keys = [key for key, _ in failed.value.errors]
    assert keys == ["league.broker", "league.venue", "league.table", "league.password"]


def test_the_printed_config_never_shows_the_password(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[league]\nbroker = "mqtt://10.0.0.2"\nusername = "cafe-1"\npassword = "sehr-geheim"\n')
    text = dump(resolve("sim", path, environ={}))
    assert "sehr-geheim" not in text and "# password = (set, not shown)" in text
    assert 'broker = "mqtt://10.0.0.2"' in text


def test_broker_urls():
    assert parse_broker("mqtt://10.0.0.2") == parse_broker("mqtt://10.0.0.2:1883")
    secure = parse_broker("mqtts://league.example")
    assert (secure.host, secure.port, secure.tls) == ("league.example", 8883, True)
    for bad in ("mqtt://", "tcp://host", "mqtt://host/path", "mqtt://host:99999"):
        with pytest.raises(TopicError):
            parse_broker(bad)


@pytest.mark.slow  # hypothesis
@given(st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True), st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True),
       st.sampled_from(["state", "status", "games"]))
def test_a_topic_splits_back_into_its_parts(venue, table, kind):
    assert split(topic(venue, table, kind)) == (venue, table, kind)


@pytest.mark.parametrize("name", ["wordtable/cafe/+/state", "wordtable/cafe/1/other", "x/cafe/1/state",
                                  "wordtable/cafe/1/state/more", "wordtable/ca fe/1/state"])
def test_other_topics_are_not_league_topics(name):
    assert split(name) is None


# -- the box: outbox and view ---------------------------------------------------------------------------


def _journal_with_session(tmp_path: Path) -> tuple[Journal, SessionJournal]:
    journal = Journal.open(tmp_path / "journal.sqlite")
    session = journal.start_game("appliance", [], {"snapshot": {}})
    return journal, SessionJournal(journal, session, league=True)


def test_a_finished_game_is_queued_in_the_outbox_in_the_same_transaction(tmp_path):
    journal, target = _journal_with_session(tmp_path)
    woken = []
    target.on_queued = lambda: woken.append(True)
    target.commit(Tick(1.0), [BeginGame("knack-das-wort", ("Anna", "Ben")),
                              Record({"event": "setup", "players": ["Anna", "Ben"]})])
    game = target.table_game
    assert game is not None and not woken
    target.commit(Tick(2.0), [Record({"event": "word", "player": "Anna", "word": "HAUS"}), EndGame("Anna")])
    rows = sqlite3.connect(journal.path).execute("SELECT id, game_id, payload FROM outbox").fetchall()
    assert len(rows) == 1 and rows[0][1] == game and not woken  # the publisher waits for the storage
    target.sync()
    assert woken == [True]
    target.sync()
    assert woken == [True]
    payload = json.loads(rows[0][2])
    assert payload["id"] == rows[0][0] and payload["record"] == journal.export_record(game)
    assert payload["winner"] == "Anna" and payload["players"] == ["Anna", "Ben"]
    schema("game").validate({"venue": "cafe", "table": "1", **payload})


def test_when_the_queueing_fails_the_game_is_not_finished_either(tmp_path, monkeypatch):
    journal, target = _journal_with_session(tmp_path)
    target.commit(Tick(1.0), [BeginGame("knack-das-wort", ("Anna", "Ben"))])
    game = target.table_game

    def broken(game_id: int) -> str:
        raise JournalError("disk full")

    monkeypatch.setattr(journal, "enqueue", broken)
    with pytest.raises(JournalError):
        target.commit(Tick(2.0), [EndGame("Anna")])
    assert journal.game(game).finished is None and target.table_game == game
    assert sqlite3.connect(journal.path).execute("SELECT count(*) FROM outbox").fetchone() == (0,)


def test_an_older_journal_gets_the_outbox_when_opened(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE outbox")
    journal = Journal.open(path)
    assert journal.moved_aside is None
    assert sqlite3.connect(path).execute("SELECT count(*) FROM outbox").fetchone() == (0,)


def test_without_a_league_nothing_is_queued(make_sim, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text(QUICK)
    sim = make_sim(tmp_path / "box", config)
    run_script(actions("knack-das-wort.script") + parse_script("press start"), sim.hooks(), lambda line: None)
    assert sqlite3.connect(sim.appliance.journal.path).execute("SELECT count(*) FROM outbox").fetchone() == (0,)


@pytest.mark.slow  # a whole game, and the client's reconnect loop to stop
def test_with_the_broker_away_the_table_plays_on_and_its_game_waits_in_the_outbox(make_sim, tmp_path):
    """Nothing listens on the broker's port: the box plays a whole game; the game waits in the outbox."""
    from tests.helpers.ports import free_port

    config = tmp_path / "c.toml"
    config.write_text(QUICK + f'[league]\nbroker = "mqtt://127.0.0.1:{free_port()}"\nvenue = "cafe"\ntable = "7"\n')
    sim = make_sim(tmp_path / "box", config)
    run_script(actions("quiddler.script") + parse_script("press start"), sim.hooks(), lambda line: None)
    sim.close()
    rows = sqlite3.connect(sim.appliance.journal.path).execute("SELECT payload FROM outbox").fetchall()
    assert [json.loads(row[0])["game"] for row in rows] == ["quiddler"]


def test_the_running_totals_are_the_record_so_far_scored_and_a_tick_changes_no_view(make_sim, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text(QUICK)
    sim = make_sim(tmp_path / "box", config)
    run_script(actions("knack-das-wort.script"), sim.hooks(), lambda line: None)  # stops on the final screen
    view = league_view(sim.state)
    journal = sim.appliance.journal
    game = next(g for g in reversed(journal.games()) if g.game == "knack-das-wort")
    rows = score(parse_record(journal.export_record(game.id))).rows()
    expected = {row.player: row.total for row in rows}
    assert {p["name"]: p["total"] for p in view["players"]} == expected and view["game"] == "knack-das-wort"
    assert max(expected.values()) > 0
    sim.send(Tick(sim.clock.now + 0.5))
    assert league_view(sim.state) == view
    message = state_message(view, 1, 1_800_000_000.0, sim.clock.now)
    schema("state").validate({"venue": "cafe", "table": "1", **message})


def test_a_running_timer_is_published_with_its_deadline_as_wall_time(make_sim, tmp_path):
    sim = make_sim(tmp_path / "box")
    run_script(parse_script("press start"), sim.hooks(), lambda line: None)  # the sand timer runs
    view = league_view(sim.state)
    assert view["timer"]["running"] and view["timer"]["left"] is None
    deadline = view["timer"]["deadline"]
    message = state_message(view, 3, 1_800_000_000.0, sim.clock.now)
    assert message["timer"]["deadline"] == pytest.approx(1_800_000_000.0 + deadline - sim.clock.now, abs=1e-3)
    sim.wait_until(sim.clock.now + 5)
    assert league_view(sim.state) == view  # five seconds of ticks: nothing to publish
    schema("state").validate({"venue": "cafe", "table": "1", **message})
    assert app.table_players(sim.state) == tuple(p["name"] for p in view["players"])


# -- the league's store ---------------------------------------------------------------------------------


def _example(game: str, game_id: str, table: str = "1") -> dict:
    return {"id": game_id, "venue": "cafe", "table": table, "game": game,
            "record": (EXAMPLES / f"{game}.jsonl").read_text(encoding="utf-8")}


def _direct(records: list[str]) -> dict[str, dict[str, tuple[int, int, float]]]:
    """Standings computed straight from the records with `wordtable score`: game -> player -> (played,
    wins, average points)."""
    sums: dict[str, dict[str, list[int]]] = {}
    for text in records:
        report = score(parse_record(text))
        totals: dict[str, int] = {}
        for row in report.rows():
            totals[row.player] = row.total
        record_game = parse_record(text).game
        for player, total in totals.items():
            entry = sums.setdefault(record_game, {}).setdefault(player, [0, 0, 0])
            entry[0] += 1
            entry[1] += int(player in report.leaders)
            entry[2] += total
    return {game: {player: (n, wins, round(points / n, 2)) for player, (n, wins, points) in players.items()}
            for game, players in sums.items()}


def standings_table(standings: dict) -> dict[str, dict[str, tuple[int, int, float]]]:
    return {game: {row["player"]: (row["played"], row["wins"], row["average"]) for row in entry["players"]}
            for game, entry in standings.items()}


def test_the_store_keeps_a_game_once_flags_what_does_not_score_and_its_standings_are_the_records_scored(tmp_path):
    store = LeagueStore(tmp_path / "league.sqlite")
    games = [_example(game, f"id-{game}-{n}", table=str(n)) for n, game in enumerate(RECORDED * 2)]
    for game in games:
        assert store.ingest(game).new
    assert not any(store.ingest(game).new for game in games)  # repeats change nothing
    broken = {**_example("quiddler", "id-broken"), "record": _example("quiddler", "x")["record"].replace(
        '"event": "round_start"', '"event": "rund"', 1)}
    flagged = store.ingest(broken)
    assert flagged.new and flagged.problem
    wrong_game = store.ingest({**_example("quiddler", "id-wrong"), "game": "knack-das-wort"})
    assert wrong_game.problem is not None
    assert store.count() == len(games) + 2
    standings = store.standings()
    assert standings_table(standings) == _direct([game["record"] for game in games])
    assert {e["games"] for e in standings.values()} == {2}
    best_words = standings["perfektes-wort"]["best"]["entries"]
    words = [r for r in score(parse_record(games[0]["record"])).rows() if r.round != "end"]
    top = max(r.points for r in words)
    assert best_words[0]["points"] == top and best_words[0]["entry"] in {r.entry for r in words if r.points == top}
    assert [e["points"] for e in best_words] == sorted((e["points"] for e in best_words), reverse=True)
    assert standings["quiddler"]["best"]["kind"] == "rounds" and standings["knack-das-wort"]["best"] is None


def test_a_game_counts_for_the_evening_it_was_played_not_when_it_arrived(tmp_path):
    """Evenings start at 06:00 local time; a box offline overnight delivers last evening's game in the
    morning, with a clock 1 h fast: it counts for last evening, at its end on the league's clock."""
    from datetime import datetime

    from firmware_host.league.store import evening_start

    def utc(text: str) -> float:
        return datetime.fromisoformat(text).timestamp()

    store = LeagueStore(tmp_path / "league.sqlite")
    morning = datetime.fromisoformat("2026-03-07T09:00:00").astimezone()  # local time
    received = morning.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    last_evening = morning.replace(hour=4)  # before 06:00: still the evening before
    box_clock = 3600.0
    finished = datetime.fromtimestamp(last_evening.timestamp() + box_clock, UTC).isoformat().replace("+00:00", "Z")
    sent_at = morning.timestamp() + box_clock - 1.0  # sent a second before it arrived, on the box's clock
    store.ingest({**_example("quiddler", "overnight"), "finished": finished, "sent_at": sent_at}, received=received)
    store.ingest({**_example("quiddler", "morning"), "finished": finished.replace("2026-03-07", "2026-03-08")},
                 received=received)  # a box clock ahead of the league and no sent_at: not later than it came
    store.ingest(_example("quiddler", "unknown"), received=received)  # no end named: when it came
    tonight = evening_start(morning)
    assert store.standings()["quiddler"]["games"] == 3
    assert store.standings(tonight)["quiddler"]["games"] == 2
    assert [game["id"] for game in store.games(tonight)] == ["morning", "unknown"]
    overnight = store.game("overnight")
    assert overnight is not None and utc(overnight["played"]) == pytest.approx(last_evening.timestamp() + 1.0)
    assert overnight["received"] == received and store.game("morning")["played"] == received


def test_a_league_file_from_before_the_played_column_is_dated_by_its_games_ends(tmp_path):
    path = tmp_path / "league.sqlite"
    LeagueStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP INDEX games_by_played")
        db.execute("ALTER TABLE games DROP COLUMN played")
        db.execute("INSERT INTO games (id, venue, tbl, game, players, finished, record, received) VALUES"
                   " ('x', 'cafe', '1', 'quiddler', '[]', '2026-03-06T22:00:00Z', '', '2026-03-07T09:00:00.000Z')")
    store = LeagueStore(path)
    assert store.game("x")["played"] == "2026-03-06T22:00:00.000Z"


def test_a_message_that_is_no_game_is_refused(tmp_path):
    from firmware_host.league.store import PayloadError

    store = LeagueStore(tmp_path / "league.sqlite")
    for bad in ([], {"id": "x"}, {**_example("quiddler", "y"), "players": "Ann"}, {**_example("quiddler", "z" * 65)}):
        with pytest.raises(PayloadError):
            store.ingest(bad)
    assert store.count() == 0


def test_the_export_writes_a_row_per_player_and_a_line_per_game(tmp_path):
    store = LeagueStore(tmp_path / "league.sqlite")
    for n, game in enumerate(RECORDED):
        rows = score(parse_record(_example(game, "x")["record"])).rows()
        store.ingest({**_example(game, f"g{n}"), "players": list(dict.fromkeys(r.player for r in rows))})
    csv_path, jsonl_path, count = export(store, tmp_path / "out")
    assert count == 4
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    games = [json.loads(line) for line in jsonl_path.read_text(encoding="utf-8").splitlines()]
    assert {row["id"] for row in rows} == {g["id"] for g in games} == {"g0", "g1", "g2", "g3"}
    for game in games:
        report = score(parse_record(game["record"]))
        totals = {r.player: r.total for r in report.rows()}
        assert game["results"] == totals
        mine = {row["player"]: int(row["points"]) for row in rows if row["id"] == game["id"]}
        assert mine == totals


# -- the running totals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("script", GAME_SCRIPTS)
def test_the_running_totals_are_what_wordtable_score_says_of_the_record_so_far_at_every_step(script):
    from firmware_host.core.effects import Retract
    from firmware_host.core.record import RecordError, dump_line, header_line
    from firmware_host.core.settings import Settings

    state, _ = app.initial(Settings())
    now, game, lines, compared = 0.0, None, [], 0

    def send(event):
        nonlocal state, game, lines, compared
        state, effects = app.step(state, event)
        for effect in effects:
            if isinstance(effect, BeginGame):
                game, lines = effect.game, []
            elif isinstance(effect, Record):
                lines.append(effect.line)
            elif isinstance(effect, Retract):
                lines.pop()
        totals = running_totals(state)
        expected = None
        if game is not None and getattr(state.flow, "played", None) is not None:
            try:
                text = "\n".join(dump_line(line) for line in [header_line(game), *lines])
                expected = {row.player: row.total for row in score(parse_record(text)).rows()}
            except RecordError:
                pass
        assert totals == expected and list(totals or ()) == list(expected or ())
        compared += expected is not None

    def wait(until):
        nonlocal now
        now = until
        send(Tick(until))

    hooks = ScriptHooks(now=lambda: now, send=send, wait=wait, screen_text=lambda: describe(app.screen(state)),
                        state=lambda: state, frame_text=lambda: "", restart=lambda: None)
    run_script(actions(script), hooks, lambda line: None)
    assert compared > 0 or script == "turn-timer.script"
