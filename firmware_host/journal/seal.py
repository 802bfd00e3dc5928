"""The seal of a clean close: `<name>.clean` beside the journal records the file's size and modification
time when `Journal.close` left it. The next open removes the seal before writing (`take_seal`) and skips
`PRAGMA quick_check` (which reads the whole file) when the file is exactly as sealed: only a file changed
since the last clean shutdown (a crash, a power cut, another writer) is checked in full.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger("wordtable.journal")


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


def seal(path: Path) -> None:
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


def take_seal(path: Path) -> bool:
    """Remove the seal beside `path` (before anything writes the file) and say whether it held: the file
    is exactly as the last clean `close` left it."""
    marker = _seal_path(path)
    try:
        recorded = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = None
    try:
        marker.unlink(missing_ok=True)
    except OSError:
        return False
    return recorded is not None and recorded == _stamp(path)
