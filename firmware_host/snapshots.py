"""Snapshots of the whole table state: a cache that lets a start replay only the session inputs after it.

Contract:
- A snapshot is the pickled `AppState` after the session input `Mark.seq`, with what a start needs to go
  on from there (`Mark`). It is one file in the state directory (`SNAPSHOT_NAME`), not a row of the
  journal: the journal's inputs stay the truth, the journal's syncs never carry it and a backup never
  holds it.
- It is trusted only when it is this box's and this code's: an HMAC-SHA256 with the box's key
  (`KEY_NAME`, made once, readable by the service only) over the code version (`code_version`: a hash of
  the package's sources), the journal file's identity (its inode: a journal restored from a backup or
  salvaged is another file), the mark and the pickle. Nothing is unpickled before its tag holds.
  Anything else — no file, another key or code or journal, damaged or cut bytes, a mark the journal does
  not hold (a snapshot newer than the inputs) — is refused with a reason (`load` returns None and logs
  it): the start replays the session in full.
- Writing is atomic (`write_atomically`): a kill at any moment leaves the old snapshot or the new one.
  `Snapshots.take` pickles and writes on a thread of its own, off the shell's loop; one at a time.
- A game's long history (`Entries`, e.g. 100 000 turns) is kept compact: its items as pickled chunks
  (`_entries_form`), given back as a deferred head (`Entries.deferred`) that is unpickled only when an
  item of it is first read (an undo, the end's report) — a start unpickles bytes, not 100 000 objects.
  The chunks are the buffer's memo: the next snapshot pickles only the items entered since the last one,
  so a snapshot's cost is that of what changed (and of its bytes written) however long the game.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import hmac
import importlib
import io
import json
import logging
import os
import pickle
import secrets
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import firmware_host
from firmware_host.core import app
from firmware_host.core.table.entries import Entries
from firmware_host.journal import Journal, JournalError
from firmware_host.paths import write_atomically

log = logging.getLogger("wordtable")

SNAPSHOT_NAME = "resume.snapshot"
KEY_NAME = "resume.key"
MAGIC = b"wtsnap1\n"
TAG_BYTES = 32
CHUNKED = 64  # entries from this many on are kept as pickled chunks
LOOSE = 8  # the latest entries, kept as items (what a screen reads: the last turn) however many there are


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a snapshot stands in the journal: the session, its last input in the snapshot (`seq`, that
    entry's checksum and wall time), how many inputs the session had then, and the open table game with
    its last entry then (`table_seq` 0: none yet; `table_crc` its checksum)."""

    session: int
    seq: int
    crc: int
    wall_time: str
    entries: int
    table: int | None
    table_seq: int
    table_crc: int


