"""The journal fuzz: damaged copies of real journals, each started as the box starts, each outcome sorted.

Real journals: the docs scripts' games (tests/helpers/crash.py `GAME_SCRIPTS`) played on the simulator
with the real journal, copied mid-game with the service running (the database, its WAL and wal-index, as
a crash leaves them), and once more after a clean close. A damaged copy gets one of `DAMAGES`: bit flips
anywhere in the database file or in the WAL, truncation of either at a random offset, damage in the first
100 bytes (the SQLite header). Each copy is started on the sim profile and sorted:

- "resumed exact": nothing was said, the table is exactly where the undamaged journal resumes, and the
  resumed state is a clean replay of the journal's record (`crash.check`);
- "salvaged": the journal was moved aside, the panel says so ("… gerettet", "Journal neu …"), the
  resumed state is a clean replay of the salvaged record (`crash.check`), and the next start resumes it
  without moving anything aside again;
- "silent differ": anything else — a table elsewhere without a word, or a state that is not its record's;
- "crash": the start raised.
"""

from __future__ import annotations

import random
import shutil
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.helpers.crash import GAME_SCRIPTS, check, timeline

SUFFIXES = ("", "-wal", "-shm")
DAMAGES = ("flip", "wal-flip", "truncate", "wal-truncate", "header")
OUTCOMES = ("resumed exact", "salvaged", "silent differ", "crash")
SAID = ("gerettet", "Journal neu", "Journal:")


@dataclass
class Results:
    counts: Counter[str] = field(default_factory=Counter)
    by_damage: Counter[tuple[str, str]] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def _simulator(state_dir: Path) -> Any:  # the simulator, imported late
    from firmware_host.config import resolve
    from firmware_host.simulator import Simulator

    return Simulator(resolve("sim", None, environ={}), state_dir)


def _journal(state_dir: Path) -> Path:
    from firmware_host.paths import journal_path

    return journal_path(state_dir)


def make_sources(base: Path, scripts: tuple[str, ...] = GAME_SCRIPTS, seed: int = 1) -> list[Path]:
    """State directories holding real journals: each script played to a random point and copied there
    with the box running (as a crash leaves the files), then played on a little and closed cleanly."""
    from firmware_host.core.event_codec import decode

    rng = random.Random(seed)
    sources = []
    for script in scripts:
        events = timeline(script)
        play = base / f"play-{script}"
        sim = _simulator(play)
        stop = rng.randrange(len(events) // 3, len(events) * 9 // 10)
        for n, (at, payload) in enumerate(events):
            if n == stop:
                running = base / f"running-{script}"
                running.mkdir()
                for suffix in SUFFIXES:
                    source = Path(f"{_journal(play)}{suffix}")
                    if source.exists():
                        shutil.copyfile(source, f"{_journal(running)}{suffix}")
                sources.append(running)
            sim.wait_until(max(sim.clock.now, at))
            sim.send(decode(payload))
            if n == stop + 10:
                break
        sim.close()
        sources.append(play)
    return sources


def damage(path: Path, kind: str, rng: random.Random) -> bool:
    """Damage the journal at `path` (database `path`, its WAL beside it) as `kind` says; False when there
    is nothing of that kind to damage (no WAL)."""
    target = Path(f"{path}-wal") if kind.startswith("wal-") else path
    data = bytearray(target.read_bytes()) if target.exists() else bytearray()
    if not data:
        return False
    if kind in ("flip", "wal-flip"):
        for _ in range(rng.choice((1, 1, 2, 4, 8))):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind in ("truncate", "wal-truncate"):
        del data[rng.randrange(len(data)):]
    else:
        at = rng.randrange(min(100, len(data)))
        data[at] = (data[at] + rng.randrange(1, 256)) % 256
    target.write_bytes(bytes(data))
    return True


def _copy(source: Path, to: Path) -> None:
    to.mkdir(parents=True)
    for suffix in SUFFIXES:
        original = Path(f"{_journal(source)}{suffix}")
        if original.exists():
            shutil.copyfile(original, f"{_journal(to)}{suffix}")


def _where(sim: Any) -> tuple[object, ...]:
    from firmware_host.core import app

    return app.screen(sim.state), sim.state.flow, sim.state.board


def run_fuzz(base: Path, copies: int, seed: int = 1, log: Callable[[str], None] = lambda text: None) -> Results:
    """`copies` damaged copies of the journals `make_sources` plays, each started and sorted (`OUTCOMES`)."""
    rng = random.Random(seed)
    sources = make_sources(base / "sources", seed=seed)
    clean = {}
    for n, source in enumerate(sources):
        scratch = base / f"clean-{n}"
        _copy(source, scratch)
        sim = _simulator(scratch)
        clean[source] = _where(sim)
        sim.close()
    results = Results()
    made = 0
    while made < copies:
        source, kind = rng.choice(sources), rng.choice(DAMAGES)
        scratch = base / f"copy-{made}"
        _copy(source, scratch)
        if not damage(_journal(scratch), kind, rng):
            shutil.rmtree(scratch)
            continue
        made += 1
        outcome, why = _start(scratch, clean[source])
        results.counts[outcome] += 1
        results.by_damage[(kind, outcome)] += 1
        if outcome in ("silent differ", "crash"):
            results.failures.append(f"copy {made - 1} ({kind} of {source.name}): {why}")
        log(f"copy {made - 1}: {kind} of {source.name}: {outcome} {why}")
        shutil.rmtree(scratch, ignore_errors=True)
    return results


def _start(state_dir: Path, clean: tuple[object, ...]) -> tuple[str, str]:
    """Start the box on the damaged journal in `state_dir` twice; the first start's outcome and why."""
    try:
        sim = _simulator(state_dir)
    except Exception:
        return "crash", traceback.format_exc(limit=3)
    try:
        journal = sim.appliance.journal
        moved = journal.moved_aside if journal is not None else None
        said = sim.screen_text().rsplit(" | ", 1)[-1]
        try:
            problems = check(sim) if journal is not None else ["no journal"]
        except Exception as exc:  # e.g. damage the start did not find, found by the export
            problems = [f"the check failed: {exc!r}"]
        if moved is not None:
            if not any(word in said for word in SAID):
                return "silent differ", f"moved aside ({moved.reason}) but the panel says {said!r}"
            outcome = "salvaged" if not problems else "silent differ"
            why = "; ".join(problems) or moved.reason
        elif problems or _where(sim) != clean:
            outcome, why = "silent differ", "; ".join(problems) or f"resumed at {_where(sim)[0]}, not {clean[0]}"
        else:
            outcome, why = "resumed exact", ""
    finally:
        sim.close()
    if outcome != "salvaged":
        return outcome, why
    try:
        again = _simulator(state_dir)
    except Exception:
        return "crash", "the second start: " + traceback.format_exc(limit=3)
    try:
        if again.appliance.journal is not None and again.appliance.journal.moved_aside is not None:
            return "crash", f"the second start moved the journal aside again: {again.appliance.journal.moved_aside}"
    finally:
        again.close()
    return outcome, why
