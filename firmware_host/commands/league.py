"""`wordtable league`: the venue's league (docs/league.md) — subscribes to every table of a venue on its
MQTT broker, keeps each finished game once in its own SQLite file, re-scores it and serves the live board.

    wordtable league --broker mqtt://127.0.0.1 --venue cafe [--db league.sqlite] [--port 8090]
    wordtable league export --db league.sqlite --out DIR [--evening]
    wordtable league acl --venue cafe --tables 1 2 3 [--out systemd/league] [--broker mqtt://HOST]

`--venue`, `--broker` and `--db` may stand before the action or after it.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import tomllib
from pathlib import Path

from firmware_host.commands import league_chain
from firmware_host.config import LeagueConfig
from firmware_host.core.i18n import DEFAULT_LANGUAGE, LANGUAGES
from firmware_host.league.topics import TopicError, check_level, parse_broker

DEFAULT_DB = Path("league.sqlite")


def _shared(parser: argparse.ArgumentParser, *, action: bool) -> None:
    """The options both the league and its actions take; an action's given value wins, its defaults are the
    league's (SUPPRESS)."""
    default = (lambda value: argparse.SUPPRESS) if action else (lambda value: value)
    parser.add_argument("--broker", default=default(None),
                        help="the broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    parser.add_argument("--venue", default=default("cafe"), help="the venue (default: cafe)")
    parser.add_argument("--db", type=Path, default=default(None),
                        help=f"the league's SQLite file (default: $STATE_DIRECTORY/{DEFAULT_DB} or ./{DEFAULT_DB})")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _shared(parser, action=False)
    parser.add_argument("--bind", default="0.0.0.0", help="the board's address (default: 0.0.0.0)")
    parser.add_argument("--port", type=int, default=8090, help="the board's port (default: 8090)")
    parser.add_argument("--username", help="the league's user on the broker")
    parser.add_argument("--password-file", type=Path,
                        help="a file holding the league's password, or its credentials file from `league acl`")
    parser.add_argument("--ca-file", type=Path, help="CA certificate for mqtts:// (default: the system's)")
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="the board's language")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    export = actions.add_parser("export", help="write the season as CSV and JSON Lines")
    _shared(export, action=True)
    export.add_argument("--out", type=Path, default=Path("."), help="the directory to write to (default: .)")
    export.add_argument("--evening", action="store_true", help="only tonight's games")
    acl = actions.add_parser("acl", help="per-table credentials: a Mosquitto ACL, password file and config")
    _shared(acl, action=True)
    acl.add_argument("--tables", nargs="+", required=True, help="the venue's table names")
    acl.add_argument("--out", type=Path, default=Path("systemd/league"),
                     help="where to write (default: systemd/league)")
    acl.add_argument("--league-user", help="the league's user name (default: VENUE-league)")
    league_chain.add_actions(actions)


def _db(args: argparse.Namespace) -> Path:
    if args.db is not None:
        return Path(args.db)
    state = os.environ.get("STATE_DIRECTORY")
    return Path(state.split(":")[0]) / DEFAULT_DB if state else DEFAULT_DB


def run(args: argparse.Namespace) -> int:
    try:
        check_level(args.venue)
        if args.broker is not None:
            parse_broker(args.broker)
    except TopicError as exc:
        print(f"wordtable league: {exc}", file=sys.stderr)
        return 2
    if args.action == "export":
        return _export(args)
    if args.action == "acl":
        return _acl(args)
    if args.action in league_chain.ACTIONS:
        return league_chain.run(args)
    return _serve(args)


def _export(args: argparse.Namespace) -> int:
    from firmware_host.league.export import export
    from firmware_host.league.store import LeagueStore, evening_start

    path = _db(args)
    if not path.is_file():
        print(f"wordtable league export: no league file at {path}", file=sys.stderr)
        return 2
    store = LeagueStore(path)
    try:
        csv_path, jsonl_path, count = export(store, args.out, evening_start() if args.evening else None)
    finally:
        store.close()
    print(f"{count} games: {csv_path}, {jsonl_path}")
    return 0


def _acl(args: argparse.Namespace) -> int:
    from firmware_host.league.acl import ACL_NAME, BROKER_GROUP, CONF_NAME, PASSWD_NAME, write_acl

    try:
        passwords, readable = write_acl(args.out, args.venue, args.tables, args.broker or "mqtt://league.local",
                                        args.league_user)
    except TopicError as exc:
        print(f"wordtable league acl: {exc}", file=sys.stderr)
        return 2
    print(f"{len(passwords)} users; {args.out / ACL_NAME}, {args.out / PASSWD_NAME}, {args.out / CONF_NAME}; "
          f"each box's [league] lines in {args.out / 'credentials'}/")
    if not readable:
        print(f"the broker's user cannot read them yet: sudo chgrp {BROKER_GROUP} {args.out / ACL_NAME} "
              f"{args.out / PASSWD_NAME}", file=sys.stderr)
    return 0


def read_password(path: Path, username: str | None) -> tuple[str | None, str]:
    """The password in `path`: a bare password, or the `[league]` lines `league acl` wrote (its user name
    then stands in for a missing `--username`). Raises `OSError`."""
    text = path.read_text(encoding="utf-8")
    try:
        league = tomllib.loads(text).get("league")
    except tomllib.TOMLDecodeError:
        league = None
    if isinstance(league, dict) and isinstance(league.get("password"), str):
        user = league.get("username")
        return username or (user if isinstance(user, str) else None), league["password"]
    return username, text.strip()


def _serve(args: argparse.Namespace) -> int:
    from firmware_host.league.service import League

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if args.broker is None:
        print("wordtable league: name the broker (--broker mqtt://HOST)", file=sys.stderr)
        return 2
    username, password = args.username, None
    if args.password_file is not None:
        try:
            username, password = read_password(args.password_file, username)
        except OSError as exc:
            print(f"wordtable league: cannot read {args.password_file}: {exc.strerror}", file=sys.stderr)
            return 2
    config = LeagueConfig(args.broker, args.venue, "league", username, password, args.ca_file)
    league = League(config, args.venue, _db(args), bind=args.bind, port=args.port, lang=args.lang)
    try:
        url = league.start()
    except OSError as exc:
        print(f"wordtable league: cannot serve the board on {args.bind}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    print(f"league {args.venue}: board at {url}", flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    league.close()
    return 0
