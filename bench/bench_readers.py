"""Card reader parser throughput: MB/s on garbage-heavy input and valid frames/lines per second.

Run from the repository root: python bench/bench_readers.py [--mb 4] [--seed 1] (the package installed,
or PYTHONPATH=.). Prints numbers; asserts nothing about speed.
For scale: an RDM6300 at 9600 baud delivers under 1 kB/s (about 68 frames/s at most).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from drivers.rdm6300 import FrameParser, frame
from drivers.scanner import LineParser


def garbage_heavy(size: int, rng: random.Random, valid_share: float) -> tuple[bytes, int]:
    """About `size` bytes: random noise (STX included) with valid frames making up `valid_share`."""
    out = bytearray()
    frames = 0
    while len(out) < size:
        if rng.random() < valid_share:
            out += frame(f"{rng.getrandbits(40):010X}")
            frames += 1
        else:
            out += rng.randbytes(14)
    return bytes(out), frames


def scanner_lines(size: int, rng: random.Random) -> bytes:
    out = bytearray()
    while len(out) < size:
        kind = rng.random()
        if kind < 0.6:
            out += f"QD{rng.randrange(1, 119):03d}\r\n".encode()
        elif kind < 0.8:
            out += b"X" * rng.randrange(65, 200) + b"\n"  # too long
        else:
            out += rng.randbytes(20) + b"\r"
    return bytes(out)


def measure(name: str, data: bytes, feed: Callable[[bytes], list[str]], chunk: int) -> int:
    start = time.perf_counter()
    found = 0
    for at in range(0, len(data), chunk):
        found += len(feed(data[at : at + chunk]))
    took = time.perf_counter() - start
    print(f"{name:<46} {len(data) / took / 1e6:7.2f} MB/s  {found / took:11,.0f} codes/s  ({found} codes)")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=4.0, help="megabytes of input per case")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    size = int(args.mb * 1e6)
    rng = random.Random(args.seed)
    for share in (0.1, 0.5, 1.0):
        data, frames = garbage_heavy(size, rng, share)
        for chunk in (64, 4096):
            name = f"rdm6300 {share:.0%} frames, chunks of {chunk} B"
            found = measure(name, data, FrameParser().feed, chunk)
            assert found <= frames
    lines = scanner_lines(size, rng)
    for chunk in (64, 4096):
        measure(f"scanner lines (40% bad), chunks of {chunk} B", lines, LineParser().feed, chunk)


if __name__ == "__main__":
    main()