@functools.cache
def code_version() -> bytes:
    """A hash of this program's sources (every module of the package): a snapshot of other code is stale."""
    root = Path(firmware_host.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.digest()


def box_key(state_dir: Path) -> bytes:
    """The box's snapshot key, kept in `state_dir` (made on first use). Raises OSError."""
    path = state_dir / KEY_NAME
    try:
        key = path.read_bytes()
        if len(key) == 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    write_atomically(path, key)
    os.chmod(path, 0o600)
    return key


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


_set = object.__setattr__


def _rebuilt(cls: type, values: tuple[Any, ...]) -> Any:
    """A dataclass instance with exactly these field values (no `__init__`, no `__post_init__`: as it was)."""
    obj = object.__new__(cls)
    for name, value in zip(_field_names(cls), values, strict=True):
        _set(obj, name, value)
    return obj


def _constant(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def _constants() -> dict[int, tuple[str, str]]:
    """The core's module-level objects that are equal only to themselves (a game's record codec): a
    snapshot refers to them by name, so the state it gives back holds the very same ones."""
    found = {}
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("firmware_host.core") and module is not None:
            for name, value in list(vars(module).items()):
                cls = type(value)
                if cls.__module__.startswith("firmware_host.") and cls.__eq__ is object.__eq__:
                    found[id(value)] = (module_name, name)
    return found


class _Chunks:
    """The items of pickled chunks, in order (what a deferred head of `Entries` is made by)."""

    def __init__(self, chunks: tuple[bytes, ...]) -> None:
        self.chunks = chunks

    def __call__(self) -> Sequence[Any]:
        items: list[Any] = []
        for chunk in self.chunks:
            items.extend(loads(chunk))
        return items


def _entries(count: int, chunks: tuple[bytes, ...], loose: tuple[Any, ...]) -> Entries[Any]:
    """`Entries` of `count` items in `chunks` (deferred: unpickled on first need), then `loose`."""
    return Entries.deferred(count, _Chunks(chunks), loose, memo=(count, chunks))


class _Pickler(pickle.Pickler):
    """Dataclasses as their field values (a third of the unpickling time of their frozen `__setstate__`),
    the core's constants by name (`_constants`), long `Entries` as chunks (`_entries_form`)."""

    def __init__(self, out: io.BytesIO, constants: dict[int, tuple[str, str]] | None = None) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self._constants = _constants() if constants is None else constants

    def reducer_override(self, obj: Any) -> Any:
        named = self._constants.get(id(obj))
        if named is not None:
            return _constant, named
        cls = type(obj)
        if cls is Entries and len(obj) >= CHUNKED:
            return _entries, self._entries_form(obj)
        if hasattr(cls, "__dataclass_fields__") and not isinstance(obj, type):
            return _rebuilt, (cls, tuple([getattr(obj, name) for name in _field_names(cls)]))
        return NotImplemented

    def _entries_form(self, entries: Entries[Any]) -> tuple[int, tuple[bytes, ...], tuple[Any, ...]]:
        """How many items are chunked, the chunks and the loose items after them. The chunks its buffer's
        memo holds are reused (they hold the buffer's first items, which never change); only the items
        after them are pickled, as one more chunk, and kept in the memo for the next snapshot."""
        memo = entries.memo
        count, chunks = memo if isinstance(memo, tuple) and memo[0] <= len(entries) else (0, ())
        upto = len(entries) - LOOSE
        if upto > count:
            out = io.BytesIO()
            _Pickler(out, self._constants).dump(entries.since(count)[:upto - count])
            count, chunks = upto, (*chunks, out.getvalue())
            entries.keep((count, chunks))
        return count, chunks, entries.since(count)


def dumps(state: app.AppState) -> bytes:
    out = io.BytesIO()
    _Pickler(out).dump(state)
    return out.getvalue()


def loads(data: bytes) -> Any:
    """The unpickled value (the collector paused: a long game is some 100 000 new objects)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if collecting:
            gc.enable()


def _tag(key: bytes, identity: int, mark: bytes, body: bytes) -> bytes:
    message = hmac.new(key, code_version(), hashlib.sha256)
    message.update(identity.to_bytes(8, "big"))
    message.update(len(mark).to_bytes(4, "big"))
    message.update(mark)
    message.update(body)
    return message.digest()


def pack(key: bytes, identity: int, mark: Mark, state: app.AppState) -> bytes:
    """The snapshot file's bytes: magic, tag, the mark's length and JSON, the pickle."""
    head = json.dumps(asdict(mark), separators=(",", ":")).encode()
    body = dumps(state)
    return MAGIC + _tag(key, identity, head, body) + len(head).to_bytes(4, "big") + head + body


def unpack(key: bytes, identity: int, data: bytes) -> tuple[Mark, app.AppState]:
    """The mark and the state of a snapshot file's bytes. Raises ValueError (with the reason) for bytes
    that are not a snapshot of this box, this journal and this code — before anything is unpickled."""
    start = len(MAGIC) + TAG_BYTES + 4
    if len(data) < start or not data.startswith(MAGIC):
        raise ValueError("not a snapshot (cut short or another format)")
    tag = data[len(MAGIC):len(MAGIC) + TAG_BYTES]
    size = int.from_bytes(data[start - 4:start], "big")
    head, body = data[start:start + size], data[start + size:]
    if not hmac.compare_digest(tag, _tag(key, identity, head, body)):
        raise ValueError("its tag does not hold (another box, journal or program version, or damaged)")
    mark = Mark(**json.loads(head))
    state = loads(body)
    if not isinstance(state, app.AppState):
        raise ValueError("it holds no table state")
    return mark, state


class Snapshots:
    """The snapshot of one journal in its state directory: `load` the newest, `take` a new one."""

    def __init__(self, path: Path, key: bytes, identity: int) -> None:
        self.path = path
        self._key = key
        self._identity = identity
        self._writer: threading.Thread | None = None
        self.size = 0  # bytes of the newest snapshot written or loaded (0: none): `shell_journal.snapshot_due`
        self.written: Callable[[Mark, int], None] = lambda mark, size: None  # after each write (bench, tests)

    @classmethod
    def of(cls, journal: Journal) -> Snapshots | None:
        """The snapshots beside `journal` (None, logged, when its key cannot be had: no snapshots then)."""
        try:
            identity = os.stat(journal.path).st_ino
            return cls(journal.path.with_name(SNAPSHOT_NAME), box_key(journal.path.parent), identity)
        except OSError as exc:
            log.warning("no resume snapshots: %s", exc)
            return None

    def load(self, journal: Journal, session: int) -> tuple[Mark, app.AppState] | None:
        """The newest snapshot when it is trusted and the journal holds its mark in `session` (and the table
        game's entry it names); None (the reason logged) otherwise."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("resume snapshot not read, the session is replayed in full: %s", exc)
            return None
        try:
            mark, state = unpack(self._key, self._identity, data)
        except Exception as exc:  # whatever the bytes are, a start goes on without them
            log.warning("resume snapshot %s refused, the session is replayed in full: %s", self.path, exc)
            return None
        if mark.session != session:
            log.info("resume snapshot of session %d: not the open one", mark.session)
            return None
        try:
            held = journal.entry_crc(session, mark.seq) == mark.crc and (
                mark.table is None or mark.table_seq == 0
                or journal.entry_crc(mark.table, mark.table_seq) == mark.table_crc)
        except JournalError as exc:
            log.warning("resume snapshot not checked, the session is replayed in full: %s", exc)
            return None
        if not held:
            log.warning("resume snapshot at entry %d is not what the journal holds: the session is replayed in full",
                        mark.seq)
            return None
        self.size = len(data)
        return mark, state

    def busy(self) -> bool:
        return self._writer is not None and self._writer.is_alive()

    def take(self, mark: Mark, state: app.AppState) -> None:
        """Write a snapshot of `state` at `mark` on a thread of its own (nothing when one is being written)."""
        if self.busy():
            return
        self._writer = threading.Thread(target=self._write, args=(mark, state), name="snapshot", daemon=True)
        self._writer.start()

    def wait(self) -> None:
        """Until the snapshot being written, if any, is written."""
        if self._writer is not None:
            self._writer.join()

    def _write(self, mark: Mark, state: app.AppState) -> None:
        try:
            data = pack(self._key, self._identity, mark, state)
            write_atomically(self.path, data)
        except Exception:  # a cache: the journal holds everything
            log.exception("resume snapshot at entry %d not written", mark.seq)
            return
        self.size = len(data)
        self.written(mark, len(data))
