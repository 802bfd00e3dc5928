"""The live simulator's key input: the parser's throughput, and a paste into the real `wordtable sim` on a
pty — how long until the journal holds all of it. Prints numbers; asserts nothing.

    python bench/bench_sim_keys.py [--bytes 1000000] [--lines 10 40 160]

Parser: keys per second over a mixed stream (text, Enter, arrows, a bracketed paste), fed whole and in
4-byte reads (what the old reader took at a time). Paste: N scoreboard entries ("\\r+5\\r") written to the
sim's terminal at once, then `q`; the time from the write to the sim's exit (every entry journaled,
one fsync each) and the entries found in the journal.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_host.core.events import TextEntry  # noqa: E402
from firmware_host.term_keys import KeyParser  # noqa: E402
from tests.sim_pty import LiveSim  # noqa: E402

PIECE = "Sabine Schmidt\r+5\r\x1b[A\x1b[D[]\x1b[200~Anna\rBert\x1b[201~äöü€\x7f".encode()


def parser_rate(size: int, chunk: int | None) -> tuple[float, int]:
    data = PIECE * (size // len(PIECE))
    parser = KeyParser()
    start = time.perf_counter()
    got = []  # kept in both ways (the garbage collector's work grows with the live keys)
    if chunk is None:
        got.extend(parser.feed(data))
    else:
        for i in range(0, len(data), chunk):
            got.extend(parser.feed(data[i:i + chunk]))
    got.extend(parser.flush())
    return len(got) / (time.perf_counter() - start), len(got)


def paste(entries: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as folder:
        sim = LiveSim(Path(folder) / "state")
        try:
            if not sim.wait_for("LED"):
                raise RuntimeError("the sim did not start")
            sim.write("msns")  # into the scoreboard (Spielen, Punktetafel)
            time.sleep(0.5)
            start = time.perf_counter()
            sim.write("\r+5\r" * entries + "q")
            if sim.wait_exit(120) != 0:
                raise RuntimeError("the sim did not exit cleanly")
            took = time.perf_counter() - start
            found = sum(1 for e in sim.journal_inputs() if isinstance(e, TextEntry))
        finally:
            sim.kill()
    return took, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, default=1_000_000)
    parser.add_argument("--lines", type=int, nargs="+", default=[10, 40, 160])
    args = parser.parse_args()
    print(f"parser, {args.bytes} bytes of mixed input")
    for chunk in (None, 4):
        rate, keys = parser_rate(args.bytes, chunk)
        print(f"  {'whole' if chunk is None else f'{chunk}-byte reads':>14}: {keys} keys, {rate:,.0f} keys/s")
    print("paste into the live sim (scoreboard entries), write -> exit")
    for entries in args.lines:
        took, found = paste(entries)
        print(f"  {entries:4d} entries ({4 * entries} bytes): {took:6.2f} s, {found} in the journal")


if __name__ == "__main__":
    main()
