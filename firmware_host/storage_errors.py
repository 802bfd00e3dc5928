"""Why storage failed, in the three words the core shows on the OLED (`app.UNSAVED_REASONS`).

One classifier for every place that words a storage failure: the journal that cannot be opened at start
(`resume`) and the one that fails while the table plays (`Shell`). An `OSError` anywhere in the exception's
chain speaks by its errno; otherwise the message's words decide (SQLite's and the journal's texts carry no
code once wrapped in a `JournalError`). The log keeps the exception whole.
"""

from __future__ import annotations

import errno
from typing import Literal

StorageReason = Literal["full", "readonly", "error"]

_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
_READONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR})
_FULL_WORDS = ("full", "no space", "too large")
_READONLY_WORDS = ("read-only", "readonly", "permission", "unable to open", "not a directory")


def storage_reason(exc: BaseException) -> StorageReason:
    """"full" (no space left), "readonly" (the storage refuses writes or cannot be opened for them) or
    "error" (anything else: an I/O error, a damaged file)."""
    code = _errno(exc)
    if code in _FULL_ERRNOS:
        return "full"
    if code in _READONLY_ERRNOS:
        return "readonly"
    text = str(exc).lower()
    if any(word in text for word in _FULL_WORDS):
        return "full"
    if any(word in text for word in _READONLY_WORDS):
        return "readonly"
    return "error"


def _errno(exc: BaseException) -> int | None:
    """The errno of the first `OSError` in `exc`'s chain (itself, then its cause or context), if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno is not None:
            return current.errno
        current = current.__cause__ or current.__context__
    return None
