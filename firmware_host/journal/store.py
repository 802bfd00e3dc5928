"""The open journal's connection and its discipline: opening (the checks, the seal, moving aside and
salvaging a file that is not usable), every write's transaction and sync, every read's error handling, the
WAL's checkpoints and the sealing close. `Journal` (the package) builds the journal's entries on it.

- Every write returns only after its transaction is on the storage (one `fdatasync` of the WAL, as
  `synchronous=FULL` would do), so an acknowledged event survives a crash *and* a power cut. The exception
  is asked for: `batch(synced=False)` returns once its transaction is written to the WAL (a crash or kill
  of the process keeps it: it is in the operating system's hands) and it is on the storage once `sync()`
  returns, so the caller can do other work while the storage syncs.
- Every write is one transaction; `batch()` joins several into one (all commit or none).
- The WAL is checkpointed into the file by `tidy()`, which the shell calls once an input's effects are
  out, every CHECKPOINT_EVERY commits: not inside the commit of an input (SQLite's own automatic
  checkpoint would make every ~300th input wait for it: ~5 ms here, a sync of the whole file on an SD
  card). A writer that never tidies has its commit checkpoint at 5 × CHECKPOINT_EVERY.
- Damage that only a read finds raises `JournalDamaged` there (never a bare sqlite3 error); the opener
  then calls `set_aside`, which moves the file aside and starts afresh as `open` does. A game or setting
  whose row fails its checksum is found by `open` (`integrity.bad_rows`), an event by the read
  (`Journal.stream`).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Self

from firmware_host.journal.errors import JournalDamaged, JournalError
from firmware_host.journal.file import (
    MovedAside,
    Transaction,
    connect,
    connect_readonly,
    is_damage,
    move_aside,
    unusable_reason,
)
from firmware_host.journal.integrity import bad_rows, has_checksums
from firmware_host.journal.salvage import salvage
from firmware_host.journal.seal import seal, take_seal

log = logging.getLogger("wordtable.journal")

CHECKPOINT_EVERY = 200  # commits between two checkpoints of the WAL into the file (`tidy`)


class Store:
    """The connection of an open journal. Create with `open(path)`; close with `close()` or a `with` block."""

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
        self.checksummed = has_checksums(connection)  # False: a journal older than the checksums, read-only

    # -- opening and closing -----------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str, *, readonly: bool = False) -> Self:
        """Open (creating the file and its schema if needed) the journal at `path`.

        A file that is not a usable journal is moved aside and an empty journal starts, into which — when
        the file was a damaged journal — every row that still reads is salvaged (`salvage`), so an open
        game resumes if its events survived; `moved_aside` says so. With `readonly=True` (the CLI beside a
        running service) nothing is created or moved: a missing or unusable file raises `JournalError`.
        """
        path = Path(path)
        if readonly:
            return cls(connect_readonly(path), path, None)
        try:
            return cls._open_writable(path)
        except OSError as exc:
            raise JournalError(f"cannot open the journal {path}: {exc.strerror or exc}") from None
        except sqlite3.Error as exc:  # not the file's fault (locked, no space): never a reason to move it
            raise JournalError(f"cannot open the journal {path}: {exc}") from None

    @classmethod
    def _open_writable(cls, path: Path) -> Self:
        path.parent.mkdir(parents=True, exist_ok=True)
        sealed = take_seal(path)
        reason = unusable_reason(path, deep=not sealed)
        if reason is None:
            try:
                db = connect(path)
                try:
                    reason = bad_rows(db)
                except BaseException:
                    db.close()
                    raise
                if reason is None:
                    return cls(db, path, None, checked=not sealed, writable=True)
                db.close()
            except sqlite3.DatabaseError as exc:  # passed the checks but a page, or its schema, is damaged
                if not is_damage(exc, reading=True):
                    raise JournalError(f"cannot open {path}: {exc}") from None
                reason = f"damaged ({exc})"
            except UnicodeDecodeError:
                reason = "damaged (its schema does not read)"
        return cls._fresh(path, move_aside(path, reason))

    @classmethod
    def _fresh(cls, path: Path, moved: MovedAside) -> Self:
        """An empty journal at `path` beside the file `moved` aside, with what still reads of a damaged one."""
        connection = connect(path)
        if moved.reason.startswith("damaged"):
            try:
                moved = replace(moved, salvaged=salvage(moved.moved_to, connection))
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                log.error("salvage failed: %s", exc)
        log.warning("%s", moved.message())
        return cls(connection, path, moved, writable=True)

    def set_aside(self, reason: str) -> Self:
        """A writable journal found damaged (`JournalDamaged`) after it was opened: close it unsealed, move
        it aside and return a fresh journal with what still reads salvaged, as `open` does for a file its
        checks refuse. This journal is closed afterwards."""
        if not self._writable:
            raise JournalError("only a writable journal is set aside")
        if self._db is not None:
            db, self._db = self._db, None
            db.close()  # unsealed: the file is damaged
        return self._fresh(self.path, move_aside(self.path, reason))

    def close(self) -> None:
        """Close the database and seal a writable journal (idempotent): its WAL is checkpointed into the
        file and the seal (`firmware_host.journal.seal`) written. Further calls other than `close` raise
        `JournalError`."""
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
            seal(self.path)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading and writing -----------------------------------------------------------------------

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
            if is_damage(exc, reading=True):
                raise JournalDamaged(self.path, str(exc)) from None
            raise JournalError(f"journal read failed: {exc}") from None

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
            with Transaction(db):
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
