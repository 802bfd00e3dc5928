"""`wordtable score FILE`: re-score a game record and print the table (or JSON)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from firmware_host.core.games import registry
from firmware_host.core.i18n import DEFAULT_LANGUAGE, LANGUAGES
from firmware_host.core.record import GameRecord, RecordError, ScoreReport, parse_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the game record (JSON Lines); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="language of the table")


def score(record: GameRecord) -> ScoreReport:
    """Score a parsed record with its game's rules core. Raises `RecordError` when it breaks a rule."""
    kit = registry.kit(record.game)
    if kit is None or kit.score_record is None:
        raise RecordError(0, f"{record.game!r} keeps no record to score")
    return kit.score_record(record)


def run(args: argparse.Namespace) -> int:
    name = str(args.file)
    try:
        text = sys.stdin.read() if name == "-" else args.file.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"wordtable score: cannot read {name}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"wordtable score: {name} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        report = score(parse_record(text))
    except RecordError as exc:
        print(f"wordtable score: {name}: {exc}", file=sys.stderr)
        return 2
    # Everything is computed before anything is printed: a bad record prints nothing on stdout.
    out = json.dumps(report.to_json(), ensure_ascii=False, indent=2) if args.json else report.text(args.lang)
    print(out)
    return 0
