"""The publisher's side of the journal's outbox: its own SQLite connection to the journal file (the
shell's connection belongs to the shell's thread), used only from the publisher's thread.

A game is queued by the journal in the transaction that finishes it (`Journal.enqueue`); here it is read
to be sent and deleted once the broker has acknowledged it (PUBACK). What is not acknowledged stays and
is sent again — after a reconnect by the MQTT client itself, after a restart from here.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any


class Outbox:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA busy_timeout = 10000")

    def pending(self) -> list[tuple[str, dict[str, Any]]]:
        """Every queued game, oldest first: (its league id, its payload)."""
        rows = self._db.execute("SELECT id, payload FROM outbox ORDER BY rowid").fetchall()
        return [(str(game_id), json.loads(payload)) for game_id, payload in rows]

    def acknowledged(self, game_id: str) -> None:
        """The broker has the game: it leaves the outbox (in a transaction of its own)."""
        self._db.execute("DELETE FROM outbox WHERE id = ?", (game_id,))

    def close(self) -> None:
        self._db.close()
