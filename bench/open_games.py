"""Journals with an open game of every kind and a long session: what a start after a long evening resumes.

`write_open_game(directory, kind, entries)` writes, through the real core (`app.step`) and the shell's
journal adapter (`SessionJournal.commit`, as the shell does), a session whose open table game is `kind`
with about `entries` journaled inputs. The game is begun from its documented script
(docs/scripts/<kind>.script, menu choices expanded on the pure app), then grown:

- Zugzeit: START ends a turn — a game of `entries` turns (each a record line);
- the other games: BACK takes the last entry back and the same entry is made again, over and over — the
  session grows by two inputs (and a record line and a retraction) each time, the game stays as it was.

After every input the writer is asked for a resume snapshot as the shell asks it (`SessionJournal.cache`);
the latest one its policy took is written at the end (`Snapshots`), as the shell would have left it.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_host.core import app  # noqa: E402
from firmware_host.core.event_codec import decode  # noqa: E402
from firmware_host.core.events import Button, Event, Press, event_time  # noqa: E402
from firmware_host.core.settings import Settings  # noqa: E402
from firmware_host.journal import Journal  # noqa: E402
from firmware_host.paths import journal_path  # noqa: E402
from firmware_host.resume import resume_or_start  # noqa: E402
from firmware_host.shell import GAME_EFFECTS  # noqa: E402
from firmware_host.snapshots import Mark, Snapshots  # noqa: E402
from tests.helpers.crash import timeline  # noqa: E402

KINDS = ("turn-timer", "perfektes-wort", "quiddler", "knack-das-wort")
# Perfect Words is not among them yet: BACK and its last entry again do not give its game back as it was
# (write_open_game's check fails), so its long session needs another filler.


def _entered(state: app.AppState) -> int | None:
    played = getattr(state.flow, "played", None)
    return None if played is None else len(played.events)


def opening(kind: str) -> tuple[list[Event], Event | None]:
    """The script's inputs up to the last entry that leaves its game open, and that entry (None for the
    turn timer: its game is grown by START)."""
    state, _ = app.initial(Settings())
    events: list[Event] = []
    kept, last = 0, None
    for _, payload in timeline(f"{kind}.script"):
        event = decode(dict(payload))
        before = _entered(state)
        state, _ = app.step(state, event)
        events.append(event)
        after = _entered(state)
        if after is None:
            if before is not None:  # the game ended (or was left)
                break
            continue
        if kind == "turn-timer":  # the game begun, its first turn running: grow it from here
            if after == 0 and isinstance(event, Press):
                kept = len(events)
                break
            continue
        if before is not None and after == before + 1 and not getattr(state.flow.played.game, "ended", False):
            kept, last = len(events), event
    return events[:kept], last


class _Latest:
    """Stands in for `Snapshots` while a journal is written: keeps the latest snapshot the policy takes."""

    taken: tuple[Mark, app.AppState] | None = None

    def busy(self) -> bool:
        return False

    def take(self, mark: Mark, state: app.AppState) -> None:
        self.taken = mark, state


def write_open_game(directory: Path, kind: str, entries: int) -> int:
    """The journal in `directory` with `kind` open after about `entries` session inputs and the snapshot
    the shell would have left; returns how many inputs."""
    directory.mkdir(parents=True, exist_ok=True)
    events, entry = opening(kind)
    with Journal.open(journal_path(directory)) as journal:
        journal._conn().execute("PRAGMA synchronous = OFF")
        state, _, target, _ = resume_or_start(journal, lambda remembered: Settings(), lambda: 0.0)
        latest = _Latest()
        target.snapshots = latest  # type: ignore[assignment]
        now = 0.0

        def send(event: Event) -> None:
            nonlocal state, now
            now = max(now + 0.001, event_time(event))
            event = replace(event, at=now)  # type: ignore[type-var]
            state, effects = app.step(state, event)
            target.commit(event, [e for e in effects if isinstance(e, GAME_EFFECTS)])
            target.cache(state)

        with journal.batch():
            for event in events:
                send(event)
        count = len(events)
        while count < entries:
            with journal.batch():
                for _ in range(min(1000, entries - count)):
                    if entry is None:
                        send(Press(Button.START, now + 1.0))
                        count += 1
                    else:
                        before = _entered(state)
                        send(Press(Button.BACK, now + 0.5))
                        send(entry)
                        assert _entered(state) == before, f"{kind}: BACK and the entry again changed the game"
                        count += 2
        assert _entered(state) is not None, f"{kind}: the game is not open"
        snapshots = Snapshots.of(journal)
        if latest.taken is not None and snapshots is not None:
            snapshots.take(*latest.taken)
            snapshots.wait()
    return count


def describe(kind: str, directory: Path) -> dict[str, Any]:
    return {"kind": kind, "size_kb": sum(p.stat().st_size for p in directory.glob("journal.sqlite3*")) / 1024}
