"""`wordtable restore FILE [--replace]`: a backup (`wordtable backup`) put into the state directory. A
damaged or foreign file, or a state directory that already holds a box's data (without `--replace`), is
refused with exit code 1 and nothing changed; `--replace` moves that data aside to `replaced-<time>/`.
Stop the service first (`sudo systemctl stop wordtable`): it holds the journal open. The table page's
upload does this by itself (the restore waits for the service's restart)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_host.backup import BackupError, restore_backup
from firmware_host.paths import state_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="the backup to restore")
    parser.add_argument(
        "--state-dir", type=Path, default=None, metavar="DIR",
        help="where to restore to (default: $STATE_DIRECTORY, else /var/lib/wordtable, else ./sim-state)",
    )
    parser.add_argument("--replace", action="store_true",
                        help="replace the box's data there (it is moved aside to replaced-<time>/, not deleted)")


def run(args: argparse.Namespace) -> int:
    directory = state_dir(args.state_dir)
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        print(f"wordtable restore: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        restored = restore_backup(directory, data, replace=args.replace)
    except BackupError as exc:
        print(f"wordtable restore: {args.file}: {exc}; nothing was changed", file=sys.stderr)
        return 1
    aside = f"; the data it replaced is in {restored.moved_aside}" if restored.moved_aside else ""
    print(f"restored {restored.games} games into {directory}{aside}")
    return 0
