"""`wordtable sheet`: write the printable score sheet (SVG) of a Das perfekte Wort sheet side."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_host.games.perfektes_wort.data_files import DEFAULT_DIR, SIDES, DataFileError, load_sheet
from firmware_host.games.perfektes_wort.sheet import sheet_svg


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "side", help=f"a shipped side ({', '.join(SIDES)}) or the path of a sheet file (.toml)"
    )
    parser.add_argument("-o", "--output", type=Path, help="write the SVG here (default: standard output)")


def run(args: argparse.Namespace) -> int:
    path = DEFAULT_DIR / f"{args.side}.toml" if args.side in SIDES else Path(args.side)
    try:
        svg = sheet_svg(load_sheet(path))
    except DataFileError as exc:
        print(f"wordtable sheet: {exc}", file=sys.stderr)
        return 2
    if args.output is None:
        sys.stdout.write(svg)
        return 0
    try:
        args.output.write_text(svg, encoding="utf-8")
    except OSError as exc:
        print(f"wordtable sheet: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0
