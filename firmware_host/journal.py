"""The journal: every table event, appended to SQLite before its effects run (DESIGN.md "Durability").

Contract:
- One file, WAL mode: every write returns only after its transaction is on the storage (one `fdatasync`
  of the WAL, as `synchronous=FULL` would do), so an acknowledged event survives a crash *and* a power
  cut — the common way an appliance on the table is switched off. The exception is asked for:
  `batch(synced=False)` returns once its transaction is written to the WAL (a crash or kill of the
  process keeps it: it is in the operating system's hands) and it is on the storage once `sync()` returns,
  so the caller can do other work while the storage syncs (the shell sends the input's frame meanwhile).
  The connection runs `synchronous=NORMAL` (SQLite's own syncs at checkpoints and WAL restarts); the
  syncs after commits are ours (`sync`).
- Every write is one transaction; `batch()` joins several into one, so an input and every record line it
  causes commit together or not at all. Sequence numbers grow across all games and never repeat.
- Entries have a `kind`. `RECORD` entries hold one record line each (`{"event": NAME, ...}`, the format
  of `firmware_host.core.record`) and are what `export_record` writes; any other kind (timer state,
  shell input, notes) is kept and replayed but never exported.
- A finished game is archived (it keeps its events and gets a finish time and winner), never deleted.
- A file that is not this journal (not SQLite, another application's database, a newer schema, or one
  that fails `PRAGMA quick_check`) is never written to: `Journal.open` moves it aside as
  `<name>.corrupt-<UTC timestamp>` (its -wal and -shm files with it), says so in `Journal.moved_aside`
  and in the log, and starts an empty journal — into which, when the file was a damaged journal, every
  row that still reads is salvaged (`journal_salvage`), so an open game resumes if its events survived.
  Damage that only a read finds raises `JournalDamaged` there (never a bare sqlite3 error); the opener
  then calls `set_aside`, which does the same for the open file.
- The outbox (`enqueue`): a finished game queued for the league (docs/league.md) in the transaction that
  finishes it, with an id of its own that stays the same however often it is sent; the publisher
  (`firmware_host.league.outbox`) deletes it once the broker has acknowledged it. The table is added to
  older journals when they are opened (no new schema version: older programs never read it).
- Settings that survive restarts (last timer duration, language) live in a small key/value table.
- The WAL is checkpointed into the file by `tidy()`, which the shell calls once an input's effects are
  out, every CHECKPOINT_EVERY commits: not inside the commit of an input (SQLite's own automatic
  checkpoint would make every ~300th input wait for it: ~5 ms here, a sync of the whole file on an SD
  card). A writer that never tidies has its commit checkpoint at 5 × CHECKPOINT_EVERY.
- `close()` seals the file: its WAL is checkpointed into it and `<name>.clean` records its size and
  modification time. The next `open` removes the seal before writing and skips `PRAGMA quick_check` (which
  reads the whole file) when the file is exactly as sealed: only a file changed since the last clean
  shutdown (a crash, a power cut, another writer) is checked in full. `Journal.checked` says which.
A `Journal` belongs to the thread that opened it (sqlite3's default check).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_host.core.record import dump_line, header_line
from firmware_host.journal_salvage import Salvaged, salvage

log = logging.getLogger("wordtable.journal")

APPLICATION_ID = 0x77746A6C  # "wtjl": marks a SQLite file as a wordtable journal
SCHEMA_VERSION = 1
RECORD = "record"  # the kind of entries that are game-record lines
RETRACT = "retract"  # takes back the latest record line not yet taken back (undo at the table)
SQLITE_MAGIC = b"SQLite format 3\x00"
CHECKPOINT_EVERY = 200  # commits between two checkpoints of the WAL into the file (`tidy`)
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
    winner    TEXT
);
CREATE TABLE events (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id   INTEGER NOT NULL REFERENCES games(id),
    kind      TEXT NOT NULL,          -- 'record' = a record line, exported. Others are not
    payload   TEXT NOT NULL,          -- JSON object
    wall_time TEXT NOT NULL
);
CREATE INDEX events_by_game ON events(game_id, seq);
CREATE TABLE settings (
    key       TEXT PRIMARY KEY,
    value     TEXT NOT NULL           -- JSON
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


class JournalError(Exception):
    """A journal that cannot be used as asked: unknown or finished game, bad payload, unreadable file."""


class JournalDamaged(JournalError):
    """Damage found while reading an open journal, past the checks `open` makes (`PRAGMA quick_check`
    does not read every row's content, nor a schema's text): a page that does not read, text that is not
    UTF-8, a schema that is not the journal's. A writable journal can be `set_aside` and start afresh.
    `detail` says what the read found."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(f"the journal {path} is damaged: {detail}")
        self.detail = detail


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One appended entry. `seq` is the acknowledged sequence number."""

    seq: int
    game_id: int
    kind: str
    payload: Mapping[str, Any]
    wall_time: str


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game as `wordtable journal list` shows it. `finished` is None while the game is open."""

    id: int
    started: str
    game: str
    players: tuple[str, ...]
    finished: str | None
    winner: str | None


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


