"""`wordtable league bridge` and `wordtable league chain`: a chain of venues (docs/league.md "Chain of
venues"; the code is firmware_host/league/bridge.py).

    wordtable league bridge --venue cafe --central mqtt://central.example:1883 [--username U]
                            [--password-file F] [--out systemd/league]
    wordtable league chain --broker mqtt://central.example --venues cafe bar [--db chain.sqlite]
                           [--port 8090] [--instance central]
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from firmware_host.config import LeagueConfig
from firmware_host.league.topics import TopicError, parse_broker

ACTIONS = ("bridge", "chain")
DEFAULT_DB = Path("chain.sqlite")


def add_actions(actions: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The two actions on `wordtable league`'s action parser. Options the league itself has too are
    SUPPRESSed here, so one given before the action is kept."""
    keep = argparse.SUPPRESS
    bridge = actions.add_parser("bridge", help="bridge a venue's Mosquitto to the chain's central broker")
    bridge.add_argument("--venue", required=True, help="the venue whose tables are bridged")
    bridge.add_argument("--central", required=True, help="the central broker: mqtt[s]://HOST[:PORT]")
    bridge.add_argument("--username", default=keep, help="the bridge's user on the central broker")
    bridge.add_argument("--password-file", type=Path, default=keep, help="a file holding its password")
    bridge.add_argument("--ca-file", type=Path, default=keep,
                        help="CA certificate for mqtts:// (default: the system's)")
    bridge.add_argument("--out", type=Path, default=Path("systemd/league"),
                        help="where to write the bridge's .conf (default: systemd/league)")
    chain = actions.add_parser("chain", help="the central league of a chain of venues")
    chain.add_argument("--broker", default=keep, help="the central broker: mqtt[s]://HOST[:PORT]")
    chain.add_argument("--venues", nargs="+", required=True, help="the chain's venues")
    chain.add_argument("--db", type=Path, default=keep, help=f"the chain's SQLite file (default: ./{DEFAULT_DB})")
    chain.add_argument("--port", type=int, default=keep, help="the first venue's board port; the next venue's +1")
    chain.add_argument("--instance", default="central",
                       help="this central league's name: a second one at the same time takes another")


def run(args: argparse.Namespace) -> int:
    try:
        return _bridge(args) if args.action == "bridge" else _chain(args)
    except TopicError as exc:
        print(f"wordtable league {args.action}: {exc}", file=sys.stderr)
        return 2


def _password(args: argparse.Namespace) -> str | None:
    path = getattr(args, "password_file", None)
    return None if path is None else Path(path).read_text(encoding="utf-8").strip()


def _bridge(args: argparse.Namespace) -> int:
    from firmware_host.league.bridge import central_acl, write_bridge

    user = getattr(args, "username", None)
    path = write_bridge(args.out, args.venue, args.central, username=user, password=_password(args),
                        ca_file=getattr(args, "ca_file", None))
    print(f"{path}: include it in venue {args.venue}'s mosquitto.conf; the central broker's ACL wants:")
    print(central_acl({args.venue: user or parse_broker(args.central).username}), end="")
    return 0


def _chain(args: argparse.Namespace) -> int:
    from firmware_host.league.bridge import Chain

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    broker = getattr(args, "broker", None)
    if broker is None:
        print("wordtable league chain: name the central broker (--broker mqtt://HOST)", file=sys.stderr)
        return 2
    config = LeagueConfig(broker, args.venues[0], "league", getattr(args, "username", None), _password(args),
                          getattr(args, "ca_file", None))
    chain = Chain(config, args.venues, getattr(args, "db", None) or DEFAULT_DB, bind=args.bind,
                  port=getattr(args, "port", 8090), lang=args.lang, instance=args.instance)
    try:
        urls = chain.start()
    except OSError as exc:
        print(f"wordtable league chain: cannot serve the boards: {exc.strerror or exc}", file=sys.stderr)
        return 1
    for venue, url in zip(args.venues, urls, strict=False):
        print(f"chain {args.instance}: venue {venue}'s board at {url}", flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    chain.close()
    return 0
