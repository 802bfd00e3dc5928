"""`wordtable wifi`: the box's Wi-Fi (firmware_host/network/). `watch` is wordtable-wifi.service's loop (root);
`add SSID` asks it to add a home network and join it (the password from standard input or `--password`),
`ap` to open the box's access point now, `status` prints what it last published."""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import sys
from dataclasses import asdict
from pathlib import Path

from firmware_host.network import files
from firmware_host.network.decide import Policy
from firmware_host.paths import state_dir

DEFAULTS = Policy()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state-dir", type=Path, help="the state directory (default: the service's)")
    actions = parser.add_subparsers(dest="action", required=True)
    watch = actions.add_parser("watch", help="keep the Wi-Fi on a known network or the box's access point")
    watch.add_argument("--join-timeout", type=float, default=DEFAULTS.join_timeout_s,
                       help="seconds on no network before the access point opens (default: %(default)s)")
    watch.add_argument("--probe-after", type=float, default=DEFAULTS.probe_after_s,
                       help="seconds of an empty access point before it looks for a known network again")
    watch.add_argument("--box-id", type=Path, action="append", help=argparse.SUPPRESS)  # files.BOX_IDS
    add = actions.add_parser("add", help="add a home network and join it")
    add.add_argument("ssid")
    add.add_argument("--password", help="its WPA2 password (default: asked, or read from standard input)")
    actions.add_parser("ap", help="open the box's access point now")
    actions.add_parser("status", help="print the Wi-Fi's status as JSON")


def run(args: argparse.Namespace) -> int:
    directory = state_dir(args.state_dir)
    if args.action == "watch":
        from firmware_host.network.watcher import Watcher

        logging.basicConfig(level=logging.INFO, format="%(message)s")
        Watcher(directory, files.box_id(tuple(args.box_id or files.BOX_IDS)),
                Policy(args.join_timeout, args.probe_after)).run()
        return 0
    if args.action == "add":
        password = args.password
        if password is None:
            password = getpass.getpass(f"password of {args.ssid}: ") if sys.stdin.isatty() else sys.stdin.readline()
        try:
            files.ask_to_add(directory, args.ssid, password.rstrip("\n"))
        except ValueError as exc:
            print(f"wordtable wifi: {exc}", file=sys.stderr)
            return 2
        print(f"asked the box to join {args.ssid}")
        return 0
    if args.action == "ap":
        files.ask_for_ap(directory)
        print("asked the box to open its access point")
        return 0
    status = files.read_status(directory)
    print(json.dumps(asdict(status) if status else None))
    return 0 if status else 1
