"""`wordtable score FILE`: re-score a game record and print the table (or JSON)."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from firmware_host.core.i18n import DEFAULT_LANGUAGE, LANGUAGES
from firmware_host.core.record import Record, RecordError, ScoreReport, parse_record

# game id -> module under firmware_host.core.games that has `score_record(Record) -> ScoreReport`
SCORERS = {
    "perfektes-wort": "perfektes_wort",
    "quiddler": "quiddler",
    "perfect-words": "perfect_words",
    "knack-das-wort": "knack_das_wort",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the game record (JSON Lines); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="language of the table")


def score(record: Record) -> ScoreReport:
    """Score a parsed record with its game's rules core. Raises `RecordError` when it breaks a rule."""
    module = importlib.import_module(f"firmware_host.core.games.{SCORERS[record.game]}")
    report: ScoreReport = module.score_record(record)
    return report


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
