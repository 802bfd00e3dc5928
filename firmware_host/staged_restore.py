"""A restore uploaded on the table page, carried out at the next start: the running service holds the
journal open, so the page checks the backup and keeps it as `<state>/restore.pending` (`stage_restore`);
`wordtable run` then stops with `EXIT_RESTORE`, systemd (`Restart=on-failure`) starts it again, and the
start restores it before the journal is opened (`apply_staged_restore`, replacing the box's data, which is
moved aside). Light on purpose: every start asks `apply_staged_restore`, which loads `backup` only when a
restore waits."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.paths import write_atomically

if TYPE_CHECKING:
    from firmware_host.backup import Manifest, Restored

log = logging.getLogger("wordtable.backup")

STAGED = "restore.pending"
REFUSED = "restore.refused"  # a staged backup that did not restore at the start, kept for a look
EXIT_RESTORE = 75  # `wordtable run` stopped with a restore staged (EX_TEMPFAIL): start it again


def staged_path(state_dir: Path) -> Path:
    return state_dir / STAGED


def stage_restore(state_dir: Path, data: bytes) -> Manifest:
    """Check the backup in `data` and keep it for the next start. Raises `BackupError` (then nothing is
    written)."""
    from firmware_host.backup import BackupError, read_backup

    manifest = read_backup(data).manifest
    try:
        write_atomically(staged_path(state_dir), data)
    except OSError as exc:
        raise BackupError(f"cannot write into {state_dir}: {exc.strerror or exc}") from None
    return manifest


def apply_staged_restore(state_dir: Path) -> Restored | None:
    """Carry out a staged restore, before the journal is opened; None when none waits. A staged file that
    no longer restores is renamed to `restore.refused` and logged: the box starts with the data it had."""
    path = staged_path(state_dir)
    if not path.is_file():
        return None
    from firmware_host.backup import BackupError, restore_backup

    try:
        restored = restore_backup(state_dir, path.read_bytes(), replace=True)
    except (BackupError, OSError) as exc:
        log.error("the restore uploaded on the page was not carried out: %s", exc)
        path.replace(state_dir / REFUSED)
        return None
    path.unlink()
    log.info("restored a backup uploaded on the page: %d games", restored.games)
    return restored
