"""The box's data in one file and back: `wordtable backup` / `wordtable restore`, and the page's download
and upload (`page/backup_routes.py`).

A backup is a zip archive of exactly these members:
- `manifest.json` — `{"format": "wordtable-backup", "version": 1, "created": <UTC label>, "box": <the
  league's venue/table or null>, "games": <games in the journal>, "members": {<name>: {"sha256": <hex>,
  "bytes": <size>}}}`, naming every other member;
- `journal.sqlite3` — the whole journal (every game, the settings, the roster: what the journal holds),
  copied with SQLite's backup API, so the copy is consistent while the service writes;
- `kept/<name>.json` — the kept items (`kept_store`: card tables, highscores; card tables enrolled before
  `kept/`, in `cards/`, as the kept items they are read as).

Reading one (`read_backup`) checks everything before anything is written and raises `BackupError` with a
message for the user: not a zip archive, not ours (format), another version, a member that is missing,
extra, named outside the state directory (`..`, absolute, a symlink entry), of the wrong size or checksum,
a journal that is not a usable one, a kept item that does not read. Members are never extracted by the
names in the archive: each known name is written by this module to the path it means.

`restore_backup` writes the members into a temporary directory inside the state directory, checks the
journal there, and only then moves them into place (the journal last: it is what makes the restore real).
A state directory that already holds box data (`box_data`) is refused unless `replace`; then that data is
moved aside to `replaced-<UTC time>/`, never deleted (and not while another program, the service, has
the journal open). Other files there (the phones' seats, the word-list indexes) are the box's own and stay.

A restore from the page cannot swap the journal under the running service: it is staged and carried
out by the next start (`staged_restore`).
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import logging
import os
import re
import shutil
import sqlite3
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_host.core.cards import kept_name
from firmware_host.journal import Journal, JournalError, unusable_reason
from firmware_host.kept_store import KeptError, kept_dir, read_item
from firmware_host.paths import JOURNAL_NAME, journal_path, write_atomically

log = logging.getLogger("wordtable.backup")

FORMAT = "wordtable-backup"
VERSION = 1
MANIFEST = "manifest.json"
MAX_BYTES = 512 * 1024 * 1024  # all members together, unpacked: far above a box's years of play
_KEPT_MEMBER = re.compile(r"^kept/([a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)*)\.json$")
# The state directory's entries a backup holds (and a restore replaces): the journal with its WAL, index
# and seal, journals moved aside, the kept items and the card tables from before `kept/`.
_BOX_DATA = re.compile(rf"^(?:{re.escape(JOURNAL_NAME)}(?:-wal|-shm|\.clean|\.corrupt-.*)?|kept|cards)$")


class BackupError(Exception):
    """A backup that cannot be made or restored; the message says why, for the user."""


@dataclass(frozen=True, slots=True)
class Manifest:
    created: str
    box: str | None
    games: int
    members: dict[str, str]  # name -> SHA-256 (hex)


@dataclass(frozen=True, slots=True)
class Backup:
    """A backup read and checked: its manifest and every member's bytes."""

    manifest: Manifest
    members: dict[str, bytes]


@dataclass(frozen=True, slots=True)
class Restored:
    games: int
    moved_aside: Path | None  # where the data the restore replaced went


def utc_label(moment: datetime | None = None) -> str:
    return (moment or datetime.now(UTC)).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# --- making one ----------------------------------------------------------------------------------------


