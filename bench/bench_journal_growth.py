"""Journal growth with use: the file size and the rows a resume replays after many hours of timer use.

    python bench/bench_journal_growth.py [--hours 1000] [--duration 60]

One hour of use is played through the real shell on a virtual clock: the sand timer run again and
again (START, run out, BACK), every tick the shell delivers. What the shell asked the journal to do in
that hour (each commit with its event, each compaction with its state, each tidy) is recorded and then done again
hour after hour against a real journal file — the same writes the appliance would make, at disk speed.
Prints the file size, the rows, and the rows of the open session (what a resume replays).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_host.config import resolve  # noqa: E402
from firmware_host.core.events import Button, Press, event_time  # noqa: E402
from firmware_host.journal import Journal  # noqa: E402
from firmware_host.paths import journal_path  # noqa: E402
from firmware_host.shell_journal import SESSION, SessionJournal  # noqa: E402
from firmware_host.simulator import Simulator  # noqa: E402


class Recording(SessionJournal):
    """A SessionJournal that also notes every call the shell makes."""

    calls: list[tuple[str, Any, Any]]

    def commit(self, event: Any, effects: Any = ()) -> None:
        self.calls.append(("commit", event, list(effects)))
        super().commit(event, effects)

    def compact(self, state: Any) -> None:
        self.calls.append(("compact", state, None))
        super().compact(state)

    def tidy(self) -> None:
        self.calls.append(("tidy", None, None))
        super().tidy()


def one_hour(state_dir: Path, duration: int) -> tuple[list[tuple[str, Any, Any]], int]:
    config = resolve("sim", None, environ={})
    sim = Simulator(config, state_dir)
    shell = sim.appliance.shell
    old = shell.journal
    assert isinstance(old, SessionJournal)
    recording = Recording(old.journal, old.session, old.table_game, old.entries)
    recording.calls = []
    shell.journal = recording
    runs = 0
    while sim.clock.now < 3600:
        sim.send(Press(Button.START, sim.clock.now))
        sim.wait_until(sim.clock.now + duration + 1)
        sim.send(Press(Button.BACK, sim.clock.now))
        runs += 1
    sim.close()
    return recording.calls, runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=int, default=1000)
    parser.add_argument("--duration", type=int, default=60, help="the sand timer's length in seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as base:
        began = time.perf_counter()
        calls, runs = one_hour(Path(base) / "hour", args.duration)
        commits = sum(kind == "commit" for kind, _, _ in calls)
        print(f"one hour through the shell: {runs} timer runs, {commits} journal commits "
              f"({time.perf_counter() - began:.1f} s)")
        path = journal_path(Path(base) / "long")
        path.parent.mkdir()
        journal = Journal.open(path)
        journal._conn().execute("PRAGMA synchronous = OFF")  # the same writes without an fsync each: sizes, not speed
        target = SessionJournal(journal, journal.start_game(SESSION, []))
        marks = {1, 10, 100, args.hours} | {h for h in (250, 500) if h < args.hours}
        began = time.perf_counter()
        for hour in range(args.hours):
            shift = hour * 3600.0
            for kind, first, second in calls:
                if kind == "commit":
                    target.commit(replace(first, **{_time_field(first): event_time(first) + shift}), second)
                elif kind == "tidy":
                    target.tidy()
                else:
                    target.compact(first)
            if hour + 1 in marks:
                rows = journal._conn().execute("SELECT count(*) FROM events").fetchone()[0]
                wal = Path(f"{path}-wal")
                print(f"after {hour + 1:5d} h: journal {path.stat().st_size / 1024:6.0f} KB "
                      f"(+ WAL {wal.stat().st_size / 1024 if wal.exists() else 0:4.0f} KB), {rows:6d} rows, "
                      f"open session {target.entries:4d} rows (replayed at a restart)")
        print(f"({time.perf_counter() - began:.0f} s to write {args.hours} hours)")
        journal.close()
    return 0


def _time_field(event: Any) -> str:
    return "now" if hasattr(event, "now") else "at"


if __name__ == "__main__":
    sys.exit(main())
