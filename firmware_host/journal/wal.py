"""Damage to the journal's write-ahead log, found before SQLite opens it (SQLite itself keeps the frames up
to the first one whose salt or checksum fails and silently drops the rest: a game rolled back).

What SQLite writes (https://www.sqlite.org/fileformat.html#the_write_ahead_log): a 32-byte header (magic,
page size, salts, a checksum of the header), then frames, each a 24-byte header (page number, the
database size on a commit frame, the salts, a checksum chained over every frame before) and a page. A WAL
is reused after a checkpoint: frames of an older generation carry other salts and are no part of it.
The wal-index (`-shm`) beside it keeps, in a header of two copies with a checksum, the salts and the
number of frames committed (`mxFrame`) as the last writer left them; it survives a crash of the process.

`wal_damage` compares the two: the WAL is damaged when the wal-index of its generation (the same salts)
counts more committed frames than the WAL's valid frames hold — frames cut off or damaged after they were
committed — or when its header does not read while the index says frames are not yet in the database.
A crash of the process leaves the index right. A power cut can leave it ahead of the WAL on the storage
(it is never synced) only by commits not yet synced, never acknowledged: then the salvage keeps all that
was acknowledged and says so where nothing was lost — never a silent loss. Without a readable index
of the same generation (a power cut may leave none) there is nothing to compare with, and SQLite's own
recovery stands. Frames after the valid ones are no evidence on their own: a writer that resumes after a
crash writes over the torn tail and leaves older frames of the same generation behind its own.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

_MAGIC = (0x377F0682, 0x377F0683)  # checksums little- / big-endian
_VERSION = 3007000
_HEADER = 32
_FRAME_HEADER = 24
_INDEX_HEADER = 48


def _checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & mask
        s1 = (s1 + words[i + 1] + s0) & mask
    return s0, s1


def wal_damage(db_path: Path) -> str | None:
    """Why the WAL beside the journal at `db_path` is damaged (see the module's rule), or None. Reads the
    files only; an unreadable file is not damage."""
    index = _index(db_path)
    if index is None:
        return None
    salts, indexed, backfilled = index
    try:
        wal = Path(f"{db_path}-wal").read_bytes()
    except FileNotFoundError:
        wal = b""
    except OSError:
        return None
    header_ok, page_size, wal_salts, big, (s0, s1) = _header(wal)
    if not header_ok:
        if indexed > backfilled:
            return f"damaged (its write-ahead log does not read; {indexed - backfilled} committed frames are lost)"
        return None
    if wal_salts != salts:
        return None
    frame = _FRAME_HEADER + page_size
    committed = 0
    for i in range(min(indexed, (len(wal) - _HEADER) // frame)):
        at = _HEADER + i * frame
        head = wal[at:at + _FRAME_HEADER]
        if head[8:16] != salts:
            break
        s0, s1 = _checksum(head[:8] + wal[at + _FRAME_HEADER:at + frame], big, s0, s1)
        if struct.unpack(">II", head[16:24]) != (s0, s1):
            break
        if struct.unpack(">I", head[4:8])[0]:
            committed = i + 1
    if committed < indexed:
        return f"damaged (its write-ahead log holds {committed} of {indexed} committed frames)"
    return None


def _header(wal: bytes) -> tuple[bool, int, bytes, bool, tuple[int, int]]:
    """Whether the WAL header reads; its page size, salts, checksum order and checksum."""
    if len(wal) < _HEADER:
        return False, 0, b"", False, (0, 0)
    magic, version, page_size = struct.unpack(">III", wal[:12])
    big = magic == _MAGIC[1]
    ok = magic in _MAGIC and version == _VERSION and 512 <= page_size <= 65536 and not page_size & (page_size - 1)
    sums = _checksum(wal[:24], big)
    ok = ok and struct.unpack(">II", wal[24:32]) == sums
    return ok, page_size, wal[16:24], big, sums


def _index(db_path: Path) -> tuple[bytes, int, int] | None:
    """The wal-index's salts, committed frames and frames already in the database, or None when there is
    no readable index (absent, its two header copies differ, a failing checksum)."""
    try:
        with Path(f"{db_path}-shm").open("rb") as file:
            data = file.read(2 * _INDEX_HEADER + 4)
    except OSError:
        return None
    if len(data) < 2 * _INDEX_HEADER + 4 or data[:_INDEX_HEADER] != data[_INDEX_HEADER:2 * _INDEX_HEADER]:
        return None
    order = "<" if sys.byteorder == "little" else ">"  # the index is in the machine's byte order
    version, _, _, is_init, _, _, mx_frame, _, _, _ = struct.unpack(f"{order}IIIBBHIIII", data[:32])
    if version != _VERSION or not is_init:
        return None
    if _checksum(data[:40], sys.byteorder == "big") != struct.unpack(f"{order}II", data[40:48]):
        return None
    (backfilled,) = struct.unpack(f"{order}I", data[2 * _INDEX_HEADER:2 * _INDEX_HEADER + 4])
    return data[32:40], int(mx_frame), int(backfilled)  # the salts as the WAL header's bytes, copied
