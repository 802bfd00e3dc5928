"""Card tables on disk, in the state directory: `<state>/cards/<game>.json`.

Format (JSON; a hand-written `.toml` with the same keys loads too):
    {"cardtable": 1, "game": "quiddler", "cards": {"62E3086CED": "QU", ...}}
Saving is atomic (a temporary file renamed over the old one), so a power cut leaves the old table or the
new one, never half of one. Load errors raise `CardTableError` naming the file and the key.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from firmware_host.core.cards import CardTable

FORMAT_VERSION = 1


class CardTableError(Exception):
    def __init__(self, path: Path, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def table_path(state_dir: Path, game: str) -> Path:
    return state_dir / "cards" / f"{game}.json"


def save_table(state_dir: Path, table: CardTable) -> Path:
    """Write `table` for its game; returns the path written."""
    path = table_path(state_dir, table.game)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"cardtable": FORMAT_VERSION, "game": table.game, "cards": dict(table.faces)}
    temporary = path.with_suffix(".json.tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False, indent=1, sort_keys=True)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    return path


def load_table(path: Path) -> CardTable:
    """Read a card table file (.json or .toml)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardTableError(path, f"cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise CardTableError(path, "not UTF-8 text") from exc
    data: Any
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardTableError(path, f"not valid {path.suffix.lstrip('.').upper() or 'JSON'}: {exc}") from exc
    if not isinstance(data, dict):
        raise CardTableError(path, "must hold a table with keys cardtable, game, cards")
    if data.get("cardtable") != FORMAT_VERSION:
        raise CardTableError(path, f"cardtable: version {data.get('cardtable')!r} is not {FORMAT_VERSION}")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise CardTableError(path, "game: must be a game id such as perfektes-wort")
    cards = data.get("cards")
    if not isinstance(cards, dict):
        raise CardTableError(path, "cards: must map each code to its card face")
    for code, face in cards.items():
        if not code.strip() or not isinstance(face, str) or not face.strip():
            raise CardTableError(path, f"cards.{code}: code and face must be non-empty texts, got {face!r}")
    return CardTable(game, {code.strip(): face.strip() for code, face in cards.items()})


def load_game_table(state_dir: Path, game: str) -> CardTable | None:
    """The saved table for `game`, or None when none was enrolled yet."""
    path = table_path(state_dir, game)
    if not path.exists():
        return None
    table = load_table(path)
    if table.game != game:
        raise CardTableError(path, f"game: holds {table.game!r}, expected {game!r}")
    return table
