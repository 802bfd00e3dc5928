"""The journal's SQLite file: its schema, the connections to it, the transaction every write runs in, the
checks that refuse a file that is not this journal, and moving such a file aside.

- A file that is not this journal (not SQLite, another application's database, a newer schema, or one
  that fails `PRAGMA quick_check`) is never written to: `unusable_reason` says why, `move_aside` renames
  it (its -wal and -shm files with it) to `<name>.corrupt-<UTC timestamp>`.
- The outbox table (docs/league.md) and the rows' checksums (`integrity`) are added to older journals when
  they are connected (no new schema version: older programs never read them).
- A damaged write-ahead log (`wal.wal_damage`) is damage like any other: found before SQLite opens the file
  (which would drop the frames after the damage, rolling the game back without a word).
- A connection runs WAL with `synchronous=NORMAL` and no automatic checkpoint: the syncs after commits
  and the checkpoints are the journal's own (`Journal.sync`, `Journal.tidy`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from firmware_host.journal.errors import JournalError
from firmware_host.journal.integrity import has_checksums, migrate
from firmware_host.journal.rows import text
from firmware_host.journal.salvage import Salvaged
from firmware_host.journal.wal import wal_damage

APPLICATION_ID = 0x77746A6C  # "wtjl": marks a SQLite file as a wordtable journal
SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
# Bytes of the -wal file kept after a checkpoint (it would stay at its largest after a big write). Above
# what CHECKPOINT_EVERY commits fill (~2.5 MB), so the WAL's blocks are written again in place instead of
# cut off and grown at every restart: the sync of a file that keeps its size has no metadata to write
# (an append's p50 0.42 -> 0.27 ms here, and no append over 2 ms in 3000 against ~10 before).
WAL_LIMIT = 8 * 1024 * 1024

# Statements are split at semicolons (executescript would commit early), so the comments hold none.
_SCHEMA = """
CREATE TABLE games (
    id        INTEGER PRIMARY KEY,
    game      TEXT NOT NULL,
    players   TEXT NOT NULL,          -- JSON list of names
    meta      TEXT NOT NULL,          -- JSON object
    started   TEXT NOT NULL,          -- wall-clock label, ISO 8601
    finished  TEXT,                   -- NULL while the game is open
    winner    TEXT,
    crc       INTEGER                 -- `checksum.row_crc` of the columns above
);
CREATE TABLE events (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id   INTEGER NOT NULL REFERENCES games(id),
    kind      TEXT NOT NULL,          -- 'record' = a record line, exported. Others are not
    payload   TEXT NOT NULL,          -- JSON object
    wall_time TEXT NOT NULL,
    crc       INTEGER                 -- `checksum.event_crc`, chained over the game's events
);
CREATE INDEX events_by_game ON events(game_id, seq);
CREATE TABLE settings (
    key       TEXT PRIMARY KEY,
    value     TEXT NOT NULL,          -- JSON
    crc       INTEGER                 -- `checksum.row_crc` of key and value
);
"""
_OUTBOX = """
CREATE TABLE IF NOT EXISTS outbox (
    id        TEXT PRIMARY KEY,       -- the game's id in the league (a UUID)
    game_id   INTEGER NOT NULL,
    payload   TEXT NOT NULL,          -- JSON object: docs/league-game.schema.json less venue and table
    queued    TEXT NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class MovedAside:
    """A file that was not a usable journal and was moved aside; `reason` says why (for log and OLED)."""

    original: Path
    moved_to: Path
    reason: str
    salvaged: Salvaged | None = None

    def message(self) -> str:
        saved = f"; {self.salvaged.summary()}" if self.salvaged is not None else ""
        return f"journal {self.original} was unusable ({self.reason}); moved aside to {self.moved_to}{saved}"


class Transaction:
    """`BEGIN IMMEDIATE` … `COMMIT`, rolled back when the block raises. SQLite failures (disk full, I/O
    error, locked) become `JournalError`: the entry was then not acknowledged."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"journal write failed: {exc}") from None
        return self._db

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        try:
            self._db.execute("ROLLBACK" if exc_type is not None else "COMMIT")
        except sqlite3.Error as failure:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise JournalError(f"journal write failed: {failure}") from None
        if isinstance(exc, sqlite3.Error):
            raise JournalError(f"journal write failed: {exc}") from None


def connect(path: Path) -> sqlite3.Connection:
    """Open read-write in autocommit mode (transactions are explicit) and make sure the schema exists."""
    db = sqlite3.connect(path, isolation_level=None)
    db.text_factory = text
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # and a sync after each commit (`Journal.sync`)
        db.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT}")
        db.execute("PRAGMA wal_autocheckpoint = 0")  # `tidy` checkpoints, outside the inputs' commits
        db.execute("PRAGMA foreign_keys = ON")
        if db.execute("PRAGMA user_version").fetchone()[0] == 0:
            with Transaction(db):
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute(_OUTBOX)
        if not has_checksums(db):
            with Transaction(db):
                migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def connect_readonly(path: Path) -> sqlite3.Connection:
    """Open the journal at `path` for reading only (beside a running service). Raises `JournalError` when
    there is none, or it is unusable or empty."""
    if not path.is_file():
        raise JournalError(f"no journal at {path}")
    reason = unusable_reason(path)
    if reason is not None:
        raise JournalError(f"{path} is not a usable journal: {reason}")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        db.text_factory = text
        empty = db.execute("PRAGMA user_version").fetchone()[0] == 0
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open {path}: {exc}") from None
    if empty:
        db.close()
        raise JournalError(f"the journal at {path} is empty")
    return db


HEADER_BYTES = 100  # an SQLite file's header
FILE_FORMATS = {1, 2}  # the header's write and read versions (bytes 18, 19): rollback journal or WAL
SCHEMA_FORMATS = {0, 1, 2, 3, 4}  # the header's schema format number (bytes 44-47; 0: nothing in it yet)


def unusable_reason(path: Path, *, deep: bool = True) -> str | None:
    """Why the file at `path` must not be used as the journal, or None (absent, empty or fine): the check
    `Journal.open` makes (and `wordtable doctor` reports). `deep=False` leaves out `PRAGMA quick_check`
    (for a file sealed by a clean close). Raises JournalError when the file cannot be examined (locked),
    which is never the file's fault."""
    try:
        with path.open("rb") as file:
            header = file.read(HEADER_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"unreadable: {exc.strerror}"
    if not header:
        return None
    if header[: len(SQLITE_MAGIC)] != SQLITE_MAGIC:
        return "not an SQLite database"
    if len(header) == HEADER_BYTES and not {header[18], header[19]} <= FILE_FORMATS:
        # SQLite opens such a file read-only (or not at all): the journal would say "locked" at every start
        return f"damaged (file format versions {header[18]}/{header[19]} in its header)"
    if len(header) == HEADER_BYTES and int.from_bytes(header[44:48], "big") not in SCHEMA_FORMATS:
        return f"damaged (schema format {int.from_bytes(header[44:48], 'big')} in its header)"  # SQLite: "unsupported"
    wal = wal_damage(path)
    if wal is not None:
        return wal
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open {path}: {exc}") from None
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        if app_id == 0 and version == 0 and tables == 0:
            return None  # an empty database: the schema is laid on it
        if app_id != APPLICATION_ID:
            return f"another application's database (application_id {app_id:#x})"
        if version != SCHEMA_VERSION:
            return f"journal schema version {version}, this program reads version {SCHEMA_VERSION}"
        check = [row[0] for row in db.execute("PRAGMA quick_check")] if deep else ["ok"]
        if check != ["ok"]:
            return f"damaged ({'; '.join(check[:3])})"
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):  # locked, unreadable: not the file's fault, so never a reason to move it
            raise JournalError(f"cannot open {path}: {exc}") from None
        return f"damaged ({exc})"
    except UnicodeDecodeError:  # sqlite3 decodes its error message, which quotes the damaged schema
        return "damaged (its schema does not read)"
    finally:
        db.close()
    return None


def is_damage(exc: sqlite3.DatabaseError, *, reading: bool = False) -> bool:
    """Whether `exc` says the file is damaged. `reading`: raised by one of the journal's own reads, where a
    plain SQLITE_ERROR ("no such column") means a schema that is no longer the one the journal laid."""
    name = getattr(exc, "sqlite_errorname", "")
    return name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or (reading and name == "SQLITE_ERROR")


def move_aside(path: Path, reason: str) -> MovedAside:
    """Rename `path` (and its -wal/-shm) to `<name>.corrupt-<UTC timestamp>`, never over another file."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while any(Path(f"{target}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    for suffix in ("-wal", "-shm", ""):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(f"{target}{suffix}")
    return MovedAside(path, target, reason)
