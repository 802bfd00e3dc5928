"""`wordtable update FILE [--check-only]` (as root, on the box): install a release file
(`wordtable release build`; from a USB stick: no network needed) into a new environment beside the running
one, run its health check against a copy of the state directory, then switch to it and restart the
service; the start guard goes back by itself if it then fails to start twice (systemd/README.md,
"Updates"). `--check-only` checks the file and says what would change, and changes nothing.
`--rollback` goes back to the previous release by hand. `--request FILE` carries out what the owner page
asked for (wordtable-update.service). Exit 0 done or nothing to do, 1 the update failed (nothing switched),
2 bad usage. Every step and failure goes to standard error, which the journal keeps under the units."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from firmware_host.config import DEFAULT_CONFIG_PATH
from firmware_host.paths import SYSTEM_STATE_DIR
from firmware_host.update.apply import (
    Box,
    UpdateError,
    python_for_environments,
    roll_back,
    systemctl_restart,
    update,
)
from firmware_host.update.layout import DEFAULT_PREFIX, Layout
from firmware_host.update.overlay import LOWER, lifted
from firmware_host.update.release import ReleaseError
from firmware_host.update.request import RequestError, Status, take_request

log = logging.getLogger("wordtable.update")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, nargs="?", help="the release file (wordtable-….wtrelease)")
    parser.add_argument("--check-only", action="store_true", help="check the file, say what would change, stop")
    parser.add_argument("--rollback", action="store_true", help="go back to the previous release")
    parser.add_argument("--request", type=Path, help="the owner page's request file (wordtable-update.service)")
    parser.add_argument("--prefix", type=Path, default=DEFAULT_PREFIX, help=f"the releases (default: {DEFAULT_PREFIX})")
    parser.add_argument("--state-dir", type=Path, default=SYSTEM_STATE_DIR,
                        help=f"the service's state directory, copied for the health check ({SYSTEM_STATE_DIR})")
    parser.add_argument("--config", type=Path, help=f"the service's config (default: {DEFAULT_CONFIG_PATH} if present)")
    parser.add_argument("--python", default=None, help="the interpreter of new environments (/usr/bin/python3)")
    parser.add_argument("--no-restart", action="store_true", help="switch, but leave the service as it is")
    parser.add_argument("--lower", type=Path, default=LOWER,
                        help=f"the read-only root under the RAM overlay, made writable for the update ({LOWER})")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="wordtable update: %(message)s", stream=sys.stderr)
    if sum(bool(x) for x in (args.file, args.rollback, args.request)) != 1:
        print("wordtable update: give a release FILE, --rollback or --request FILE", file=sys.stderr)
        return 2
    config = args.config or (DEFAULT_CONFIG_PATH if DEFAULT_CONFIG_PATH.is_file() else None)
    box = Box(Layout(args.prefix), args.state_dir, config, args.python or python_for_environments())
    restart = (lambda: None) if args.no_restart else systemctl_restart
    status = Status(args.state_dir)
    file = args.file
    try:
        with lifted(args.lower):  # the releases are on the root's own file system, read-only between updates
            if args.rollback:
                roll_back(box.layout, restart, log.info)
                return 0
            if args.request:
                file = take_request(args.request)
                status.write("running", f"updating from {file.name}")
            update(file, box, check_only=args.check_only, restart=restart, say=log.info)
    except (UpdateError, ReleaseError, RequestError, OSError) as exc:
        log.error("failed: %s", exc)
        if args.request:
            status.write("failed", str(exc))
        return 1
    if args.request:
        status.write("done", f"{file.name} installed" if file else "done")
    return 0
