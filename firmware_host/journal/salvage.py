"""Salvage from a damaged journal: every row that still reads, copied into the fresh journal.

SQLite reads a damaged file up to the first bad page of a table and raises there. So each table is read
row by row in rowid order; at a failure the read jumps past the bad stretch (growing steps) and goes
on, and the rows above the damage are also read from the top down. What reads and is well-formed is
copied with its ids and sequence numbers, so the open session and its table game resume as they were.
Events whose game row is lost are dropped (a replay could not place them).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("wordtable.journal")

MAX_JUMP = 1 << 20  # the farthest a read jumps past a failing rowid before giving up on the tail
_TABLES = {
    "games": "SELECT rowid, id, game, players, meta, started, finished, winner FROM games",
    "events": "SELECT rowid, seq, game_id, kind, payload, wall_time FROM events",
    "settings": "SELECT rowid, key, value FROM settings",
}


@dataclass(frozen=True, slots=True)
class Salvaged:
    """What was copied from the damaged file; `highest_seq` is the highest event number it held as far
    as could be read (so `events` of `highest_seq` says how much was saved)."""

    games: int
    events: int
    settings: int
    highest_seq: int

    def summary(self) -> str:
        return f"salvaged {self.events} of {self.highest_seq} events, {self.games} games, {self.settings} settings"


def salvage(source: Path, into: sqlite3.Connection) -> Salvaged:
    """Copy what reads from the damaged journal at `source` into `into` (a fresh, empty journal)."""
    try:
        db = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        log.warning("salvage: cannot open %s: %s", source, exc)
        return Salvaged(0, 0, 0, 0)
    try:
        games = {row[1]: row[1:] for row in _rows(db, "games") if _game_ok(row[1:])}
        events = [row[1:] for row in _rows(db, "events") if _event_ok(row[1:])]
        settings = [row[1:] for row in _rows(db, "settings") if _setting_ok(row[1:])]
    finally:
        db.close()
    kept = [event for event in events if event[1] in games]
    into.execute("BEGIN IMMEDIATE")
    try:
        into.executemany("INSERT OR IGNORE INTO games (id, game, players, meta, started, finished, winner)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?)", sorted(games.values()))
        into.executemany("INSERT OR IGNORE INTO events (seq, game_id, kind, payload, wall_time)"
                         " VALUES (?, ?, ?, ?, ?)", sorted(kept))
        into.executemany("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", settings)
        into.execute("COMMIT")
    except sqlite3.Error:
        into.execute("ROLLBACK")
        raise
    highest = max((event[0] for event in events), default=0)
    return Salvaged(len(games), len(kept), len(settings), highest)


def _rows(db: sqlite3.Connection, table: str) -> Iterator[tuple[Any, ...]]:
    """Every row of `table` that reads, each once, in rowid order as far as possible."""
    seen: set[int] = set()
    after, jump = -(1 << 62), 1
    while jump <= MAX_JUMP:
        try:
            for row in db.execute(f"{_TABLES[table]} WHERE rowid > ? ORDER BY rowid", (after,)):
                after, jump = row[0], 1
                if row[0] not in seen:
                    seen.add(row[0])
                    yield row
            break
        except sqlite3.DatabaseError:
            after += jump
            jump *= 2
    try:  # from the top down, for what lies above a stretch the forward read could not pass
        for row in db.execute(f"{_TABLES[table]} ORDER BY rowid DESC"):
            if row[0] in seen:
                break
            seen.add(row[0])
            yield row
    except sqlite3.DatabaseError:
        pass


def _json_ok(text: Any, kind: type) -> bool:
    try:
        return isinstance(text, str) and isinstance(json.loads(text), kind)
    except ValueError:
        return False


def _game_ok(row: tuple[Any, ...]) -> bool:
    game_id, game, players, meta, started, finished, winner = row
    return (isinstance(game_id, int) and isinstance(game, str) and bool(game) and _json_ok(players, list)
            and _json_ok(meta, dict) and isinstance(started, str) and isinstance(finished, str | None)
            and isinstance(winner, str | None))


def _event_ok(row: tuple[Any, ...]) -> bool:
    seq, game_id, kind, payload, wall_time = row
    return (isinstance(seq, int) and isinstance(game_id, int) and isinstance(kind, str) and bool(kind)
            and _json_ok(payload, dict) and isinstance(wall_time, str))


def _setting_ok(row: tuple[Any, ...]) -> bool:
    key, value = row
    return isinstance(key, str) and isinstance(value, str) and _json_ok(value, object)