def create_backup(state_dir: Path, *, box: str | None = None, created: str | None = None) -> bytes:
    """The backup of `state_dir` as the bytes of its file. Safe beside the running service (the journal
    is read through a read-only connection). Raises `BackupError` when there is no usable journal."""
    journal = _journal_copy(journal_path(state_dir))
    members: dict[str, bytes] = {JOURNAL_NAME: journal.data}
    for path, name in _kept_files(state_dir):
        if name not in members and path.is_file() and not path.is_symlink() and _KEPT_MEMBER.match(name):
            members[name] = path.read_bytes()
    manifest = {
        "format": FORMAT, "version": VERSION, "created": created or utc_label(), "box": box,
        "games": journal.games,
        "members": {name: {"sha256": _sha256(data), "bytes": len(data)} for name, data in members.items()},
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _kept_files(state_dir: Path) -> list[tuple[Path, str]]:
    """(file, member name) of every kept item; the card tables from before `kept/` after them, named as
    the kept items they are read as (`kept_store.load_kept`: only where no kept one exists)."""
    root, legacy = kept_dir(state_dir), state_dir / "cards"
    found: list[tuple[Path, str]] = []
    if root.is_dir():
        found += [(p, f"kept/{p.relative_to(root).as_posix()}") for p in sorted(root.rglob("*.json"))]
    if legacy.is_dir():
        found += [(p, f"kept/{kept_name(p.stem)}.json") for p in sorted(legacy.glob("*.json"))]
    return found


def write_backup(state_dir: Path, target: Path, *, box: str | None = None) -> Manifest:
    """`create_backup` written to `target` atomically; its manifest."""
    data = create_backup(state_dir, box=box)
    try:
        write_atomically(target, data)
    except OSError as exc:
        raise BackupError(f"cannot write {target}: {exc.strerror or exc}") from None
    return read_backup(data).manifest


@dataclass(frozen=True, slots=True)
class _Copy:
    data: bytes
    games: int


def _journal_copy(path: Path) -> _Copy:
    try:
        Journal.open(path, readonly=True).close()  # refuses what is no usable journal
    except JournalError as exc:
        raise BackupError(str(exc)) from None
    with tempfile.TemporaryDirectory(prefix="wordtable-backup-") as scratch:
        copy = Path(scratch) / JOURNAL_NAME
        try:
            source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                target = sqlite3.connect(copy)
                try:
                    source.backup(target)  # one consistent snapshot, however the service writes meanwhile
                    target.execute("PRAGMA journal_mode = DELETE")  # the copy stands alone, with no WAL
                    games = int(target.execute("SELECT count(*) FROM games").fetchone()[0])  # of the snapshot
                finally:
                    target.close()
            finally:
                source.close()
        except sqlite3.Error as exc:
            raise BackupError(f"cannot copy the journal {path}: {exc}") from None
        return _Copy(copy.read_bytes(), games)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- reading one ---------------------------------------------------------------------------------------


# What zipfile raises for a damaged archive (a flipped bit in a header or in the deflated data, a cut).
_DAMAGE = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError, zlib.error)


def read_backup(data: bytes) -> Backup:
    """The backup in `data`, every member checked (see the module's text). Raises `BackupError`."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _DAMAGE:
        raise BackupError("not a wordtable backup: the file is no zip archive (damaged or cut short?)") from None
    with archive:
        infos = archive.infolist()
        names = [info.filename for info in infos]
        if MANIFEST not in names:
            raise BackupError("not a wordtable backup: it has no manifest.json")
        if len(set(names)) != len(names):
            raise BackupError("damaged backup: a member appears twice")
        if sum(info.file_size for info in infos) > MAX_BYTES:
            raise BackupError(f"refused: the backup unpacks to more than {MAX_BYTES // 2**20} MB")
        for info in infos:
            if stat.S_ISLNK(info.external_attr >> 16) or info.is_dir():
                raise BackupError(f"refused: {info.filename!r} is a link or a directory, not a file")
        try:
            manifest = _manifest(archive.read(MANIFEST))
            members = {name: archive.read(name) for name in names if name != MANIFEST}
        except _DAMAGE as exc:
            raise BackupError(f"damaged backup: {exc}") from None
    missing = sorted(set(manifest.members) - set(members))
    extra = sorted(set(members) - set(manifest.members))
    if missing:
        raise BackupError(f"damaged backup: members missing: {', '.join(missing)}")
    if extra:
        raise BackupError(f"refused: members not in its manifest: {', '.join(extra)}")
    for name, content in members.items():
        if _sha256(content) != manifest.members[name]:
            raise BackupError(f"damaged backup: {name} does not match its checksum")
    for name, content in members.items():
        if name.startswith("kept/"):
            _check_kept(name, content)
    return Backup(manifest, members)


def _manifest(raw: bytes) -> Manifest:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BackupError("not a wordtable backup: its manifest.json is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"not a wordtable backup: its manifest names no format {FORMAT!r}")
    if type(data.get("version")) is not int or data["version"] != VERSION:
        raise BackupError(f"a wordtable backup of format version {data.get('version')!r}; "
                          f"this program restores version {VERSION}")
    members, created, box, games = data.get("members"), data.get("created"), data.get("box"), data.get("games")
    if not isinstance(members, dict) or not isinstance(created, str) or not (box is None or isinstance(box, str)) \
            or type(games) is not int:
        raise BackupError("damaged backup: its manifest lacks members, created, box or games")
    sums: dict[str, str] = {}
    for name, entry in members.items():
        if name != JOURNAL_NAME and not _KEPT_MEMBER.match(name):
            raise BackupError(f"refused: member {name!r} is nothing a backup holds (a path outside the state "
                              "directory?)")
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str):
            raise BackupError(f"damaged backup: no checksum for {name}")
        sums[name] = entry["sha256"]
    if JOURNAL_NAME not in sums:
        raise BackupError(f"damaged backup: it holds no {JOURNAL_NAME}")
    return Manifest(created, box, games, sums)


def _check_kept(name: str, content: bytes) -> None:
    match = _KEPT_MEMBER.match(name)
    assert match is not None  # the manifest's names were checked
    with tempfile.TemporaryDirectory(prefix="wordtable-restore-") as scratch:
        path = Path(scratch) / "item.json"
        path.write_bytes(content)
        try:
            read_item(path, match.group(1))
        except KeptError as exc:
            raise BackupError(f"damaged backup: {name}: {exc.message}") from None


# --- restoring one -------------------------------------------------------------------------------------


def box_data(state_dir: Path) -> list[Path]:
    """The entries of `state_dir` that a backup holds and a restore replaces (sorted)."""
    if not state_dir.is_dir():
        return []
    return sorted(entry for entry in state_dir.iterdir() if _BOX_DATA.match(entry.name))


_SHM_DMS = 128  # the byte of the WAL index (`-shm`) every open SQLite connection holds a shared lock on


def journal_in_use(state_dir: Path) -> bool:
    """Whether another process has the journal open (the running service), by the lock SQLite holds on the
    WAL index for as long as a connection is open. Not for a journal this process has open: closing the
    probe would drop that connection's locks (POSIX locks are per process)."""
    try:
        fd = os.open(f"{journal_path(state_dir)}-shm", os.O_RDWR)
    except OSError:
        return False  # no WAL index: no connection in WAL mode
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _SHM_DMS)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, _SHM_DMS)
        return False
    finally:
        os.close(fd)


