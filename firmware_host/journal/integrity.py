"""The checksums of the journal's rows on its connection: laying them on older journals, writing them
beside every change, and checking the games and settings when the journal is opened (the events are
checked as they are read: `Journal.stream`). What the checksums cover: `checksum`.

A journal written before the checksums (no `crc` columns) is migrated the first time it is opened for
writing: the columns are added and every row is checksummed as it then reads (see `checksum`). Opened
read-only, such a journal reads as before, unchecked (`has_checksums`).
"""

from __future__ import annotations

import sqlite3

from firmware_host.journal.checksum import GAME_COLUMNS, SETTING_COLUMNS, event_crc, row_crc

_GAME = f"SELECT {', '.join(GAME_COLUMNS)}, crc FROM games"
_SETTING = f"SELECT {', '.join(SETTING_COLUMNS)}, crc FROM settings"


def has_checksums(db: sqlite3.Connection) -> bool:
    """Whether the journal's rows carry checksums (it was written, or migrated, by this program)."""
    return any(row[1] == "crc" for row in db.execute("PRAGMA table_info(events)"))


def migrate(db: sqlite3.Connection) -> None:
    """Add the checksum columns to a journal without them and checksum every row (in the caller's
    transaction); nothing when they are there."""
    if has_checksums(db):
        return
    for table in ("games", "events", "settings"):
        db.execute(f"ALTER TABLE {table} ADD COLUMN crc INTEGER")
    checksum_all(db)


def checksum_all(db: sqlite3.Connection) -> None:
    """Checksum every row as it reads now (in the caller's transaction): a migration, or a salvage's rows
    once they are checked."""
    for row in db.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games").fetchall():
        db.execute("UPDATE games SET crc = ? WHERE id = ?", (row_crc(row), row[0]))
    for row in db.execute(f"SELECT {', '.join(SETTING_COLUMNS)} FROM settings").fetchall():
        db.execute("UPDATE settings SET crc = ? WHERE key = ?", (row_crc(row), row[0]))
    last: dict[int, int] = {}
    rows = db.execute("SELECT seq, game_id, kind, payload, wall_time FROM events ORDER BY seq").fetchall()
    for row in rows:
        crc = event_crc(row, last.get(row[1], 0))
        last[row[1]] = crc
        db.execute("UPDATE events SET crc = ? WHERE seq = ?", (crc, row[0]))


def reseal_game(db: sqlite3.Connection, game_id: int) -> None:
    """Checksum the game row `game_id` again after a change to it."""
    row = db.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is not None:
        db.execute("UPDATE games SET crc = ? WHERE id = ?", (row_crc(row), game_id))


def reseal_setting(db: sqlite3.Connection, key: str) -> None:
    row = db.execute(f"SELECT {', '.join(SETTING_COLUMNS)} FROM settings WHERE key = ?", (key,)).fetchone()
    if row is not None:
        db.execute("UPDATE settings SET crc = ? WHERE key = ?", (row_crc(row), key))


def seal_event(db: sqlite3.Connection, seq: int) -> None:
    """Checksum the event `seq`, chained to the event before it in its game (it is appended or rewritten
    as the latest one)."""
    row = db.execute("SELECT seq, game_id, kind, payload, wall_time FROM events WHERE seq = ?", (seq,)).fetchone()
    previous = db.execute("SELECT crc FROM events WHERE game_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
                          (row[1], seq)).fetchone()
    crc = event_crc(row, previous[0] if previous is not None and isinstance(previous[0], int) else 0)
    db.execute("UPDATE events SET crc = ? WHERE seq = ?", (crc, seq))


def bad_rows(db: sqlite3.Connection) -> str | None:
    """The first game or setting whose row fails its checksum, worded for a reason, or None."""
    for *row, crc in db.execute(_GAME):
        if row_crc(tuple(row)) != crc:
            return f"damaged (game {row[0]!r} fails its checksum)"
    for *row, crc in db.execute(_SETTING):
        if row_crc(tuple(row)) != crc:
            return f"damaged (setting {row[0]!r} fails its checksum)"
    return None


def game_row_ok(db: sqlite3.Connection, game_id: int) -> bool:
    row = db.execute(f"{_GAME} WHERE id = ?", (game_id,)).fetchone()
    return row is not None and row_crc(tuple(row[:-1])) == row[-1]


def setting_ok(key: str, value: object, crc: object) -> bool:
    return row_crc((key, value)) == crc

