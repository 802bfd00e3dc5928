"""The league with a real Mosquitto on 127.0.0.1: ten boxes (the real shell on mock pins) play scripted games
of all four kinds while the broker is killed and restarted, a box loses its network and another is
restarted with games in its outbox — every game arrives exactly once and the standings are the records
scored directly. The generated ACL refuses a wrong password and a table writing another table's topic."""

from __future__ import annotations

import json
import queue
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import jsonschema
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.config import LeagueConfig
from firmware_host.league import publisher
from firmware_host.league.acl import CONF_NAME, write_acl
from firmware_host.league.service import League
from firmware_host.league.store import LeagueStore
from firmware_host.script import parse_script, run_script
from tests.game_scripts import actions
from tests.helpers.broker import Broker
from tests.helpers.league_broker import GeneratedBroker, broker_directory
from tests.helpers.netcut import NetCut
from tests.helpers.ports import free_port
from tests.test_league import DOCS, QUICK, _direct, standings_table

pytestmark = pytest.mark.slow

KINDS = ("perfektes-wort.script", "quiddler.script", "perfect-words.script", "knack-das-wort.script")


@pytest.fixture(autouse=True)
def quick_reconnect(monkeypatch):
    monkeypatch.setattr(publisher, "RECONNECT_S", (1, 1))


@pytest.fixture
def broker(tmp_path):
    running = Broker(tmp_path / "broker").start()
    yield running
    running.stop()


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.05)


def box_config(path: Path, url: str, table: str, extra: str = "") -> Path:
    path.write_text(QUICK + f'[league]\nbroker = "{url}"\nvenue = "cafe"\ntable = "{table}"\n{extra}',
                    encoding="utf-8")
    return path


def play(sim, script: str) -> None:
    run_script(actions(script) + parse_script("press start"), sim.hooks(), lambda line: None)


def finished_records(sim) -> list[str]:
    journal = sim.appliance.journal
    return [journal.export_record(g.id) for g in journal.games() if g.game != "appliance" and g.finished]


def outbox_left(sim) -> int:
    return sqlite3.connect(sim.appliance.journal.path).execute("SELECT count(*) FROM outbox").fetchone()[0]


class Box:
    """A simulated box in a thread of its own (its journal belongs to the thread that opened it); `do`
    runs a function on its Simulator there and returns what it returned."""

    def __init__(self, state_dir: Path, config: Path) -> None:
        from firmware_host.config import resolve
        from firmware_host.simulator import Simulator

        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._make = lambda: Simulator(resolve("sim", config, environ={}), state_dir)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        sim = self._make()
        while True:
            job, answer = self._jobs.get()
            if job is None:
                sim.close()
                answer.put(None)
                return
            try:
                answer.put((True, job(sim)))
            except BaseException as exc:
                answer.put((False, exc))

    def start(self, job: Callable) -> queue.SimpleQueue:
        answer: queue.SimpleQueue = queue.SimpleQueue()
        self._jobs.put((job, answer))
        return answer

    def do(self, job: Callable, timeout: float = 60):
        ok, value = self.start(job).get(timeout=timeout)
        if not ok:
            raise value
        return value

    def close(self) -> None:
        answer: queue.SimpleQueue = queue.SimpleQueue()
        self._jobs.put((None, answer))
        answer.get(timeout=10)


def all_do(boxes: list[Box], jobs: list[Callable]) -> list:
    """Every box runs its job at once; their results in order (the first failure raised)."""
    answers = [box.start(job) for box, job in zip(boxes, jobs, strict=True)]
    results = []
    for answer in answers:
        ok, value = answer.get(timeout=60)
        if not ok:
            raise value
        results.append(value)
    return results


def playing(script: str) -> Callable:
    return lambda sim: play(sim, script)


class Tap:
    """A plain subscriber that keeps every message of the venue (to check them against the schemas)."""

    def __init__(self, port: int, username: str | None = None, password: str | None = None) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe("wordtable/#", qos=1)
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def league_for(broker: Broker | GeneratedBroker, tmp_path: Path, **credentials: str) -> League:
    config = LeagueConfig(broker.url, "cafe", "league", credentials.get("username"), credentials.get("password"),
                          None)
    league = League(config, "cafe", tmp_path / "league.sqlite", bind="127.0.0.1", port=0, reconnect=(1, 1))
    league.start()
    assert league.connected.wait(10), "the league did not connect"
    return league


