"""What the core keeps across restarts (`effects.Keep`), in the state directory: one JSON file per name,
`<state>/kept/<name>.json` (e.g. `kept/cards/quiddler.json`, `kept/highscores/perfektes-wort.json`).

Saving is atomic (a temporary file renamed over the old one), so a power cut leaves the old data or the
new, never half of it. `load_kept` reads every item back for the `Kept` event at start; an unreadable
item is left out and named in a message (file and what is wrong). Items named `cards/<game>` must be
valid card tables (`core.cards.table_from_data`), the highscore list valid (`highscores_from_data`);
enrolled tables from before `kept/` (`<state>/cards/<game>.json`) are read when no kept one exists.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from firmware_host.core.cards import KEPT_PREFIX, kept_name, table_from_data
from firmware_host.core.games.perfektes_wort.highscores import KEPT_NAME as PW_HIGHSCORES
from firmware_host.core.games.perfektes_wort.highscores import highscores_from_data
from firmware_host.paths import write_atomically

_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")


class KeptError(Exception):
    def __init__(self, path: Path, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def kept_dir(state_dir: Path) -> Path:
    return state_dir / "kept"


def kept_path(state_dir: Path, name: str) -> Path:
    """The file for `name`. Raises ValueError for a name that is no safe relative path."""
    if not _NAME.match(name) or len(name) > 200:
        raise ValueError(f"kept item name {name!r}: use lower-case segments of a-z 0-9 . _ - joined by /")
    return kept_dir(state_dir) / f"{name}.json"


def save_kept(state_dir: Path, name: str, data: Any) -> Path:
    """Write `data` (JSON-ready) under `name`, atomically; returns the path written."""
    path = kept_path(state_dir, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return path


def read_item(path: Path, name: str) -> Any:
    """The data in one kept file, checked for its kind (card tables). Raises `KeptError`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KeptError(path, f"cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise KeptError(path, "not UTF-8 text") from exc
    except json.JSONDecodeError as exc:
        raise KeptError(path, f"not valid JSON: {exc}") from exc
    if name == PW_HIGHSCORES:
        try:
            highscores_from_data(data)
        except ValueError as exc:
            raise KeptError(path, str(exc)) from exc
    if name.startswith(KEPT_PREFIX):
        game = name.removeprefix(KEPT_PREFIX)
        try:
            table = table_from_data(data)
        except ValueError as exc:
            raise KeptError(path, str(exc)) from exc
        if table.game != game:
            raise KeptError(path, f"game: holds {table.game!r}, expected {game!r}")
    return data


def load_kept(state_dir: Path) -> tuple[dict[str, Any], list[str]]:
    """Every kept item (name -> data) and a message for each one that cannot be read."""
    items: dict[str, Any] = {}
    problems: list[str] = []
    root = kept_dir(state_dir)
    found = sorted(root.rglob("*.json")) if root.is_dir() else []
    legacy = state_dir / "cards"
    found_legacy = sorted(legacy.glob("*.json")) if legacy.is_dir() else []
    for path, name in [(p, p.relative_to(root).with_suffix("").as_posix()) for p in found] + [
        (p, kept_name(p.stem)) for p in found_legacy
    ]:
        if name in items or not _NAME.match(name):
            continue
        try:
            items[name] = read_item(path, name)
        except KeptError as exc:
            problems.append(str(exc))
    return items, problems


def repair_kept(state_dir: Path, journaled: dict[str, Any], on_disk: dict[str, Any]) -> list[str]:
    """Write every item the journal holds whose file is missing or says otherwise (a cut between the
    journal's sync and the file's write, a file that could not be written), and remove what such a cut left
    half-written (`*.tmp`). The journal is what the table was shown: its items win over the files. Returns a
    message for each file that cannot be written (the item stays in the journal)."""
    problems: list[str] = []
    root = kept_dir(state_dir)
    for leftover in sorted(root.rglob("*.json.tmp")) if root.is_dir() else []:
        try:
            leftover.unlink()
        except OSError as exc:
            problems.append(f"{leftover}: cannot remove: {exc.strerror}")
    for name, data in sorted(journaled.items()):
        if name in on_disk and on_disk[name] == data:
            continue
        try:
            save_kept(state_dir, name, data)
        except (OSError, ValueError) as exc:
            problems.append(f"{name}: not written, the journal keeps it: {getattr(exc, 'strerror', None) or exc}")
    return problems
