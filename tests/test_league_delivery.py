"""The league loses nothing (issue 39's acceptance): Debian's Mosquitto runs the config `wordtable league acl`
generated for a venue of 1,013 tables; 1,000 synthetic tables keep publishing their state, a game is
finished before any league ever subscribed, and the league is away for 300 s while 12 boxes (the real shell
and publisher on mock pins) play. Every finished game ends up in the league exactly once, and no game ever
leaves a box's outbox before the league has stored it. The figures are printed."""

from __future__ import annotations

import random
import shutil
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_host.commands.league import read_password
from firmware_host.config import LeagueConfig
from firmware_host.league import outbox as outbox_module
from firmware_host.league.acl import CONF_NAME, write_acl
from firmware_host.league.service import League
from firmware_host.league.store import LeagueStore
from tests.helpers.league_broker import GeneratedBroker, broker_directory
from tests.helpers.ports import free_port
from tests.helpers.synthetic_tables import SyntheticChild
from tests.test_league import QUICK
from tests.test_league_mqtt import KINDS, Box, finished_records, outbox_left, play, wait_for

pytestmark = pytest.mark.slow

AWAY_S = 300.0
BOXES = 12
SYNTHETIC = 1000


class StoredFirst:
    """Wraps `Outbox.delivered`: each game leaving an outbox must already be in the league's file."""

    def __init__(self, league_db: Path) -> None:
        self.league_db = league_db
        self.deleted: list[str] = []
        self.too_early: list[str] = []
        self._lock = threading.Lock()

    def wrap(self, delivered: Callable[[outbox_module.Outbox, str], bool]) -> Callable[..., bool]:
        def checked(outbox: outbox_module.Outbox, game_id: str) -> bool:
            stored = False
            if self.league_db.exists():
                with sqlite3.connect(self.league_db, timeout=10) as db:
                    stored = db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None
            with self._lock:
                (self.deleted if stored else self.too_early).append(game_id)
            return delivered(outbox, game_id)

        return checked


def start_league(broker_url: str, credentials: Path, db: Path) -> League:
    username, password = read_password(credentials, None)
    config = LeagueConfig(broker_url, "cafe", "league", username, password, None)
    league = League(config, "cafe", db, bind="127.0.0.1", port=0, reconnect=(1, 5))
    league.start()
    assert league.connected.wait(30), "the league did not connect"
    return league


def box_config(path: Path, credentials: Path) -> Path:
    path.write_text(QUICK + credentials.read_text(), encoding="utf-8")
    return path


def playing_until(end: float, first: str, pause: tuple[float, float]) -> Callable:
    """Games one after the other with a pause between, the last one started before `end`: `first`, then
    Quiddler (its script starts from whatever the game before left)."""

    def job(sim) -> int:
        played = 0
        time.sleep(random.uniform(0, pause[0]))  # the tables do not all start at once
        while time.monotonic() + pause[1] + 20 < end:
            play(sim, first if played == 0 else "quiddler.script")
            played += 1
            time.sleep(random.uniform(*pause))
        return played

    return job


def test_the_league_away_300_s_under_1000_tables_and_a_game_before_any_league_every_game_once(monkeypatch, capsys):
    began = time.monotonic()
    root = broker_directory()
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    boxes_tables = [f"b{n}" for n in range(1, BOXES + 1)]
    synthetic = [f"s{n:04d}" for n in range(1, SYNTHETIC + 1)]
    passwords, readable = write_acl(root / "acl", "cafe", ["early", *boxes_tables, *synthetic], url)
    assert readable, "the broker's user must read the ACL and the password file"
    credentials = root / "acl" / "credentials"
    league_db = root / "league.sqlite"
    checker = StoredFirst(league_db)
    monkeypatch.setattr(outbox_module.Outbox, "delivered", checker.wrap(outbox_module.Outbox.delivered))

    broker = GeneratedBroker(root / "broker", root / "acl" / CONF_NAME, port).start()
    everyone: list[Box] = []
    tables: SyntheticChild | None = None
    states = 0
    league: League | None = None
    try:
        tables = SyntheticChild(port, {table: passwords[f"cafe.{table}"] for table in synthetic}, root)
        everyone = [Box(root / table, box_config(root / f"{table}.toml", credentials / f"cafe.{table}.toml"))
                    for table in ["early", *boxes_tables]]
        early, boxes = everyone[0], everyone[1:]

        early.do(lambda sim: play(sim, "knack-das-wort.script"))  # no league has ever subscribed
        wait_for(lambda: early.do(lambda sim: sim.appliance.league.sent) >= 1, 30, "the early game sent")
        time.sleep(2)  # its PUBACK said "no matching subscribers"
        assert early.do(outbox_left) == 1, "a game no league got must stay in the outbox"

        league = start_league(url, credentials / "cafe-league.toml", league_db)
        wait_for(lambda: league.stored == 1 and early.do(outbox_left) == 0, 90, "the early game in the league")
        wait_for(lambda: len(league.tables) >= SYNTHETIC, 60, "every synthetic table on the board")
        league.close()  # the league goes away; the boxes play on

        away_start = time.monotonic()
        away_end = away_start + AWAY_S
        answers = [box.start(playing_until(away_end, KINDS[n % len(KINDS)], (15, 45)))
                   for n, box in enumerate(boxes)]
        played = []
        for answer in answers:
            ok, value = answer.get(timeout=AWAY_S + 120)
            assert ok, value
            played.append(value)
        waiting = sum(box.do(outbox_left) for box in boxes)
        finished = sum(played)
        assert waiting == finished, "with the league away, every finished game waits in its box's outbox"
        time.sleep(max(0.0, away_end - time.monotonic()))

        back = time.monotonic()
        league = start_league(url, credentials / "cafe-league.toml", league_db)
        wait_for(lambda: sum(box.do(outbox_left) for box in everyone) == 0, 120, "every outbox emptied")
        drained = time.monotonic() - back
        time.sleep(2)  # any repeat still under way arrives
        expected = sorted((table, record) for table, box in zip(["early", *boxes_tables], everyone, strict=True)
                          for record in box.do(finished_records))
        store = LeagueStore(league_db)
        stored = sorted((game["table"], game["record"]) for game in store.games())
        store.close()
        duplicated, lost = Counter(stored) - Counter(expected), Counter(expected) - Counter(stored)
        received = league.received
        dropped = broker.log().count("Outgoing messages are being dropped")
        states, tables = tables.close(), None
        with capsys.disabled():
            print(f"\nleague away {AWAY_S:.0f} s, {SYNTHETIC} synthetic tables ({states} states), "
                  f"{BOXES} boxes: games sent {len(expected)} ({finished} while away), stored {len(stored)}, "
                  f"duplicated {duplicated.total()}, lost {lost.total()}, "
                  f"repeats the league got {received - league.stored}, outbox deletions before storage "
                  f"{len(checker.too_early)} (after {len(checker.deleted)}), broker drops {dropped}; "
                  f"all in {drained:.1f} s after the league came back, {time.monotonic() - began:.0f} s in all")
        assert finished >= BOXES
        assert stored == expected  # every game, each exactly once
        assert checker.too_early == [] and len(checker.deleted) == len(expected)
        assert dropped == 0
    finally:
        for box in everyone:
            box.close()
        if tables is not None:
            tables.close()
        if league is not None:
            league.close()
        broker.stop()
        shutil.rmtree(root, ignore_errors=True)
