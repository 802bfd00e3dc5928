"""`wordtable doctor [--profile NAME|FILE] [--config FILE] [--json]`: check the board, the buses, the card
readers, the service and the configuration; print each check with ✓ / ✗ (! a warning, – not checked) and,
under a failure, what to do. Exit 0 when nothing failed, 1 otherwise."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_host.config import DEFAULT_CONFIG_PATH
from firmware_host.doctor import diagnose, exit_code, to_json, to_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default="default", metavar="NAME|FILE",
                        help="board profile: a bundled name (default, sim) or a TOML file (default: default)")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help=f"user config TOML (default: {DEFAULT_CONFIG_PATH} when it exists)")
    parser.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                        help="where the journal is (default: the config's state_dir; ./sim-state on a mock board)")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")


def run(args: argparse.Namespace) -> int:
    checks = diagnose(args.profile, args.config, state_dir=args.state_dir)
    sys.stdout.write(to_json(checks) if args.json else to_text(checks))
    return exit_code(checks)
