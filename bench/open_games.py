"""Journals with an open game of every kind and a long session: what a start after a long evening resumes.

`write_open_game(directory, kind, entries)` writes, through the real core (`app.step`) and the shell's
journal adapter (`SessionJournal.commit`, as the shell does), a session whose open table game is `kind`
with about `entries` journaled inputs. The game is begun from its documented script
(docs/scripts/<kind>.script, menu choices expanded on the pure app), then grown:

- Zugzeit: START ends a turn — a game of `entries` turns (each a record line);
- the other games: BACK takes the last entry back and the same entry is made again (its input, or the few
  that make it: Perfect Words' merge is START, a turn and START), over and over — the session grows by
  two inputs or more (and a record line and a retraction) each time, the game stays as it was.

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
from firmware_host.snapshots import Mark, Snapshots, dumps  # noqa: E402
from tests.helpers.crash import timeline  # noqa: E402

KINDS = ("turn-timer", "perfektes-wort", "quiddler", "knack-das-wort", "perfect-words")


def _entered(state: app.AppState) -> int | None:
    played = getattr(state.flow, "played", None)
    return None if played is None else len(played.events)


def opening(kind: str) -> tuple[list[Event], tuple[Event, ...]]:
    """The script's inputs up to the last entry that leaves its game open, and the inputs that make that
    entry again after BACK took it back (none for the turn timer: its game is grown by START)."""
    state, _ = app.initial(Settings())
    events: list[Event] = []
    kept, begun, last = 0, 0, 0  # the inputs up to the last entry; where the inputs to it begin, where it was
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
        if before is not None and after != before:
            if after == before + 1 and not getattr(state.flow.played.game, "ended", False):
                kept, begun = len(events), last
            last = len(events)
    return events[:kept], _again(events[:kept], begun) if kept and kind != "turn-timer" else ()


def _again(events: list[Event], begun: int) -> tuple[Event, ...]:
    """The shortest tail of `events[begun:]` that, after BACK, makes the last entry again (Perfect Words: a
    merge is START on one group, a turn and START on the other)."""
    state, _ = app.initial(Settings())
    for event in events:
        state, _ = app.step(state, event)
    back, _ = app.step(state, Press(Button.BACK, event_time(events[-1]) + 0.5))
    for start in range(len(events) - 1, begun - 1, -1):
        again = back
        for event in events[start:]:
            again, _ = app.step(again, event)
        if _entered(again) == _entered(state):
            return tuple(events[start:])
    raise AssertionError("BACK and the inputs of the last entry again do not give the game back")


class _Latest:
    """Stands in for `Snapshots` while a journal is written: keeps the latest snapshot the policy takes
    (and its size, which the policy spaces the next one by)."""

    taken: tuple[Mark, app.AppState] | None = None
    size = 0

    def busy(self) -> bool:
        return False

    def take(self, mark: Mark, state: app.AppState) -> None:
        self.taken = mark, state
        self.size = len(dumps(state))


def write_open_game(directory: Path, kind: str, entries: int) -> int:
    """The journal in `directory` with `kind` open after about `entries` session inputs and the snapshot
    the shell would have left; returns how many inputs."""
    directory.mkdir(parents=True, exist_ok=True)
    events, again = opening(kind)
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
                batch = min(entries, count + 1000)
                while count < batch:
                    if not again:
                        send(Press(Button.START, now + 1.0))
                        count += 1
                    else:
                        before = _entered(state)
                        send(Press(Button.BACK, now + 0.5))
                        for event in again:
                            send(event)
                        assert _entered(state) == before, f"{kind}: BACK and the entry again changed the game"
                        count += 1 + len(again)
        assert _entered(state) is not None, f"{kind}: the game is not open"
        snapshots = Snapshots.of(journal)
        if latest.taken is not None and snapshots is not None:
            snapshots.take(*latest.taken)
            snapshots.wait()
    return count


def describe(kind: str, directory: Path) -> dict[str, Any]:
    return {"kind": kind, "size_kb": sum(p.stat().st_size for p in directory.glob("journal.sqlite3*")) / 1024}
