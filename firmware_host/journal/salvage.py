"""Salvage from a damaged journal: every row that still reads and checks, copied into the fresh journal,
up to the first damaged entry.

SQLite reads a damaged file up to the first bad page of a table and raises there. So each table is read
row by row in rowid order; at a failure the read jumps past the bad stretch (growing steps) and goes
on, and the rows above the damage are also read from the top down. Games and settings are kept when they
read, are well-formed and pass their checksums (`checksum`). Events are kept up to the first damaged one,
in all games at once: the first event that fails its game's checksum chain, or the place where the read
could not go on, is the cut, and nothing at or after it is kept. Record lines (`RECORD`, `RETRACT`) are
written in the transaction of the entry before them that is not one (the input that caused them): when
the cut falls on a record line, or on an entry whose kind cannot be trusted, the whole transaction it may
belong to goes too, so the salvaged inputs and the salvaged record always agree. Rows are copied with
their ids, sequence numbers and checksums, so the open session and its table game resume as they were at
the last good entry. Events whose game row is lost are dropped (a replay could not place them).
A journal older than the checksums is salvaged unchecked, as it reads.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.journal.checksum import Chain, row_crc
from firmware_host.journal.integrity import checksum_all, has_checksums
from firmware_host.journal.rows import RECORD, RETRACT

log = logging.getLogger("wordtable.journal")

MAX_JUMP = 1 << 20  # the farthest a read jumps past a failing rowid before giving up on the tail
_TABLES = {
    "games": "SELECT rowid, id, game, players, meta, started, finished, winner{crc} FROM games",
    "events": "SELECT rowid, seq, game_id, kind, payload, wall_time{crc} FROM events",
    "settings": "SELECT rowid, key, value{crc} FROM settings",
}
_RECORD_KINDS = (RECORD, RETRACT)  # written in the transaction of the entry before them


@dataclass(frozen=True, slots=True)
class Salvaged:
    """What was copied from the damaged file; `highest_seq` is the highest event number it held as far
    as could be read (so `events` of `highest_seq` says how much was saved); `cut` the first event number
    not kept because of damage (None: every event that read was kept); `last_wall_time` the wall-clock
    label of the last event kept (None: none was)."""

    games: int
    events: int
    settings: int
    highest_seq: int
    cut: int | None = None
    last_wall_time: str | None = None

    def summary(self) -> str:
        upto = f" (up to event {self.cut})" if self.cut is not None else ""
        return (f"salvaged {self.events} of {self.highest_seq} events{upto}, {self.games} games, "
                f"{self.settings} settings")


def salvage(source: Path, into: sqlite3.Connection) -> Salvaged:
    """Copy what reads and checks from the damaged journal at `source` into `into` (a fresh, empty journal)."""
    try:
        db = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        log.warning("salvage: cannot open %s: %s", source, exc)
        return Salvaged(0, 0, 0, 0)
    try:
        checked = _has_checksums(db)
        games = {row[0]: row[:7] for row in _rows(db, "games", checked) if _game_ok(row, checked)}
        gaps: list[int] = []
        events = sorted((row for row in _rows(db, "events", checked, gaps) if isinstance(row[0], int)),
                        key=lambda row: row[0])
        settings = [row[:2] for row in _rows(db, "settings", checked) if _setting_ok(row, checked)]
    finally:
        db.close()
    kept, cut = _events_up_to_damage(events, set(games), checked, min(gaps, default=None))
    into.execute("BEGIN IMMEDIATE")
    try:
        into.executemany("INSERT OR IGNORE INTO games (id, game, players, meta, started, finished, winner)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?)", sorted(games.values()))
        into.executemany("INSERT OR IGNORE INTO events (seq, game_id, kind, payload, wall_time)"
                         " VALUES (?, ?, ?, ?, ?)", kept)
        into.executemany("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", settings)
        checksum_all(into)
        into.execute("COMMIT")
    except sqlite3.Error:
        into.execute("ROLLBACK")
        raise
    highest = max((event[0] for event in events), default=0)
    return Salvaged(len(games), len(kept), len(settings), highest, cut, kept[-1][4] if kept else None)


def _events_up_to_damage(events: list[tuple[Any, ...]], games: set[Any], checked: bool,
                         gap: int | None) -> tuple[list[tuple[Any, ...]], int | None]:
    """The events (in seq order) before the first damaged one, less the transaction the damage may have
    split (see the module's docstring); and the cut."""
    chain = Chain()
    kept: list[tuple[Any, ...]] = []
    suspect: tuple[Any, ...] | None = None
    for row in events:
        if gap is not None and row[0] >= gap:
            break
        entry, crc = row[:5], row[5]
        if not (_event_ok(entry) and entry[1] in games and (not checked or chain.good(entry, crc))):
            suspect = entry
            break
        kept.append(entry)
    else:
        if gap is None:
            return kept, None
    cut = suspect[0] if suspect is not None else gap
    trusted = {entry[2] for entry in kept} - set(_RECORD_KINDS)
    if suspect is None or suspect[2] not in trusted:  # the cut may fall inside a transaction
        starts = [i for i, entry in enumerate(kept) if entry[2] not in _RECORD_KINDS]
        if starts:
            cut, kept = kept[starts[-1]][0], kept[:starts[-1]]
    return kept, cut


def _has_checksums(db: sqlite3.Connection) -> bool:
    try:
        return has_checksums(db)
    except sqlite3.DatabaseError:
        return False


def _rows(db: sqlite3.Connection, table: str, checked: bool,
          gaps: list[int] | None = None) -> Iterator[tuple[Any, ...]]:
    """Every row of `table` that reads, each once, in rowid order as far as possible, less the rowid (with
    its checksum last when `checked`, else None there). Where the forward read could not go on, the first
    rowid it could not read is added to `gaps`."""
    query = _TABLES[table].format(crc=", crc" if checked else ", NULL")
    seen: set[int] = set()
    after, jump = -(1 << 62), 1
    while jump <= MAX_JUMP:
        try:
            for row in db.execute(f"{query} WHERE rowid > ? ORDER BY rowid", (after,)):
                after, jump = row[0], 1
                if row[0] not in seen:
                    seen.add(row[0])
                    yield row[1:]
            break
        except sqlite3.DatabaseError:
            if jump == 1 and gaps is not None:
                gaps.append(after + 1)
            after += jump
            jump *= 2
    try:  # from the top down, for what lies above a stretch the forward read could not pass
        for row in db.execute(f"{query} ORDER BY rowid DESC"):
            if row[0] in seen:
                break
            seen.add(row[0])
            yield row[1:]
    except sqlite3.DatabaseError:
        if gaps is not None:
            gaps.append(after + 1)


def _json_ok(text: Any, kind: type) -> bool:
    try:
        return isinstance(text, str) and isinstance(json.loads(text), kind)
    except ValueError:
        return False


def _game_ok(row: tuple[Any, ...], checked: bool) -> bool:
    game_id, game, players, meta, started, finished, winner, crc = row
    return (isinstance(game_id, int) and isinstance(game, str) and bool(game) and _json_ok(players, list)
            and _json_ok(meta, dict) and isinstance(started, str) and isinstance(finished, str | None)
            and isinstance(winner, str | None) and (not checked or row_crc(row[:7]) == crc))


def _event_ok(row: tuple[Any, ...]) -> bool:
    seq, game_id, kind, payload, wall_time = row
    return (isinstance(seq, int) and isinstance(game_id, int) and isinstance(kind, str) and bool(kind)
            and _json_ok(payload, dict) and isinstance(wall_time, str))


def _setting_ok(row: tuple[Any, ...], checked: bool) -> bool:
    key, value, crc = row
    return (isinstance(key, str) and isinstance(value, str) and _json_ok(value, object)
            and (not checked or row_crc((key, value)) == crc))