def utc_now() -> str:
    """The wall-clock label used where the caller gives none (seconds, UTC, ISO 8601)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Journal:
    """The open journal. Create with `Journal.open(path)`; close with `close()` or a `with` block."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        moved_aside: MovedAside | None,
        *,
        checked: bool = True,
        writable: bool = False,
    ) -> None:
        self._db: sqlite3.Connection | None = connection
        self.path = path
        self.moved_aside = moved_aside
        self.checked = checked  # whether opening ran the full integrity check (no valid seal)
        self._writable = writable
        self._depth = 0  # open `_write` blocks: only the outermost begins and commits
        self._unsynced = False  # a transaction is committed but not yet on the storage (`sync`)
        self._commits = 0  # since the WAL was last checkpointed

    # -- opening -----------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str, *, readonly: bool = False) -> Journal:
        """Open (creating the file and its schema if needed) the journal at `path`.

        A file that is not a usable journal is moved aside and an empty journal starts (see the module
        contract). With `readonly=True` (the CLI beside a running service) nothing is created or moved:
        a missing or unusable file raises `JournalError`.
        """
        path = Path(path)
        if readonly:
            return cls(_connect_readonly(path), path, None)
        try:
            return cls._open_writable(path)
        except OSError as exc:
            raise JournalError(f"cannot open the journal {path}: {exc.strerror or exc}") from None
        except sqlite3.Error as exc:  # not the file's fault (locked, no space): never a reason to move it
            raise JournalError(f"cannot open the journal {path}: {exc}") from None

    @classmethod
    def _open_writable(cls, path: Path) -> Journal:
        path.parent.mkdir(parents=True, exist_ok=True)
        sealed = _take_seal(path)
        reason = unusable_reason(path, deep=not sealed)
        if reason is None:
            try:
                return cls(_connect(path), path, None, checked=not sealed, writable=True)
            except sqlite3.DatabaseError as exc:  # passed the checks but its WAL, say, is damaged
                if not _is_damage(exc):
                    raise JournalError(f"cannot open {path}: {exc}") from None
                reason = f"damaged ({exc})"
            except UnicodeDecodeError:
                reason = "damaged (its schema does not read)"
        return cls._fresh(path, _move_aside(path, reason))

    @classmethod
    def _fresh(cls, path: Path, moved: MovedAside) -> Journal:
        """An empty journal at `path` beside the file `moved` aside, with what still reads of a damaged one."""
        connection = _connect(path)
        if moved.reason.startswith("damaged"):
            try:
                moved = replace(moved, salvaged=salvage(moved.moved_to, connection))
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                log.error("salvage failed: %s", exc)
        log.warning("%s", moved.message())
        return cls(connection, path, moved, writable=True)

    def close(self) -> None:
        """Close the database and seal a writable journal (idempotent). Further calls other than `close`
        raise `JournalError`."""
        if self._db is None:
            return
        if self._unsynced:
            try:
                self.sync()
            except JournalError as exc:
                log.warning("%s", exc)
        db, self._db = self._db, None
        sealed = self._writable
        if sealed:
            try:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:  # busy (a reader beside us) or no space: checked in full next time
                log.warning("journal not sealed: %s", exc)
                sealed = False
        db.close()
        if sealed:
            _seal(self.path)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -------------------------------------------------------------------------------------

    def start_game(
        self, game: str, players: Iterable[str], meta: Mapping[str, Any] | None = None, *,
        wall_time: str | None = None, beside: int | None = None,
    ) -> int:
        """Start a game and return its id. Every game still open is archived first, with no winner —
        except `beside`, which stays open (the appliance session a table game is played in)."""
        names = list(players)
        if not game or not all(isinstance(name, str) for name in names):
            raise JournalError("a game needs a name and its players as texts")
        when = wall_time or utc_now()
        with self._write() as db:
            db.execute("UPDATE games SET finished = ? WHERE finished IS NULL AND id IS NOT ?", (when, beside))
            cursor = db.execute(
                "INSERT INTO games (game, players, meta, started) VALUES (?, ?, ?, ?)",
                (game, _json(names), _json(dict(meta or {})), when),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, kind: str, payload: Mapping[str, Any], wall_time: str) -> int:
        """Append one entry to an open game in its own transaction; return its sequence number once
        committed (the event is then acknowledged). A `RECORD` payload must have a text "event"."""
        if not kind:
            raise JournalError("an entry needs a kind")
        if kind == RECORD and not (isinstance(payload.get("event"), str) and payload["event"]):
            raise JournalError('a record entry needs its "event" name')
        text = _json(dict(payload))
        with self._write() as db:
            self._require_open(db, game_id)
            cursor = db.execute(
                "INSERT INTO events (game_id, kind, payload, wall_time) VALUES (?, ?, ?, ?)",
                (game_id, kind, text, wall_time),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def rewrite(self, seq: int, payload: Mapping[str, Any], wall_time: str) -> None:
        """Replace the payload of the latest entry `seq` of an open game (a superseded clock checkpoint);
        any other entry raises `JournalError` — what was acknowledged is never changed."""
        text = _json(dict(payload))
        with self._write() as db:
            row = db.execute("SELECT game_id, kind, (SELECT max(seq) FROM events) FROM events WHERE seq = ?",
                             (seq,)).fetchone()
            if row is None or row[2] != seq:
                raise JournalError(f"entry {seq} is not the latest entry")
            self._require_open(db, row[0])
            db.execute("UPDATE events SET payload = ?, wall_time = ? WHERE seq = ?", (text, wall_time, seq))

    def drop_finished(self, game: str) -> int:
        """Delete every finished game of kind `game` with its entries (appliance sessions a later one
        continues from its snapshot; never a table game); returns how many entries went."""
        with self._write() as db:
            ids = "SELECT id FROM games WHERE game = ? AND finished IS NOT NULL"
            gone = db.execute(f"DELETE FROM events WHERE game_id IN ({ids})", (game,)).rowcount
            db.execute("DELETE FROM games WHERE game = ? AND finished IS NOT NULL", (game,))
        return gone

    def finish(self, game_id: int, winner: str | None, *, wall_time: str | None = None) -> None:
        """Archive an open game with its winner (None: no winner, e.g. abandoned)."""
        with self._write() as db:
            self._require_open(db, game_id)
            when = wall_time or utc_now()
            db.execute("UPDATE games SET finished = ?, winner = ? WHERE id = ?", (when, winner, game_id))

    def open_game(self, game: str | None = None, *, other_than: str | None = None) -> int | None:
        """The id of the latest unfinished game (of kind `game`, when given; of any kind but `other_than`,
        when that is given), or None. One query, however many games the journal holds."""
        where, values = ["finished IS NULL"], []
        if game is not None:
            where.append("game = ?")
            values.append(game)
        if other_than is not None:
            where.append("game != ?")
            values.append(other_than)
        with self._reading() as db:
            row = db.execute(f"SELECT max(id) FROM games WHERE {' AND '.join(where)}", values).fetchone()
        return None if row[0] is None else int(row[0])

    def game(self, game_id: int) -> GameSummary:
        with self._reading() as db:
            row = db.execute(f"{_SUMMARY} WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        return _summary(row)

    def games(self) -> list[GameSummary]:
        """Every game, oldest first."""
        with self._reading() as db:
            return [_summary(row) for row in db.execute(f"{_SUMMARY} ORDER BY id")]

    def latest_game(self) -> int | None:
        with self._reading() as db:
            row = db.execute("SELECT max(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    def meta(self, game_id: int) -> dict[str, Any]:
        self.game(game_id)
        with self._reading() as db:
            row = db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
        value = _loads(row[0])
        if not isinstance(value, dict):
            raise JournalError(f"game {game_id}: its meta data is unreadable")
        return value

    # -- events ------------------------------------------------------------------------------------

    def events(self, game_id: int, kinds: Iterable[str] | None = None) -> list[JournalEntry]:
        """A game's entries in the order they were appended (all kinds, or only `kinds`)."""
        return list(self.stream(game_id, kinds))

    def stream(self, game_id: int, kinds: Iterable[str] | None = None) -> Iterator[JournalEntry]:
        """`events` one row at a time (what a resume replays: memory stays flat however long the game).
        Nothing may write to the journal while the stream is read."""
        self.game(game_id)
        wanted = None if kinds is None else set(kinds)
        with self._reading() as db:
            rows = db.execute(
                "SELECT seq, game_id, kind, payload, wall_time FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
            for seq, gid, kind, payload, when in rows:
                if wanted is not None and kind not in wanted:
                    continue
                value = _loads(payload)
                if not isinstance(value, dict):  # damaged in place (quick_check sees structure, not content)
                    log.warning("journal entry %s is unreadable and left out", seq)
                    continue
                yield JournalEntry(seq, gid, kind, value, _cell(when))

    def export_record(self, game_id: int) -> str:
        """The game as a record (JSON Lines, the input of `wordtable score`): the header, then every
        `RECORD` entry in order, less those a `RETRACT` entry took back (each takes back the latest
        record line still standing). A line without an "at" label gets the entry's wall time."""
        summary = self.game(game_id)
        standing: list[JournalEntry] = []
        for entry in self.events(game_id, kinds=(RECORD, RETRACT)):
            if entry.kind == RETRACT:
                if standing:
                    standing.pop()
            else:
                standing.append(entry)
        lines = [dump_line(header_line(summary.game))]
        for entry in standing:
            line = dict(entry.payload)
            line.setdefault("at", entry.wall_time)
            lines.append(dump_line(line))
        return "\n".join(lines) + "\n"

    def enqueue(self, game_id: int) -> str:
        """Queue the finished game `game_id` for the league (in the caller's batch, if any); its id."""
        summary = self.game(game_id)
        if summary.finished is None:
            raise JournalError(f"game {game_id} is still open")
        import uuid  # late: it loads `platform`, which a start does not need

        league_id = str(uuid.uuid4())
        payload = {
            "id": league_id, "game": summary.game, "players": list(summary.players), "started": summary.started,
            "finished": summary.finished, "winner": summary.winner, "record": self.export_record(game_id),
        }
        with self._write() as db:
            db.execute("INSERT INTO outbox (id, game_id, payload, queued) VALUES (?, ?, ?, ?)",
                       (league_id, game_id, _json(payload), utc_now()))
        return league_id

    # -- settings ----------------------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._reading() as db:
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        value = _loads(row[0])
        return default if value is _UNREADABLE else value

    def set_setting(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable value under `key` (replacing the old one), durably."""
        text = _json(value)
        with self._write() as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, text),
            )

    def settings(self) -> dict[str, Any]:
        with self._reading() as db:
            values = {key: _loads(value) for key, value in db.execute("SELECT key, value FROM settings ORDER BY key")}
        return {key: value for key, value in values.items() if value is not _UNREADABLE}

    # -- internals ---------------------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError("the journal is closed")
        return self._db

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for a read: the file's damage found meanwhile raises `JournalDamaged`, any other
        SQLite failure (locked, I/O) `JournalError`."""
        db = self._conn()
        try:
            yield db
        except UnicodeDecodeError:  # sqlite3 could not decode an error message: the schema's text is hit
            raise JournalDamaged(self.path, "its schema does not read") from None
        except sqlite3.DatabaseError as exc:
            if _is_damage(exc, reading=True):
                raise JournalDamaged(self.path, str(exc)) from None
            raise JournalError(f"journal read failed: {exc}") from None

    def set_aside(self, reason: str) -> Journal:
        """A writable journal found damaged (`JournalDamaged`) after it was opened: close it unsealed, move
        it aside and return a fresh journal with what still reads salvaged, as `open` does for a file its
        checks refuse. This journal is closed afterwards."""
        if not self._writable:
            raise JournalError("only a writable journal is set aside")
        if self._db is not None:
            db, self._db = self._db, None
            db.close()  # unsealed: the file is damaged
        return Journal._fresh(self.path, _move_aside(self.path, reason))

    @contextmanager
    def batch(self, *, synced: bool = True) -> Iterator[None]:
        """Join every write inside the block into one transaction: all commit when the block ends, none
        when it raises (then `JournalError` or the block's own exception propagates). `synced=False` (the
        outermost block decides): the transaction is written when the block ends, and on the storage once
        `sync()` returns."""
        with self._write(synced=synced):
            yield

    def sync(self) -> None:
        """Put every transaction committed so far on the storage: one `fdatasync` of the WAL, none when
        there is nothing to put. Raises `JournalError` when the storage fails (then what was committed
        since the last sync may not survive a power cut; a crash of the process it still survives)."""
        if not self._unsynced:
            return
        try:
            fd = os.open(f"{self.path}-wal", os.O_RDONLY)
            try:
                os.fdatasync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise JournalError(f"journal sync failed: {exc.strerror or exc}") from None
        self._unsynced = False

    @contextmanager
    def _write(self, *, synced: bool = True) -> Iterator[sqlite3.Connection]:
        """The transaction of the outermost block (a nested one joins it); `synced`: the outermost block's
        commit is put on the storage before it returns (`sync`)."""
        db = self._conn()
        if self._depth:
            self._depth += 1
            try:
                yield db
            finally:
                self._depth -= 1
            return
        self._depth = 1
        try:
            with _Transaction(db):
                yield db
        finally:
            self._depth = 0
        self._unsynced = True
        if synced:
            self.sync()
        self._commits += 1
        if self._commits >= 5 * CHECKPOINT_EVERY:  # nobody tidies: the WAL must not grow without end
            self.tidy()

    def tidy(self) -> None:
        """Checkpoint the WAL into the file once CHECKPOINT_EVERY commits have gathered since the last time
        (a few ms of writing and a sync). Call it when nothing waits for the journal: after an input's
        effects. A checkpoint a reader keeps from finishing is completed next time; a failure is logged,
        never raised: everything acknowledged is in the WAL already."""
        if self._db is None or not self._writable or self._commits < CHECKPOINT_EVERY:
            return
        self._commits = 0
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            log.warning("journal checkpoint failed: %s", exc)

    @staticmethod
    def _require_open(db: sqlite3.Connection, game_id: int) -> None:
        row = db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        if row[0] is not None:
            raise JournalError(f"game {game_id} is finished (archived at {row[0]})")


class _Transaction:
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


_SUMMARY = "SELECT id, started, game, players, finished, winner FROM games"


def _summary(row: tuple[Any, ...]) -> GameSummary:
    game_id, started, game, players, finished, winner = row
    names = _loads(players)
    readable = tuple(str(name) for name in names) if isinstance(names, list) else ("?",)
    return GameSummary(int(game_id), _cell(started), _cell(game), readable,
                       None if finished is None else _cell(finished), None if winner is None else _cell(winner))


def _cell(value: Any) -> str:
    """A text column's value as text: a cell damaged in place may come back as a number or bytes."""
    return value if isinstance(value, str) else _text(value) if isinstance(value, bytes) else str(value)


_UNREADABLE = object()


def _loads(text: str) -> Any:
    """A stored JSON value, or `_UNREADABLE` for text damaged in place."""
    try:
        return json.loads(text)
    except ValueError:
        return _UNREADABLE


def _text(data: bytes) -> str:
    """Stored text as str; bytes damaged in place become U+FFFD instead of failing the whole read."""
    return data.decode("utf-8", errors="replace")


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"not storable as JSON: {exc}") from None


def _connect(path: Path) -> sqlite3.Connection:
    """Open read-write in autocommit mode (transactions are explicit) and make sure the schema exists."""
    db = sqlite3.connect(path, isolation_level=None)
    db.text_factory = _text
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # and a sync after each commit (`Journal.sync`)
        db.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT}")
        db.execute("PRAGMA wal_autocheckpoint = 0")  # `tidy` checkpoints, outside the inputs' commits
        db.execute("PRAGMA foreign_keys = ON")
        if db.execute("PRAGMA user_version").fetchone()[0] == 0:
            with _Transaction(db):
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute(_OUTBOX)
    except BaseException:
        db.close()
        raise
    return db


def _connect_readonly(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise JournalError(f"no journal at {path}")
    reason = unusable_reason(path)
    if reason is not None:
        raise JournalError(f"{path} is not a usable journal: {reason}")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        db.text_factory = _text
        empty = db.execute("PRAGMA user_version").fetchone()[0] == 0
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open {path}: {exc}") from None
    if empty:
        db.close()
        raise JournalError(f"the journal at {path} is empty")
    return db


def _seal_path(path: Path) -> Path:
    return path.with_name(f"{path.name}.clean")


def _stamp(path: Path) -> dict[str, int] | None:
    """The file's size and modification time, or None when it or a non-empty WAL beside it says that it
    was not closed cleanly."""
    try:
        stat = path.stat()
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size:
            return None
    except OSError:
        return None
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _seal(path: Path) -> None:
    """Record the closed file's size and modification time beside it. The time is first set back to a
    random instant of the second before: any later write sets the current time, so a change within the
    file system's timestamp granularity still breaks the seal."""
    try:
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - 10**9 - int.from_bytes(os.urandom(4), 'big') % 10**9))
    except OSError as exc:
        log.warning("journal not sealed: %s", exc)
        return
    stamp = _stamp(path)
    if stamp is None:
        return
    try:
        tmp = _seal_path(path).with_name(f"{path.name}.clean.tmp")
        tmp.write_text(json.dumps(stamp), encoding="utf-8")
        tmp.replace(_seal_path(path))
    except OSError as exc:
        log.warning("journal not sealed: %s", exc)


def _take_seal(path: Path) -> bool:
    """Remove the seal beside `path` (before anything writes the file) and say whether it held: the file
    is exactly as the last clean `close` left it."""
    seal = _seal_path(path)
    try:
        recorded = json.loads(seal.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = None
    try:
        seal.unlink(missing_ok=True)
    except OSError:
        return False
    return recorded is not None and recorded == _stamp(path)


def unusable_reason(path: Path, *, deep: bool = True) -> str | None:
    """Why the file at `path` must not be used as the journal, or None (absent, empty or fine): the check
    `Journal.open` makes (and `wordtable doctor` reports). `deep=False` leaves out `PRAGMA quick_check`
    (for a file sealed by a clean close). Raises JournalError when the file cannot be examined (locked),
    which is never the file's fault."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"unreadable: {exc.strerror}"
    if not head:
        return None
    if head != SQLITE_MAGIC:
        return "not an SQLite database"
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
        if not _is_damage(exc):  # locked, unreadable: not the file's fault, so never a reason to move it
            raise JournalError(f"cannot open {path}: {exc}") from None
        return f"damaged ({exc})"
    except UnicodeDecodeError:  # sqlite3 decodes its error message, which quotes the damaged schema
        return "damaged (its schema does not read)"
    finally:
        db.close()
    return None


def _is_damage(exc: sqlite3.DatabaseError, *, reading: bool = False) -> bool:
    """Whether `exc` says the file is damaged. `reading`: raised by one of the journal's own reads, where a
    plain SQLITE_ERROR ("no such column") means a schema that is no longer the one the journal laid."""
    name = getattr(exc, "sqlite_errorname", "")
    return name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or (reading and name == "SQLITE_ERROR")


def _move_aside(path: Path, reason: str) -> MovedAside:
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
