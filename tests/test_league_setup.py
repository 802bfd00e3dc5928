"""Setting a league up as docs/league.md says: the commands it shows run as shown, the broker's files
(`wordtable league acl`: ACL, password file, config snippet, each box's credentials) and the league's
password file in either form."""

from __future__ import annotations

import argparse
import base64
import grp
import hashlib
import os
import re
import shlex
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.commands import league as league_command
from firmware_host.config import resolve
from firmware_host.league.acl import acl_text, broker_conf, league_user, password_line, table_user, write_acl
from firmware_host.league.store import LeagueStore
from firmware_host.league.topics import TopicError
from tests.test_league import RECORDED, _example

DOCS = Path(__file__).resolve().parent.parent / "docs"


def documented_commands() -> list[str]:
    """The `wordtable league` lines of docs/league.md's command block (continued lines joined)."""
    text = (DOCS / "league.md").read_text(encoding="utf-8")
    block = text.split("## `wordtable league`", 1)[1].split("```", 2)[1]
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip().startswith("wordtable")]


def as_run(line: str, *, optional: bool, paths: dict[str, str]) -> list[str]:
    """A documented line as argv for `main`: its `[optional parts]` dropped or kept, its placeholders
    replaced by `paths`."""
    line = re.sub(r"\[([^]]*)\]", (lambda m: m.group(1)) if optional else "", line)
    words = shlex.split(line)[1:]
    return [paths.get(word, word) for word in words]


