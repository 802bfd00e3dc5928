"""The publisher's side of the journal's outbox: its own SQLite connection to the journal file (the
shell's connection belongs to the shell's thread), used only from the publisher's thread; and `Resends`,
when each game waiting there is sent again.

A game is queued by the journal in the transaction that finishes it (`Journal.enqueue`); here it is read
to be sent and deleted only once the league says it has stored it (its id on the table's ack topic). A
PUBACK only says the broker took the message — with "no matching subscribers" nobody will ever get it —
so what the league has not acknowledged stays and is sent again (`Resends`), and from here after a restart.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RESEND_S = (5.0, 60.0)  # no league got it yet: sent again after 5 s, doubling up to 60 s
QUEUED_RESEND_S = 600.0  # the broker queued it for a league: sent again only after 10 min
SETTLE_S = 1.0  # after a connect: time for the retained ack to arrive before anything is sent again


class Outbox:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA busy_timeout = 10000")

    def pending(self) -> list[tuple[str, dict[str, Any]]]:
        """Every queued game, oldest first: (its league id, its payload)."""
        rows = self._db.execute("SELECT id, payload FROM outbox ORDER BY rowid").fetchall()
        return [(str(game_id), json.loads(payload)) for game_id, payload in rows]

    def delivered(self, game_id: str) -> bool:
        """The league has stored the game: it leaves the outbox (in a transaction of its own). False: it
        was not (or no longer) there."""
        return self._db.execute("DELETE FROM outbox WHERE id = ?", (game_id,)).rowcount > 0

    def close(self) -> None:
        self._db.close()


@dataclass
class Resends:
    """When each unacknowledged game is due to be sent (again), on the publisher's monotonic clock. Pure:
    the publisher tells it what happened and asks what is due."""

    backoff: tuple[float, float] = RESEND_S
    queued_after: float = QUEUED_RESEND_S
    _due: dict[str, float] = field(default_factory=dict)
    _sends: dict[str, int] = field(default_factory=dict)

    def reset(self, ids: list[str], at: float) -> None:
        """A (re)connect: every game still waiting is due at `at`, its backoff from the start."""
        self._due = dict.fromkeys(ids, at)
        self._sends = {}

    def add(self, ids: list[str], at: float) -> None:
        """New games in the outbox: due at `at`."""
        for game_id in ids:
            self._due.setdefault(game_id, at)

    def due(self, now: float) -> list[str]:
        """The games to send now, in the order they were scheduled."""
        return [game_id for game_id, at in self._due.items() if at <= now]

    def sent(self, game_id: str, now: float) -> None:
        """It was handed to the client: the next try after the backoff."""
        sends = self._sends.get(game_id, 0)
        first, cap = self.backoff
        self._due[game_id] = now + min(cap, first * 2 ** sends)
        self._sends[game_id] = sends + 1

    def queued(self, game_id: str, now: float) -> None:
        """The broker's PUBACK says a subscriber has it: only a lost queue needs another try."""
        if game_id in self._due:
            self._due[game_id] = max(self._due[game_id], now + self.queued_after)

    def done(self, game_id: str) -> None:
        """The league has it."""
        self._due.pop(game_id, None)
        self._sends.pop(game_id, None)

    def next_at(self) -> float | None:
        return min(self._due.values(), default=None)
