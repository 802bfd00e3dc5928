"""A chain of venues with real Mosquitto processes on 127.0.0.1: two venue brokers, each with its league
and boxes (the real shell on mock pins), bridged by the config `wordtable league bridge` writes to a
central broker with two central leagues. Venue cafe's bridge is cut for 120 s while its boxes play, and
one central league is away meanwhile: in the end each central league holds every game of every box once,
and its standings are the records scored directly. Plus the generated bridge and ACL text."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from firmware_host.config import LeagueConfig
from firmware_host.league.bridge import Chain, bridge_config, central_acl, write_bridge
from firmware_host.league.service import League
from firmware_host.league.store import LeagueStore
from tests.helpers.broker import Broker
from tests.helpers.netcut import NetCut
from tests.test_league import QUICK, _direct, standings_table
from tests.test_league_mqtt import Box, finished_records, playing, quick_reconnect, wait_for  # noqa: F401

CUT_S = 120


def test_the_bridge_config_sends_the_venues_table_topics_out_and_nothing_in(tmp_path):
    text = bridge_config("cafe", "mqtts://bridge-user:geheim@central.example:8884", ca_file=Path("/etc/ca.pem"))
    lines = text.splitlines()
    assert "address central.example:8884" in lines and "remote_username bridge-user" in lines
    assert "remote_password geheim" in lines and "bridge_cafile /etc/ca.pem" in lines
    assert "cleansession false" in lines  # the central broker keeps the bridge's queue while it is cut
    assert [line for line in lines if line.startswith("topic ")] == [
        "topic wordtable/cafe/+/games out 1", "topic wordtable/cafe/+/state out 0",
        "topic wordtable/cafe/+/status out 0"]
    path = write_bridge(tmp_path, "bar", "mqtt://central")
    assert path.name == "wordtable-bar.conf" and path.stat().st_mode & 0o777 == 0o640
    assert "address central:1883" in path.read_text() and "remote_username" not in path.read_text()
    acl = central_acl({"cafe": "bridge-user", "bar": None})
    assert "user bridge-user\ntopic write wordtable/cafe/#" in acl
    assert "user wordtable-bar\ntopic write wordtable/bar/#" in acl


def test_the_command_line_writes_the_bridge_and_prints_the_central_acl(tmp_path, capsys):
    from firmware_host.cli import main

    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    code = main(["league", "bridge", "--venue", "bar", "--central", "mqtt://central:1884", "--username", "b",
                 "--password-file", str(secret), "--out", str(tmp_path / "out")])
    assert code == 0
    text = (tmp_path / "out" / "wordtable-bar.conf").read_text()
    assert "remote_username b" in text and "remote_password s3cret" in text and "address central:1884" in text
    assert "user b\ntopic write wordtable/bar/#" in capsys.readouterr().out


def _venue_broker(directory: Path, venue: str, central_port: int) -> Broker:
    broker = Broker(directory)
    with broker.config.open("a", encoding="utf-8") as config:
        config.write(bridge_config(venue, f"mqtt://127.0.0.1:{central_port}", restart=(1, 3)))
    return broker.start()


def _box(directory: Path, broker: Broker, venue: str, table: str) -> Box:
    config = directory.with_suffix(".toml")
    config.write_text(QUICK + f'[league]\nbroker = "{broker.url}"\nvenue = "{venue}"\ntable = "{table}"\n',
                      encoding="utf-8")
    return Box(directory, config)


def _league(broker: Broker, venue: str, db: Path) -> League:
    league = League(LeagueConfig(broker.url, venue, "league", None, None, None), venue, db, bind="127.0.0.1",
                    port=0, reconnect=(1, 1))
    league.start()
    assert league.connected.wait(10), f"venue {venue}'s league did not connect"
    return league


def _count(db: Path) -> int:
    """The games in a league's file (read beside the league's own connection)."""
    store = LeagueStore(db)
    try:
        return store.count()
    finally:
        store.close()


def _chain(central: Broker, db: Path, instance: str) -> Chain:
    chain = Chain(LeagueConfig(central.url, "cafe", "league", None, None, None), ["cafe", "bar"], db,
                  bind="127.0.0.1", port=0, instance=instance, reconnect=(1, 1))
    chain.start()
    assert chain.wait_connected(10), f"central league {instance} did not connect"
    return chain


@pytest.mark.slow
def test_two_venues_bridged_to_a_central_broker_lose_and_double_nothing_with_a_bridge_cut_for_120_s(tmp_path):
    central = Broker(tmp_path / "central").start()
    cut = NetCut(central.port)  # venue cafe's bridge runs through it
    cafe = _venue_broker(tmp_path / "cafe", "cafe", cut.port)
    bar = _venue_broker(tmp_path / "bar", "bar", central.port)
    first = _chain(central, tmp_path / "central-1.sqlite", "one")
    second = _chain(central, tmp_path / "central-2.sqlite", "two")
    venue_leagues = [_league(cafe, "cafe", tmp_path / "cafe.sqlite"), _league(bar, "bar", tmp_path / "bar.sqlite")]
    boxes = {("cafe", "1"): _box(tmp_path / "cafe-1", cafe, "cafe", "1"),
             ("cafe", "2"): _box(tmp_path / "cafe-2", cafe, "cafe", "2"),
             ("bar", "1"): _box(tmp_path / "bar-1", bar, "bar", "1")}  # table 1 at both venues
    try:
        boxes["cafe", "1"].do(playing("quiddler.script"))
        boxes["bar", "1"].do(playing("knack-das-wort.script"))
        wait_for(lambda: _count(tmp_path / "central-1.sqlite") == 2 and _count(tmp_path / "central-2.sqlite") == 2,
                 30, "the first games in both central leagues")

        cut.cut()
        second.close()  # one central league away too (a hand-over: the other holds every game)
        cut_at = time.monotonic()
        boxes["cafe", "1"].do(playing("quiddler.script"))  # (the scripts start from a fresh box but Quiddler's)
        boxes["cafe", "2"].do(playing("perfektes-wort.script"))
        boxes["cafe", "2"].do(playing("quiddler.script"))
        boxes["bar", "1"].do(playing("quiddler.script"))
        wait_for(lambda: venue_leagues[0].stored == 4, 30, "cafe's games in cafe's own league")
        wait_for(lambda: _count(tmp_path / "central-1.sqlite") == 3, 30, "bar's game in the central league meanwhile")
        time.sleep(max(0.0, CUT_S - (time.monotonic() - cut_at)))
        assert _count(tmp_path / "central-1.sqlite") == 3, "nothing of cafe's reached the central broker in the cut"
        cut.restore()
        second = _chain(central, tmp_path / "central-2.sqlite", "two")  # its session kept what came meanwhile
        records = [record for box in boxes.values() for record in box.do(finished_records)]
        assert len(records) == 6
        wait_for(lambda: _count(tmp_path / "central-1.sqlite") == 6 and _count(tmp_path / "central-2.sqlite") == 6,
                 60, "every game in both central leagues")
        time.sleep(1)  # anything doubled would arrive now
    finally:
        for box in boxes.values():
            box.close()
        for league in [*venue_leagues, first, second]:
            league.close()
        cut.close()
        for broker in (cafe, bar, central):
            broker.stop()
    for db in ("central-1.sqlite", "central-2.sqlite"):
        store = LeagueStore(tmp_path / db)
        games = list(store.games())
        assert sorted(game["record"] for game in games) == sorted(records), db
        assert {(game["venue"], game["table"]) for game in games} == {("cafe", "1"), ("cafe", "2"), ("bar", "1")}
        assert standings_table(store.standings()) == _direct(records), db
        store.close()


def test_the_chain_command_wants_the_central_broker_and_good_venue_names(capsys):
    from firmware_host.cli import main

    assert main(["league", "chain", "--venues", "cafe", "bar"]) == 2
    assert "name the central broker" in capsys.readouterr().err
    assert main(["league", "chain", "--broker", "mqtt://127.0.0.1:1", "--venues", "ca fe"]) == 2
    assert "'ca fe' is no topic name" in capsys.readouterr().err
