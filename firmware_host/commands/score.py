"""`wordtable score FILE... [--json] [--lang de|en]`: re-score game records and print their tables (or JSON);
`wordtable score --schema`: print the JSON Schema of a record line (docs/record-schema.json).

Every record is read and scored before anything is printed: when one cannot be scored, each failure is
named on standard error (file, line, reason — a broken rule in the language of `--lang`), nothing is
printed on standard output and the exit status is 2. `-` reads standard input. With several files the
text tables follow one another, each under its file's name, and `--json` prints a list of the reports in
the files' order.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from firmware_host.core.games.registry import parse_record, score
from firmware_host.core.i18n import DEFAULT_LANGUAGE, LANGUAGES
from firmware_host.core.record import RecordError, ScoreReport
from firmware_host.core.record_schema import record_schema


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="*", type=Path, metavar="FILE", help="game records (JSON Lines); - reads standard input"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="language of the table")
    parser.add_argument("--schema", action="store_true", help="print the JSON Schema of a record line and stop")


def read(name: str) -> str:
    """A record's text: the file `name`, or standard input for "-". Raises `RecordError` (line 0)."""
    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        return Path(name).read_bytes().decode("utf-8")
    except OSError as exc:
        raise RecordError(0, f"cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(0, "it is not UTF-8 text") from None


def run(args: argparse.Namespace) -> int:
    if args.schema:
        print(json.dumps(record_schema(), ensure_ascii=False, indent=2))
        return 0
    if not args.files:
        print("wordtable score: name a record FILE (or - for standard input), or --schema", file=sys.stderr)
        return 2
    reports: list[tuple[str, ScoreReport]] = []
    failed = False
    for path in args.files:
        name = str(path)
        try:
            reports.append((name, score(parse_record(read(name)))))
        except RecordError as exc:
            print(f"wordtable score: {name}: {exc.text(args.lang)}", file=sys.stderr)
            failed = True
    if failed:
        return 2
    # Everything is computed before anything is printed: a bad record prints nothing on stdout.
    if args.json:
        data = [report.to_json() for _, report in reports]
        print(json.dumps(data[0] if len(data) == 1 else data, ensure_ascii=False, indent=2))
    elif len(reports) == 1:
        print(reports[0][1].text(args.lang))
    else:
        print("\n\n".join(f"== {name} ==\n{report.text(args.lang)}" for name, report in reports))
    return 0
