"""End-to-end delivery without a broker: the box's publisher keeps a game in its outbox until the league's
ack names it — a PUBACK, also "no matching subscribers", is no delivery — and sends it again with a
backoff; the league acknowledges every game it has (new or a repeat) on the table's retained ack topic."""

from __future__ import annotations

import json
import sqlite3
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from firmware_host.config import LeagueConfig
from firmware_host.core.effects import BeginGame, EndGame, Record
from firmware_host.core.events import Tick
from firmware_host.league.outbox import QUEUED_RESEND_S, RESEND_S, SETTLE_S, Outbox, Resends
from firmware_host.league.publisher import Publisher, ack_ids
from firmware_host.league.service import ACK_IDS, League
from firmware_host.league.store import LeagueStore
from tests.test_league import _example, _journal_with_session, schema

CONFIG = LeagueConfig("mqtt://127.0.0.1:1", "cafe", "7", None, None, None)


class FakeClient:
    """What the publisher and the league call on paho's client, kept."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict, int, bool]] = []

    def publish(self, topic: str, payload: str, qos: int, retain: bool) -> SimpleNamespace:
        self.sent.append((topic, json.loads(payload), qos, retain))
        return SimpleNamespace(mid=len(self.sent))

    def on(self, kind: str) -> list[tuple[int, dict, int, bool]]:
        return [(n + 1, *rest[1:]) for n, rest in enumerate(self.sent) if rest[0].endswith("/" + kind)]

    def disconnect(self) -> None:
        pass


def puback(code: int) -> ReasonCode:
    return ReasonCode(PacketTypes.PUBACK, identifier=code)


def finished_game(tmp_path: Path) -> Path:
    journal, target = _journal_with_session(tmp_path)
    target.commit(Tick(1.0), [BeginGame("knack-das-wort", ("Anna", "Ben")),
                              Record({"event": "setup", "players": ["Anna", "Ben"]})])
    target.commit(Tick(2.0), [Record({"event": "word", "player": "Anna", "word": "HAUS"}), EndGame("Anna")])
    journal.close()
    return journal.path


class Box:
    """A publisher whose worker steps are called by the test, on a clock the test sets."""

    def __init__(self, journal: Path) -> None:
        self.now = 100.0
        self.publisher = Publisher(CONFIG, journal, timer=lambda: self.now, wall=lambda: 1_800_000_000.0 + self.now)
        self.client = FakeClient()
        self.publisher._client = self.client  # type: ignore[assignment]
        self.outbox = Outbox(journal)

    def take(self, kind: str, value: object = None, *, at: float | None = None) -> None:
        self.now = self.now if at is None else at
        self.publisher._take(kind, value, self.outbox)
        self.publisher._send_due()

    def games_sent(self) -> list[tuple[int, dict, int, bool]]:
        return self.client.on("games")

    def left(self) -> int:
        return len(self.outbox.pending())


def test_a_game_leaves_the_outbox_only_when_the_leagues_ack_names_it(tmp_path):
    box = Box(finished_game(tmp_path))
    [(game_id, _)] = box.outbox.pending()
    box.take("connected")
    assert box.games_sent() == []  # first the retained ack may say the league has it
    box.take("due", at=box.now + SETTLE_S)
    [(mid, message, qos, retain)] = box.games_sent()
    assert (message["id"], qos, retain) == (game_id, 1, False)
    assert message["sent_at"] == 1_800_000_000.0 + box.now
    schema("game").validate(message)
    box.take("puback", (mid, puback(0x10)))  # "No matching subscribers": nobody will get it
    box.take("puback", (mid, puback(0)))  # a late duplicate of an answer changes nothing either
    assert box.left() == 1 and box.publisher.acknowledged == 0
    box.take("ack", json.dumps({"venue": "cafe", "table": "7", "ids": ["another"]}).encode())
    box.take("ack", b"no json")
    assert box.left() == 1
    box.take("ack", json.dumps({"venue": "cafe", "table": "7", "ids": ["another", game_id]}).encode())
    assert box.left() == 0 and box.publisher.acknowledged == 1
    box.take("due", at=box.now + 3600)
    assert len(box.games_sent()) == 1  # nothing waits: nothing is sent again


def test_what_no_league_got_is_sent_again_with_a_backoff_and_a_queued_game_much_later(tmp_path):
    box = Box(finished_game(tmp_path))
    box.take("connected")
    start = box.now + SETTLE_S
    box.take("due", at=start)
    first, cap = RESEND_S
    times = [start]
    for _ in range(6):  # every try answered "no matching subscribers"
        mid = box.games_sent()[-1][0]
        box.take("puback", (mid, puback(0x10)))
        before = len(box.games_sent())
        box.take("due", at=box.publisher._wait_s() + box.now - 0.01)  # a moment early: not yet
        assert len(box.games_sent()) == before
        box.take("due", at=box.now + 0.01)
        assert len(box.games_sent()) == before + 1
        times.append(box.now)
    gaps = [round(b - a, 1) for a, b in pairwise(times)]
    assert gaps == [min(cap, first * 2 ** n) for n in range(6)]
    box.take("puback", (box.games_sent()[-1][0], puback(0)))  # a league's session queued it
    assert box.publisher._wait_s() == pytest.approx(QUEUED_RESEND_S, abs=cap)
    box.take("disconnected", None)
    box.take("connected", at=box.now + 10)  # a reconnect sends what waits, after the settle time
    box.take("due", at=box.now + SETTLE_S)
    assert len(box.games_sent()) == 8 and box.left() == 1


def test_a_refused_game_stays_and_a_new_game_is_sent_at_once(tmp_path):
    path = finished_game(tmp_path)
    box = Box(path)
    box.take("connected")
    box.take("due", at=box.now + SETTLE_S)
    box.take("puback", (box.games_sent()[-1][0], puback(0x87)))  # "Not authorized"
    assert box.left() == 1
    with sqlite3.connect(path) as db:  # the shell queues another game meanwhile
        db.execute("INSERT INTO outbox (id, game_id, payload, queued) SELECT 'second', game_id,"
                   " json_set(payload, '$.id', 'second'), queued"
                   " FROM outbox")
    box.take("outbox")
    assert [message["id"] for _, message, _, _ in box.games_sent()][-1] == "second"


def test_state_and_status_are_qos_0_retained():
    box = Box.__new__(Box)
    box.now = 0.0
    box.publisher = Publisher(CONFIG, None, timer=lambda: box.now)
    box.client = FakeClient()
    box.publisher._client = box.client  # type: ignore[assignment]
    box.outbox = None  # type: ignore[assignment]
    from firmware_host.core import app
    from firmware_host.core.settings import Settings

    state, _ = app.initial(Settings())
    box.publisher._take("state", state, None)
    box.publisher._take("connected", None, None)
    assert {(topic.rsplit("/", 1)[1], qos, retain) for topic, _, qos, retain in box.client.sent} == {
        ("status", 0, True), ("state", 0, True)}


def test_resends_forget_a_game_once_done():
    resends = Resends()
    resends.add(["a", "b"], 1.0)
    resends.add(["a"], 50.0)  # already waiting: keeps its time
    assert resends.due(1.0) == ["a", "b"] and resends.next_at() == 1.0
    resends.done("a")
    resends.sent("b", 1.0)
    assert resends.due(1.0) == [] and resends.next_at() == 1.0 + RESEND_S[0]
    resends.done("b")
    assert resends.next_at() is None


def test_an_ack_names_ids_or_nothing():
    assert ack_ids(b'{"ids": ["a", 3, "b"]}') == {"a", "b"}
    for bad in (b"", b"[]", b'{"ids": "a"}', b"\xff"):
        assert ack_ids(bad) == set()


# -- the league's side -------------------------------------------------------------------------------------


def league(tmp_path: Path) -> tuple[League, FakeClient]:
    config = LeagueConfig("mqtt://127.0.0.1:1", "cafe", "league", None, None, None)
    subject = League(config, "cafe", tmp_path / "league.sqlite", bind="127.0.0.1", port=0)
    client = FakeClient()
    subject.client = client  # type: ignore[assignment]
    subject._store = LeagueStore(tmp_path / "league.sqlite")
    return subject, client


def test_the_league_acknowledges_each_game_it_has_on_the_tables_retained_ack_topic(tmp_path):
    subject, client = league(tmp_path)
    games = [_example("quiddler", f"{n:04d}", table="3") for n in range(ACK_IDS + 5)]
    for game in games:
        subject._game("3", game)
    acks = client.on("ack")
    assert len(acks) == len(games) and all((qos, retain) == (1, True) for _, _, qos, retain in acks)
    assert [topic for topic, *_ in client.sent] == ["wordtable/cafe/3/ack"] * len(games)
    last = acks[-1][1]
    schema("ack").validate(last)
    assert last["ids"] == [game["id"] for game in games[-ACK_IDS:]]  # the latest, oldest first
    subject._game("3", games[0])  # an old game sent again: stored once, acknowledged again
    assert games[0]["id"] in client.on("ack")[-1][1]["ids"] and subject.stored == len(games)
    subject._game("4", {**games[1], "table": "3"})  # a game naming another table than its topic
    assert len(client.on("ack")) == len(games) + 1  # is dropped, not acknowledged
    subject._store.close()