def restore_backup(state_dir: Path, data: bytes, *, replace: bool = False) -> Restored:
    """Put the backup in `data` into `state_dir` (created when absent). Raises `BackupError`, and then
    nothing on disk has changed: for a damaged or foreign backup, and for a state directory that holds box
    data unless `replace` (which moves that data aside)."""
    backup = read_backup(data)
    present = box_data(state_dir)
    if present and not replace:
        raise BackupError(f"{state_dir} already holds a box's data ({', '.join(p.name for p in present)}); "
                          "restore with --replace to move it aside first")
    if present and journal_in_use(state_dir):
        raise BackupError(f"the journal in {state_dir} is open in another program (the service?): stop it "
                          "first (sudo systemctl stop wordtable)")
    created = not state_dir.exists()
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".restore-", dir=state_dir))
    except OSError as exc:
        raise BackupError(f"cannot write into {state_dir}: {exc.strerror or exc}") from None
    try:
        try:
            games = _unpack(backup, scratch)
        except OSError as exc:
            raise BackupError(f"cannot write into {state_dir}: {exc.strerror or exc}") from None
        moved = _move_aside(state_dir, present) if present else None
        for entry in sorted(scratch.iterdir(), key=lambda p: p.name == JOURNAL_NAME):  # the journal last
            entry.rename(state_dir / entry.name)
        _sync(state_dir)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        if created:
            shutil.rmtree(state_dir, ignore_errors=True)
        raise
    scratch.rmdir()
    return Restored(games, moved)


def _unpack(backup: Backup, scratch: Path) -> int:
    """Write the members into `scratch` (synced), check the journal there; the number of its games."""
    for name, content in backup.members.items():
        target = scratch.joinpath(*name.split("/"))  # a checked name: `journal.sqlite3` or `kept/…/x.json`
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
    journal = scratch / JOURNAL_NAME
    reason = unusable_reason(journal)
    if reason is not None:
        raise BackupError(f"damaged backup: its journal is not usable ({reason})")
    try:
        with Journal.open(journal, readonly=True) as opened:
            games = len(opened.games())
    except JournalError as exc:
        raise BackupError(f"damaged backup: {exc}") from None
    if games != backup.manifest.games:
        raise BackupError(f"damaged backup: its journal holds {games} games, its manifest says "
                          f"{backup.manifest.games}")
    for leftover in scratch.glob(f"{JOURNAL_NAME}-*"):  # what the check's read-only connection left
        leftover.unlink()
    return games


def _move_aside(state_dir: Path, present: list[Path]) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target, counter = state_dir / f"replaced-{stamp}", 1
    while target.exists():
        counter += 1
        target = state_dir / f"replaced-{stamp}-{counter}"
    target.mkdir()
    for entry in sorted(present, key=lambda p: p.name != JOURNAL_NAME):  # the journal first: then no box data
        entry.rename(target / entry.name)
    log.info("restore: the data it replaces is kept in %s", target)
    return target


def _sync(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def manifest_json(manifest: Manifest) -> dict[str, Any]:
    """What a restore tells about a backup (the page's answer)."""
    return {"created": manifest.created, "box": manifest.box, "games": manifest.games}
