"""`wordtable check-config [--profile NAME|FILE] [--config FILE]`: validate the board profile and the
user config together; print the resolved configuration (exit 0) or every error by key (stderr, exit 2).
On a mock board (`--profile sim`) it prints what `wordtable sim` runs with: the table page on 127.0.0.1
unless the config names `[page] bind` (`simulator.sim_page`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_host.config import ResolveError, dump, resolve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        default="default",
        metavar="NAME|FILE",
        help="board profile: a bundled name (default, sim) or a TOML file (default: default)",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="user config TOML (default: /etc/wordtable/config.toml when it exists)",
    )


MESSAGE_LIMIT = 300  # characters of one message: a value quoted in it is never echoed whole


def report(exc: ResolveError, prog: str) -> int:
    """Print every error as `prog: FILE: key: message` on stderr (key and message each cut to
    `MESSAGE_LIMIT` characters); returns the exit code 2."""
    for where, message in exc.errors:
        print(f"{prog}: {_cut(where)}: {_cut(message)}", file=sys.stderr)
    count = len(exc.errors)
    print(f"{prog}: {count} error{'s' if count != 1 else ''}", file=sys.stderr)
    return 2


def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def run(args: argparse.Namespace) -> int:
    try:
        resolved = resolve(args.profile, args.config)
    except ResolveError as exc:
        return report(exc, "wordtable check-config")
    if resolved.profile.board.pin_factory == "mock":
        from firmware_host.simulator import sim_page

        resolved = sim_page(resolved)
    sys.stdout.write(dump(resolved))
    return 0
