"""The `wordtable` command line. Exit codes: 0 ok, 1 runtime failure, 2 bad input (config, record, usage),
130 interrupted, 141 (128 + SIGPIPE) when the reader of standard output closed it early."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Sequence

# name -> (module under firmware_host.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("run", "run the appliance on its hardware (the service)"),
    "sim": ("sim", "run the appliance on mock hardware in the terminal, or replay an action script"),
    "check-config": ("check_config", "validate the hardware profile and user config, print the result"),
    "score": ("score", "score a game record (JSON Lines) and print the table"),
    "sheet": ("sheet", "write a printable Das perfekte Wort score sheet (SVG) of a sheet side"),
    "journal": ("journal", "list or export the games kept in the journal"),
    "stats": ("stats", "statistics per person over the journal's games: wins, averages, best word, rivals"),
    "backup": ("backup", "write the box's data (games, settings, roster, card tables) to one file"),
    "restore": ("restore", "restore a backup into a fresh state directory (or --replace the box's data)"),
    "labels": ("labels", "print SVG label sheets with a barcode per card, for scanner readers"),
    "doctor": ("doctor", "check the board, buses, readers, service and config; say what to fix"),
    "league": ("league", "the venue's league over MQTT: live board, standings, export, broker ACL"),
    "selftest": ("selftest", "walk through every part on the real pins: LEDs, buzzer, OLED, buttons, readers"),
    "health": ("health", "the health check of a release: start on a copy of the state, journal and first frame"),
    "release": ("release", "build a release file: the wheel, the pinned requirements and their wheels"),
    "update": ("update", "install a release file into a new environment, check it, switch; --check-only"),
    "wifi": ("wifi", "the box's Wi-Fi: a known network or its own access point (watch, add, ap, status)"),
}


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wordtable",
        description="Sand timer, card deck and scoreboard for the game table.",
        epilog="commands:\n" + "\n".join(f"  {name:<14}{text}" for name, (_, text) in COMMANDS.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from firmware_host import __version__

    parser.add_argument("--version", action="version", version=f"wordtable {__version__}")
    parser.add_argument("command", choices=list(COMMANDS), metavar="COMMAND", help="what to do (see below)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in COMMANDS:
        _top_parser().parse_args(args[:1] or ["--help"])
        return 2
    name = args[0]
    module_name, text = COMMANDS[name]
    module = importlib.import_module(f"firmware_host.commands.{module_name}")
    parser = argparse.ArgumentParser(prog=f"wordtable {name}", description=text)
    module.add_arguments(parser)
    options = parser.parse_args(args[1:])
    try:
        code = int(module.run(options))
        sys.stdout.flush()  # here, so that a closed pipe is noticed while it can still be handled
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _pipe_closed()


def _pipe_closed() -> int:
    """The reader of standard output went away (`wordtable score --json rec.jsonl | head -1`): stop quietly
    with the status of a process ended by SIGPIPE, as other command-line tools do, and let nothing more
    be written to the pipe (not even the interpreter's last flush)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 128 + signal.SIGPIPE


if __name__ == "__main__":
    raise SystemExit(main())