def test_ten_boxes_an_evening_with_a_broker_crash_a_network_cut_and_a_restart_every_game_once(broker, tmp_path):
    league = league_for(broker, tmp_path)
    tap = Tap(broker.port)
    cut = NetCut(broker.port)
    boxes: list[Box] = []
    try:
        for n in range(10):
            url = f"mqtt://127.0.0.1:{cut.port}" if n == 9 else broker.url
            boxes.append(Box(tmp_path / f"box{n}", box_config(tmp_path / f"box{n}.toml", url, str(n + 1))))
        wait_for(lambda: len(league.tables) == 10, 10, "every table online on the board")
        cut.cut()  # table 10's network goes: it plays on, its game waits
        all_do(boxes, [playing(KINDS[n % 4]) for n in range(10)])
        wait_for(lambda: league.tables["10"].online is False, 10, "table 10's Last Will says offline")
        broker.kill()  # the broker crashes mid-evening; the second round is played without it
        all_do(boxes, [playing("quiddler.script")] * 10)
        assert boxes[0].do(outbox_left) >= 1
        boxes[0].do(lambda sim: sim.restart())  # box 1 is switched off and on, its game still in the outbox
        broker.start()
        all_do(boxes, [playing("quiddler.script")] * 10)
        cut.restore()

        expected = sorted((str(n + 1), record) for n, box in enumerate(boxes) for record in box.do(finished_records))
        assert len(expected) == 30
        wait_for(lambda: league.stored >= 30, 30, f"30 games in the league (has {league.stored})")
        for box in boxes:
            wait_for(lambda box=box: box.do(outbox_left) == 0, 10, "every outbox empty once acknowledged")
        time.sleep(0.5)  # any repeat still under way arrives
        store = LeagueStore(tmp_path / "league.sqlite")
        stored = sorted((game["table"], game["record"]) for game in store.games())
        assert stored == expected  # every game, each exactly once
        assert league.stored == 30 and league.flagged == 0
        assert all(game["complete"] and game["problem"] is None for game in store.games())
        assert standings_table(store.standings()) == _direct([record for _, record in expected])
        assert {game: entry["games"] for game, entry in store.standings().items()} == {
            "perfektes-wort": 3, "quiddler": 23, "perfect-words": 2, "knack-das-wort": 2}
        wait_for(lambda: league.tables["10"].online, 10, "table 10 back online")
    finally:
        for box in boxes:
            box.close()
        tap.close()
        cut.close()
        league.close()
    validators = {kind: jsonschema.Draft202012Validator(json.loads((DOCS / f"league-{kind}.schema.json").read_text()))
                  for kind in ("state", "status", "game")}
    validators["ack"] = jsonschema.Draft202012Validator(json.loads((DOCS / "league-ack.schema.json").read_text()))
    kinds = {"state": "state", "status": "status", "games": "game", "ack": "ack"}
    seen = set()
    for name, payload in tap.messages:
        if payload:
            validators[kinds[name.rsplit("/", 1)[1]]].validate(json.loads(payload))
            seen.add(name.rsplit("/", 1)[1])
    assert seen == {"state", "status", "games", "ack"}


