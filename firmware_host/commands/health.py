"""`wordtable health --state-dir COPY [--config FILE]`: the health check `wordtable update` runs with a new
release before it switches (firmware_host/update/health.py): start on mock pins with a copy of the state
directory, the journal opened and replayed, the first frame drawn. Exit 0 and a line beginning "healthy:"
when all of it worked; 1 and the reason otherwise (2: the config cannot be used)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from firmware_host.commands.check_config import report
from firmware_host.config import DEFAULT_CONFIG_PATH, ResolveError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state-dir", type=Path, required=True,
                        help="a COPY of the state directory (it is written: never the box's own)")
    parser.add_argument("--config", type=Path, help=f"user config TOML (default: {DEFAULT_CONFIG_PATH} if present)")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    from firmware_host.update.health import check

    try:
        health = check(args.state_dir, args.config)
    except ResolveError as exc:
        return report(exc, "wordtable health")
    except Exception as exc:  # the check's whole point: any failure to start is an answer, not a crash
        logging.getLogger("wordtable.health").exception("the start failed")
        print(f"unhealthy: the start failed: {type(exc).__name__}: {exc}")
        return 1
    print(health.text if health.ok else f"unhealthy: {health.text}")
    return 0 if health.ok else 1
