"""`wordtable release build [-o FILE] [--target pi64|here] [--source DIR] [--wheel-cache DIR]`: the release
file of a checkout (firmware_host/update/release.py): the project's wheel, the pinned requirements and a
wheel of every dependency for the target, with a manifest, so that `wordtable update FILE` installs it with
no network. Needs pip with an index (it downloads the dependencies' wheels) and `packaging`.
`wordtable release show FILE` prints a release file's manifest, every member checked."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from firmware_host.update.release import (
    PI_64,
    SUFFIX,
    ReleaseError,
    build_release,
    read_manifest,
    this_machine,
    unpack_release,
)

TARGETS = {"pi64": lambda: PI_64, "here": this_machine}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    build = sub.add_parser("build", help="build a release file from a checkout")
    build.add_argument("--source", type=Path, default=Path.cwd(), help="the checkout (default: here)")
    build.add_argument("--target", choices=list(TARGETS), default="pi64",
                       help="pi64: Raspberry Pi OS 64-bit, Python 3.11 (default); here: this machine")
    build.add_argument("-o", "--output", type=Path, help=f"the file (default: dist/wordtable-VERSION{SUFFIX})")
    build.add_argument("--wheel-cache", type=Path, help="keep the dependencies' wheels here between builds")
    show = sub.add_parser("show", help="check a release file and print its manifest")
    show.add_argument("file", type=Path)


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "show":
            with tempfile.TemporaryDirectory(prefix="wordtable-release-") as work:
                unpacked = unpack_release(args.file, Path(work))
            print(unpacked.manifest.to_json(), end="")
            return 0
        target = TARGETS[args.target]()
        output = args.output or args.source / "dist" / f"wordtable-{target.machine}{SUFFIX}"
        manifest = build_release(args.source.resolve(), output, target=target, wheel_cache=args.wheel_cache)
    except ReleaseError as exc:
        print(f"wordtable release: {exc}", file=sys.stderr)
        return 1
    size = output.stat().st_size
    print(f"{output}: release {manifest.release} for {manifest.machine}, Python {manifest.python}: "
          f"{len(manifest.packages)} packages, {size / 1e6:.1f} MB")
    read_manifest(output)
    return 0