def test_the_generated_acl_refuses_a_wrong_password_and_another_tables_topic(tmp_path):
    """Debian's Mosquitto with the config, ACL and password file `wordtable league acl` generated."""
    root = broker_directory()
    port = free_port()
    acl = root / "acl"
    passwords, _ = write_acl(acl, "cafe", ["1", "2"], f"mqtt://127.0.0.1:{port}")
    broker = GeneratedBroker(root / "broker", acl / CONF_NAME, port).start()
    try:
        refused: list[object] = []
        intruder = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        intruder.username_pw_set("cafe.1", "falsch")
        intruder.on_connect = lambda c, u, f, reason, p: refused.append(reason)
        intruder.connect("127.0.0.1", broker.port)
        intruder.loop_start()
        wait_for(lambda: bool(refused), 10, "an answer to the wrong password")
        intruder.loop_stop()
        assert refused[0].is_failure and str(refused[0]) in ("Not authorized", "Bad user name or password")

        league = league_for(broker, tmp_path, username="cafe-league", password=passwords["cafe-league"])
        try:
            credentials = (acl / "credentials" / "cafe.1.toml").read_text()
            box = Box(tmp_path / "box1", _with_quick(tmp_path / "box1.toml", credentials))
            box.do(playing("knack-das-wort.script"))
            wait_for(lambda: league.stored == 1, 10, "table 1's game in the league")
            wait_for(lambda: box.do(outbox_left) == 0, 10, "the league's ack reached table 1")  # the ACL lets it
            box.close()

            table2, acks = acked_client(broker, "cafe.2", passwords["cafe.2"])
            forged = json.loads(json.dumps({"venue": "cafe", "table": "1", "id": "f" * 36, "game": "quiddler",
                                            "players": [], "started": "", "finished": "", "winner": None,
                                            "record": (DOCS / "examples" / "quiddler.jsonl").read_text()}))
            theirs = table2.publish("wordtable/cafe/1/games", json.dumps(forged), qos=1)
            own = table2.publish("wordtable/cafe/2/games", json.dumps({**forged, "table": "2", "id": "2" * 36}), qos=1)
            wait_for(lambda: theirs.mid in acks and own.mid in acks, 10, "the broker's answers to table 2")
            assert acks[theirs.mid].is_failure and "authori" in str(acks[theirs.mid]).lower()
            assert not acks[own.mid].is_failure
            wait_for(lambda: league.stored == 2, 10, "table 2's own game in the league")
            store = LeagueStore(tmp_path / "league.sqlite")
            assert "f" * 36 not in store.ids() and "2" * 36 in store.ids()
            table2.loop_stop()
        finally:
            league.close()
        reader, league_writes = acked_client(broker, "cafe-league", passwords["cafe-league"])
        sent = reader.publish("wordtable/cafe/1/state", b"{}", qos=1)
        wait_for(lambda: sent.mid in league_writes, 10, "the broker's answer to the league")
        reader.loop_stop()
        assert league_writes[sent.mid].is_failure  # the league writes only acks
    finally:
        broker.stop()
        shutil.rmtree(root, ignore_errors=True)


def acked_client(broker: Broker | GeneratedBroker, user: str, password: str) -> tuple[mqtt.Client, dict[int, object]]:
    """A raw MQTT v5 client logged in as `user`, running, and the broker's answer to each of its
    publishes by message id."""
    acks: dict[int, object] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.username_pw_set(user, password)
    client.on_publish = lambda c, u, mid, reason, p: acks.__setitem__(mid, reason)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client, acks


def _with_quick(path: Path, league_lines: str) -> Path:
    path.write_text(QUICK + league_lines, encoding="utf-8")
    return path


def test_games_finished_while_the_league_is_away_wait_for_it_in_the_broker_and_in_the_outbox(broker, tmp_path):
    """The league's session is persistent: it is stopped, a table finishes two games (the broker queues
    them for the league; the box keeps them until the league acknowledges them), the league starts again
    and gets both, once; only then does the outbox empty."""
    league = league_for(broker, tmp_path)
    box = Box(tmp_path / "box", box_config(tmp_path / "box.toml", broker.url, "4"))
    try:
        box.do(playing("knack-das-wort.script"))
        wait_for(lambda: league.stored == 1, 10, "the first game in the league")
        wait_for(lambda: box.do(outbox_left) == 0, 10, "the league's ack emptied the outbox")
        league.close()
        box.do(playing("quiddler.script"))
        box.do(playing("quiddler.script"))
        time.sleep(2)  # the broker has had them long since
        assert box.do(outbox_left) == 2
        league = league_for(broker, tmp_path)
        wait_for(lambda: league.stored == 2, 10, "the games that waited in the broker")
        wait_for(lambda: box.do(outbox_left) == 0, 10, "the league's acks emptied the outbox")
        time.sleep(0.3)
        store = LeagueStore(tmp_path / "league.sqlite")
        assert sorted(game["record"] for game in store.games()) == sorted(box.do(finished_records))
    finally:
        box.close()
        league.close()
