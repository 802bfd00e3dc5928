"""Where the appliance keeps its state (the journal). One rule for every command.

Order: an explicit `--state-dir`; else `$STATE_DIRECTORY` (set by systemd from `StateDirectory=`; when it
lists several directories, the first); else `/var/lib/wordtable` when it exists and is writable; else
`./sim-state` (a checkout, the simulator, tests).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

SYSTEM_STATE_DIR = Path("/var/lib/wordtable")
LOCAL_STATE_DIR = Path("sim-state")
JOURNAL_NAME = "journal.sqlite3"


def state_dir(
    explicit: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    system_dir: Path = SYSTEM_STATE_DIR,
) -> Path:
    """The state directory by the rule above (not created here)."""
    if explicit:
        return Path(explicit)
    environ = os.environ if env is None else env
    from_systemd = environ.get("STATE_DIRECTORY", "").split(":")[0]
    if from_systemd:
        return Path(from_systemd)
    if system_dir.is_dir() and os.access(system_dir, os.W_OK | os.X_OK):
        return system_dir
    return LOCAL_STATE_DIR


def journal_path(directory: Path) -> Path:
    """The journal file inside a state directory."""
    return directory / JOURNAL_NAME


def write_atomically(path: Path, data: bytes) -> None:
    """Put `data` at `path` so that a power cut leaves either the old file or all of the new one: written
    to `<name>.tmp` beside it, synced to the card, then renamed over `path`. Raises OSError."""
    temporary = path.with_name(f"{path.name}.tmp")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
