"""One classifier words every storage failure: the errno of an OSError in the exception's chain, else the
words of SQLite's and the journal's messages."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.journal import JournalError
from firmware_host.resume import open_journal
from firmware_host.storage_errors import storage_reason


@pytest.mark.parametrize(("exc", "reason"), [
    (OSError(errno.ENOSPC, "No space left on device"), "full"),
    (OSError(errno.EDQUOT, "Disk quota exceeded"), "full"),
    (OSError(errno.EROFS, "Read-only file system"), "readonly"),
    (PermissionError(errno.EACCES, "Permission denied"), "readonly"),
    (PermissionError(errno.EPERM, "Operation not permitted"), "readonly"),  # chattr +i
    (NotADirectoryError(errno.ENOTDIR, "Not a directory"), "readonly"),
    (OSError(errno.EIO, "Input/output error"), "error"),
    (FileExistsError(errno.EEXIST, "File exists"), "error"),
    (sqlite3.OperationalError("database or disk is full"), "full"),
    (sqlite3.OperationalError("attempt to write a readonly database"), "readonly"),
    (sqlite3.OperationalError("unable to open database file"), "readonly"),
    (sqlite3.OperationalError("disk I/O error"), "error"),
    (JournalError("journal write failed: database or disk is full"), "full"),
    (JournalError("journal sync failed: Input/output error"), "error"),
    (JournalError("cannot open the journal /x/journal.sqlite: Read-only file system"), "readonly"),
    (JournalError("no game 3 in the journal"), "error"),
])
def test_each_failure_has_its_word(exc: Exception, reason: str) -> None:
    assert storage_reason(exc) == reason
    assert reason in app.UNSAVED_REASONS  # a word the core has a text for


def test_a_wrapped_oserror_speaks_by_its_errno() -> None:
    try:
        try:
            raise OSError(errno.ENOSPC, "message in another language")
        except OSError:
            raise JournalError("journal sync failed: 28") from None  # the chain keeps it as the context
    except JournalError as wrapped:
        assert storage_reason(wrapped) == "full"


def test_a_state_directory_under_a_file_is_worded_readonly(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    assert open_journal(blocker / "wordtable") == (None, "readonly")


def test_a_state_directory_that_is_a_file_is_worded_error(tmp_path: Path) -> None:
    (tmp_path / "wordtable").write_text("")
    assert open_journal(tmp_path / "wordtable") == (None, "error")