def acl_entries(text: str) -> dict[str, set[tuple[str, str]]]:
    """The ACL as user -> {(access, topic)}."""
    users: dict[str, set[tuple[str, str]]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("user "):
            current = users.setdefault(line.split(" ", 1)[1], set())
        elif line.startswith("topic ") and current is not None:
            _, access, name = line.split(" ")
            current.add((access, name))
    return users


def test_the_documented_export_and_acl_commands_run_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "league.sqlite"
    store = LeagueStore(db)
    for n, game in enumerate(RECORDED):
        store.ingest(_example(game, f"g{n}"))
    store.close()
    lines = documented_commands()
    export = next(line for line in lines if line.startswith("wordtable league export"))
    acl = next(line for line in lines if line.startswith("wordtable league acl"))
    for optional in (False, True):
        out = tmp_path / f"out-{optional}"
        argv = as_run(export, optional=optional, paths={"league.sqlite": str(db), "DIR": str(out)})
        assert main(argv) == 0, argv
        assert capsys.readouterr().out.startswith("4 games:")  # --evening: all came tonight
        assert len((out / "league-games.jsonl").read_text().splitlines()) == 4
        argv = as_run(acl, optional=optional, paths={"DIR": str(tmp_path / f"acl-{optional}")})
        assert main(argv) == 0, argv
        written = tmp_path / f"acl-{optional}" if optional else tmp_path / "systemd" / "league"
        assert "11 users" in capsys.readouterr().out
        assert {path.name for path in (written / "credentials").iterdir()} == {
            "cafe-league.toml", *(f"cafe.{n}.toml" for n in range(1, 11))}
        assert acl_entries((written / "wordtable.acl").read_text()).keys() >= {"cafe-league", "cafe.10"}


def test_the_documented_league_command_parses_and_takes_the_credentials_file_acl_wrote(tmp_path):
    passwords, _ = write_acl(tmp_path / "acl", "cafe", ["1"], "mqtt://127.0.0.1")
    credentials = tmp_path / "acl" / "credentials" / "cafe-league.toml"
    serve = next(line for line in documented_commands() if " --password-file " in line)
    for optional in (False, True):
        parser = argparse.ArgumentParser()
        league_command.add_arguments(parser)
        args = parser.parse_args(as_run(serve, optional=optional, paths={})[1:])  # less "league"
        assert (args.broker, args.venue, args.action) == ("mqtt://127.0.0.1", "cafe", None)
    assert league_command.read_password(credentials, None) == ("cafe-league", passwords["cafe-league"])
    assert league_command.read_password(credentials, "other") == ("other", passwords["cafe-league"])
    bare = tmp_path / "league.pass"
    bare.write_text("geheim\n")
    assert league_command.read_password(bare, "cafe-league") == ("cafe-league", "geheim")


def test_the_venue_and_the_file_may_come_before_the_action_too(tmp_path, capsys):
    db = tmp_path / "league.sqlite"
    LeagueStore(db).close()
    assert main(["league", "--db", str(db), "export", "--out", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().out.startswith("0 games:")
    assert main(["league", "--venue", "bar", "acl", "--tables", "1", "--out", str(tmp_path / "acl")]) == 0
    assert (tmp_path / "acl" / "credentials" / "bar.1.toml").is_file()
    assert main(["league", "--venue", "bar", "acl", "--venue", "pub", "--tables", "1", "--out",
                 str(tmp_path / "acl2")]) == 0  # the action's own value wins
    assert (tmp_path / "acl2" / "credentials" / "pub.1.toml").is_file()
    assert main(["league", "acl", "--venue", "ca/fe", "--tables", "1"]) == 2
    assert "no topic name" in capsys.readouterr().err
    assert main(["league", "export", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert main(["league"]) == 2  # serving needs a broker


def test_the_password_file_holds_mosquittos_pbkdf2_hashes():
    line = password_line("cafe.1", "geheim", salt=b"0123456789ab")
    user, rest = line.split(":")
    _, kind, rounds, salt, digest = rest.split("$")
    assert (user, kind, rounds) == ("cafe.1", "7", "101")
    assert base64.b64decode(digest) == hashlib.pbkdf2_hmac("sha512", b"geheim", base64.b64decode(salt), 101)


def test_each_table_writes_its_own_topics_and_reads_its_own_acks_the_league_reads_them_and_writes_acks():
    users = acl_entries(acl_text("cafe", ["1", "2"]))
    assert users == {
        "cafe-league": {("read", "wordtable/cafe/+/state"), ("read", "wordtable/cafe/+/status"),
                        ("read", "wordtable/cafe/+/games"), ("write", "wordtable/cafe/+/ack")},
        **{f"cafe.{n}": {("write", f"wordtable/cafe/{n}/state"), ("write", f"wordtable/cafe/{n}/status"),
                         ("write", f"wordtable/cafe/{n}/games"), ("read", f"wordtable/cafe/{n}/ack")}
           for n in (1, 2)},
    }


@pytest.mark.parametrize(("one", "other"), [(("a-b", "c"), ("a", "b-c")), (("a", "b"), ("b", "a")),
                                            (("cafe", "league"), ("cafe", "x"))])
def test_user_names_differ_across_venues_and_from_the_leagues(one, other):
    names = [table_user(*one), table_user(*other), league_user(one[0]), league_user(other[0])]
    assert len(set(names)) == len(set([one, other])) + len({one[0], other[0]})


def test_acl_keeps_the_passwords_given_out_and_the_broker_can_read_its_files(tmp_path):
    first, _ = write_acl(tmp_path, "cafe", ["1", "2"], "mqtt://10.0.0.2")
    second, readable = write_acl(tmp_path, "cafe", ["1", "2", "3"], "mqtt://10.0.0.2")
    assert {k: second[k] for k in first} == first and "cafe.3" in second
    box = resolve("sim", tmp_path / "credentials" / "cafe.3.toml", environ={}).config.league
    assert (box.table, box.username, box.password) == ("3", "cafe.3", second["cafe.3"])
    assert (tmp_path / "credentials" / "cafe.3.toml").stat().st_mode & 0o777 == 0o600
    for name in ("wordtable.passwd", "wordtable.acl"):
        info = (tmp_path / name).stat()
        assert info.st_mode & 0o777 == 0o640
        try:
            group = grp.getgrnam("mosquitto").gr_gid
        except KeyError:
            continue
        if os.geteuid() == 0:
            assert readable and (info.st_uid, info.st_gid) == (0, group)
    with pytest.raises(TopicError):
        write_acl(tmp_path, "cafe", ["1"], "mqtt://10.0.0.2", league="cafe.league")


def conf_settings(text: str) -> dict[str, str]:
    return dict(line.split(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))


def test_the_broker_config_listens_where_the_broker_url_says_and_is_sized_for_the_venue(tmp_path):
    lan = conf_settings(broker_conf(tmp_path, "mqtt://192.168.1.10:1884", 1000))
    assert lan["listener"] == "1884"
    assert int(lan["max_queued_messages"]) >= 1000 * 5  # a league away 300 s: five games a table
    assert int(lan["max_packet_size"]) >= 1024 * 1024 and int(lan["max_inflight_messages"]) > 20
    assert "autosave_interval" not in lan and "autosave_on_changes" not in lan and lan["persistence"] == "true"
    assert lan["password_file"] == str(tmp_path.resolve() / "wordtable.passwd")
    assert conf_settings(broker_conf(tmp_path, "mqtt://127.0.0.1:2883", 3))["listener"] == "2883 127.0.0.1"
    assert int(conf_settings(broker_conf(tmp_path, "mqtt://h", 3))["max_queued_messages"]) == 1000
    secure = conf_settings(broker_conf(tmp_path, "mqtts://league.example", 3))
    assert secure["listener"] == "8883" and "certfile" in secure and "keyfile" in secure
