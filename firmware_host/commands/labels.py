"""`wordtable labels GAME --faces FILE`: print-ready SVG label sheets with a Code 39 code per card.

The faces file (UTF-8) lists a game's cards, one face per line, a count after `x` for copies (`A x10`), `#`
starts a comment; a face is a card's name as the table types it (`text_input.WORD`: no control characters,
at most 32 characters). Examples: docs/labels/*.faces. One page holds 24 labels; more pages get -2, -3 … in the name.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from firmware_host.core.cards import CODE_PREFIXES
from firmware_host.core.i18n import DEFAULT_LANGUAGE, LANGUAGES
from firmware_host.core.text_input import WORD, TextRefused, clean
from firmware_host.labels import label_pages

_COUNT = re.compile(r"^(.*?)\s+[x×]\s*(\d+)$")


class FacesError(ValueError):
    pass


def parse_faces(text: str) -> list[str]:
    """The faces listed in a faces file, copies repeated. Raises `FacesError` naming the line."""
    faces: list[str] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.removesuffix("\r").split("#", 1)[0].strip()
        if not line:
            continue
        match = _COUNT.match(line)
        face, count = (match.group(1).strip(), int(match.group(2))) if match else (line, 1)
        if not face or not 1 <= count <= 999:
            raise FacesError(f"line {number}: expected a face and an optional count 1–999 (`A x10`): {raw!r}")
        try:
            face = clean(face, WORD)
        except TextRefused as exc:
            raise FacesError(f"line {number}: {exc.message}") from None
        faces += [face] * count
    if not faces:
        raise FacesError("no faces listed")
    return faces


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", choices=list(CODE_PREFIXES), metavar="GAME",
        help=f"game id ({', '.join(CODE_PREFIXES)}); sets the code prefix and sides",
    )
    parser.add_argument("--faces", type=Path, required=True, help="the faces file (see docs/labels/)")
    parser.add_argument("-o", "--output", type=Path, help="SVG file to write (default labels-GAME.svg)")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="language of the captions"
    )
    parser.add_argument(
        "--show-face", action="store_true",
        help="print each card's face too (not for a card's back: a hand must stay hidden)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        faces = parse_faces(args.faces.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"wordtable labels: cannot read {args.faces}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"wordtable labels: {args.faces}: not UTF-8 text", file=sys.stderr)
        return 2
    except FacesError as exc:
        print(f"wordtable labels: {args.faces}: {exc}", file=sys.stderr)
        return 2
    pages = label_pages(args.game, faces, args.lang, show_face=args.show_face)
    output: Path = args.output or Path(f"labels-{args.game}.svg")
    more = [output.with_name(f"{output.stem}-{n}{output.suffix}") for n in range(2, len(pages) + 1)]
    paths = [output, *more]
    try:
        for path, page in zip(paths, pages, strict=True):
            path.write_text(page, encoding="utf-8")
    except OSError as exc:
        print(f"wordtable labels: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"{len(faces)} cards, {len(pages)} page(s): " + ", ".join(str(p) for p in paths))
    return 0
