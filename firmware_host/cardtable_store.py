"""Card tables on disk: kept items `cards/<game>` (`kept_store`), i.e. `<state>/kept/cards/<game>.json`.

Format (JSON; a hand-written `.toml` with the same keys loads too with `load_table`):
    {"cardtable": 1, "game": "quiddler", "cards": {"62E3086CED": "QU", ...}}
Load errors raise `CardTableError` naming the file and the key.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from firmware_host.core.cards import CardTable, kept_name, table_data, table_from_data
from firmware_host.kept_store import KeptError, kept_path, read_item, save_kept

CardTableError = KeptError


def table_path(state_dir: Path, game: str) -> Path:
    return kept_path(state_dir, kept_name(game))


def save_table(state_dir: Path, table: CardTable) -> Path:
    """Write `table` for its game (atomically); returns the path written."""
    return save_kept(state_dir, kept_name(table.game), table_data(table))


def load_table(path: Path) -> CardTable:
    """Read a card table file (.json or .toml)."""
    if path.suffix != ".toml":
        data: Any = read_item(path, "")
    else:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CardTableError(path, f"cannot read: {exc.strerror}") from exc
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise CardTableError(path, f"not valid TOML: {exc}") from exc
    try:
        return table_from_data(data)
    except ValueError as exc:
        raise CardTableError(path, str(exc)) from exc


def load_game_table(state_dir: Path, game: str) -> CardTable | None:
    """The saved table for `game`, or None when none was enrolled yet."""
    path = table_path(state_dir, game)
    if not path.exists():
        return None
    return table_from_data(read_item(path, kept_name(game)))
