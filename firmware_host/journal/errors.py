"""The journal's errors: what every part of the journal raises instead of a bare sqlite3 or OS error."""

from __future__ import annotations

from pathlib import Path


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
