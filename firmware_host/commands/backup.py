"""`wordtable backup FILE`: the box's data in one file (firmware_host/backup.py: the journal's games, settings
and roster, the kept card tables, a manifest with a SHA-256 per member). Safe beside the running service
(run it as the service's user: `sudo -u wordtable wordtable backup /tmp/box.wtbackup`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_host.backup import BackupError, write_backup
from firmware_host.config import ConfigError, load_config
from firmware_host.paths import state_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="the backup to write (replaced if it exists)")
    parser.add_argument(
        "--state-dir", type=Path, default=None, metavar="DIR",
        help="where the journal is (default: $STATE_DIRECTORY, else /var/lib/wordtable, else ./sim-state)",
    )
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help="user config whose [league] venue/table names the box in the manifest "
                             "(default: /etc/wordtable/config.toml if present)")


def run(args: argparse.Namespace) -> int:
    try:
        league = load_config(args.config).league
    except ConfigError as exc:
        print(f"wordtable backup: {exc}", file=sys.stderr)
        return 2
    box = f"{league.venue}/{league.table}" if league.broker else None
    try:
        manifest = write_backup(state_dir(args.state_dir), args.file, box=box)
    except BackupError as exc:
        print(f"wordtable backup: {exc}", file=sys.stderr)
        return 1
    kept = len(manifest.members) - 1
    print(f"wrote {args.file}: {manifest.games} games, {kept} kept item{'' if kept == 1 else 's'}")
    return 0
