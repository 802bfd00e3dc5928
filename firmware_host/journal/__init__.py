"""The journal: every table event, appended to SQLite before its effects run (DESIGN.md "Durability").

Contract:
- One file, WAL mode; every write is one transaction, on the storage before it returns unless asked
  otherwise; `batch()` joins several into one, so an input and every record line it causes commit together
  or not at all (the connection's discipline: `store`). Sequence numbers grow across all games and never
  repeat.
- Every row carries a checksum (`checksum`, `integrity`), written beside every change and checked when
  the journal is opened (games, settings) and as its entries are read (`stream`): damage in a row is
  `JournalDamaged`, never a replay of what the damage made of it.
- Entries have a `kind`. `RECORD` entries hold one record line each (`{"event": NAME, ...}`, the format
  of `firmware_host.core.record`) and are what `export_record` writes; any other kind (timer state,
  shell input, notes) is kept and replayed but never exported. The write path of an entry is `append`
  (and `rewrite`), its read path `stream`; what a cell stores is written and read by `rows`.
- A finished game is archived (it keeps its events and gets a finish time and winner), never deleted.
- A file that is not this journal is never written to: `Journal.open` moves it aside, says so in
  `Journal.moved_aside` and in the log, and starts an empty journal with what still reads salvaged
  (`file`, `salvage`). `close()` seals the file so that the next open can skip the full check (`seal`).
- The outbox (`enqueue`): a finished game queued for the league (docs/league.md) in the transaction that
  finishes it, with an id of its own that stays the same however often it is sent; the publisher
  (`firmware_host.league.outbox`) deletes it once the league has stored it.
- Settings that survive restarts (last timer duration, language) live in a small key/value table.
A `Journal` belongs to the thread that opened it (sqlite3's default check).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from firmware_host.core.record import dump_line, header_line
from firmware_host.journal.checksum import Chain
from firmware_host.journal.errors import JournalDamaged, JournalError
from firmware_host.journal.file import APPLICATION_ID, MovedAside, unusable_reason
from firmware_host.journal.integrity import game_row_ok, reseal_game, reseal_setting, seal_event, setting_ok
from firmware_host.journal.rows import (
    RECORD,
    RETRACT,
    SUMMARY,
    UNREADABLE,
    GameSummary,
    JournalEntry,
    cell,
    dumps,
    loads,
    summary,
)
from firmware_host.journal.store import CHECKPOINT_EVERY, Store

__all__ = [
    "APPLICATION_ID", "CHECKPOINT_EVERY", "RECORD", "RETRACT", "GameSummary", "Journal", "JournalDamaged",
    "JournalEntry", "JournalError", "MovedAside", "unusable_reason", "utc_now",
]

def utc_now() -> str:
    """The wall-clock label used where the caller gives none (seconds, UTC, ISO 8601)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Journal(Store):
    """The open journal's games, entries, outbox and settings. Create with `Journal.open(path)`; close with
    `close()` or a `with` block (`Store`)."""

    # -- games -------------------------------------------------------------------------------------

    def start_game(
        self, game: str, players: Iterable[str], meta: Mapping[str, Any] | None = None, *,
        wall_time: str | None = None, beside: int | None = None,
    ) -> int:
        """Start a game and return its id. Every game still open is archived first, with no winner —
        except `beside`, which stays open (the appliance session a table game is played in)."""
        names = list(players)
        if not game or not all(isinstance(name, str) for name in names):
            raise JournalError("a game needs a name and its players as texts")
        when = wall_time or utc_now()
        with self._write() as db:
            still_open = [row[0] for row in db.execute(
                "SELECT id FROM games WHERE finished IS NULL AND id IS NOT ?", (beside,))]
            db.execute("UPDATE games SET finished = ? WHERE finished IS NULL AND id IS NOT ?", (when, beside))
            cursor = db.execute(
                "INSERT INTO games (game, players, meta, started) VALUES (?, ?, ?, ?)",
                (game, dumps(names), dumps(dict(meta or {})), when),
            )
            assert cursor.lastrowid is not None
            for game_id in [*still_open, cursor.lastrowid]:
                reseal_game(db, game_id)
        return cursor.lastrowid

    def append(self, game_id: int, kind: str, payload: Mapping[str, Any], wall_time: str) -> int:
        """Append one entry to an open game in its own transaction; return its sequence number once
        committed (the event is then acknowledged). A `RECORD` payload must have a text "event"."""
        if not kind:
            raise JournalError("an entry needs a kind")
        if kind == RECORD and not (isinstance(payload.get("event"), str) and payload["event"]):
            raise JournalError('a record entry needs its "event" name')
        text = dumps(dict(payload))
        with self._write() as db:
            self._require_open(db, game_id)
            cursor = db.execute(
                "INSERT INTO events (game_id, kind, payload, wall_time) VALUES (?, ?, ?, ?)",
                (game_id, kind, text, wall_time),
            )
            assert cursor.lastrowid is not None
            seal_event(db, cursor.lastrowid)
        return cursor.lastrowid

    def rewrite(self, seq: int, payload: Mapping[str, Any], wall_time: str) -> None:
        """Replace the payload of the latest entry `seq` of an open game (a superseded clock checkpoint);
        any other entry raises `JournalError` — what was acknowledged is never changed."""
        text = dumps(dict(payload))
        with self._write() as db:
            row = db.execute("SELECT game_id, kind, (SELECT max(seq) FROM events) FROM events WHERE seq = ?",
                             (seq,)).fetchone()
            if row is None or row[2] != seq:
                raise JournalError(f"entry {seq} is not the latest entry")
            self._require_open(db, row[0])
            db.execute("UPDATE events SET payload = ?, wall_time = ? WHERE seq = ?", (text, wall_time, seq))
            seal_event(db, seq)

    def drop_finished(self, game: str) -> int:
        """Delete every finished game of kind `game` with its entries (appliance sessions a later one
        continues from its snapshot; never a table game); returns how many entries went."""
        with self._write() as db:
            ids = "SELECT id FROM games WHERE game = ? AND finished IS NOT NULL"
            gone = db.execute(f"DELETE FROM events WHERE game_id IN ({ids})", (game,)).rowcount
            db.execute("DELETE FROM games WHERE game = ? AND finished IS NOT NULL", (game,))
        return gone

    def finish(self, game_id: int, winner: str | None, *, wall_time: str | None = None) -> None:
        """Archive an open game with its winner (None: no winner, e.g. abandoned)."""
        with self._write() as db:
            self._require_open(db, game_id)
            when = wall_time or utc_now()
            db.execute("UPDATE games SET finished = ?, winner = ? WHERE id = ?", (when, winner, game_id))
            reseal_game(db, game_id)

    def open_game(self, game: str | None = None, *, other_than: str | None = None) -> int | None:
        """The id of the latest unfinished game (of kind `game`, when given; of any kind but `other_than`,
        when that is given), or None. One query, however many games the journal holds."""
        where, values = ["finished IS NULL"], []
        if game is not None:
            where.append("game = ?")
            values.append(game)
        if other_than is not None:
            where.append("game != ?")
            values.append(other_than)
        with self._reading() as db:
            row = db.execute(f"SELECT max(id) FROM games WHERE {' AND '.join(where)}", values).fetchone()
        return None if row[0] is None else int(row[0])

    def game(self, game_id: int) -> GameSummary:
        with self._reading() as db:
            row = db.execute(f"{SUMMARY} WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        return summary(row)

    def games(self) -> list[GameSummary]:
        """Every game, oldest first."""
        with self._reading() as db:
            return [summary(row) for row in db.execute(f"{SUMMARY} ORDER BY id")]

    def latest_game(self) -> int | None:
        with self._reading() as db:
            row = db.execute("SELECT max(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    def meta(self, game_id: int) -> dict[str, Any]:
        """A game's meta data (a session's snapshot); `JournalDamaged` when its row fails its checksum."""
        self.game(game_id)
        with self._reading() as db:
            row = db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
            if self.checksummed and not game_row_ok(db, game_id):
                raise JournalDamaged(self.path, f"game {game_id} fails its checksum")
        value = loads(row[0])
        if not isinstance(value, dict):
            raise JournalError(f"game {game_id}: its meta data is unreadable")
        return value

    # -- events ------------------------------------------------------------------------------------

    def events(self, game_id: int, kinds: Iterable[str] | None = None) -> list[JournalEntry]:
        """A game's entries in the order they were appended (all kinds, or only `kinds`)."""
        return list(self.stream(game_id, kinds))

    def stream(self, game_id: int, kinds: Iterable[str] | None = None, *,
               after: tuple[int, int] | None = None) -> Iterator[JournalEntry]:
        """`events` one row at a time (what a resume replays: memory stays flat however long the game).
        Every entry of the game is checked against its checksum chain (`checksum`) before the first one
        after it is given out: an entry that fails it, or does not decode, raises `JournalDamaged` there —
        nothing after a damaged entry is ever replayed. `after=(seq, crc)`: only the entries after `seq`,
        whose chain goes on from `crc` (a resume from a snapshot: the cost is that of the tail). Nothing may
        write to the journal while the stream is read."""
        self.game(game_id)
        wanted = None if kinds is None else set(kinds)
        since, crc = after or (0, 0)
        chain = Chain({game_id: crc} if after else None) if self.checksummed else None
        with self._reading() as db:
            rows = db.execute(
                f"SELECT seq, game_id, kind, payload, wall_time, {self._crc} FROM events WHERE game_id = ?"
                " AND seq > ? ORDER BY seq",
                (game_id, since),
            )
            for seq, gid, kind, payload, when, crc in rows:
                if chain is not None and not chain.good((seq, gid, kind, payload, when), crc):
                    raise JournalDamaged(self.path, f"entry {seq} of game {game_id} fails its checksum")
                if wanted is not None and kind not in wanted:
                    continue
                value = loads(payload)
                if not isinstance(value, dict):  # damaged in place (quick_check sees structure, not content)
                    raise JournalDamaged(self.path, f"entry {seq} of game {game_id} does not decode")
                yield JournalEntry(seq, gid, kind, value, cell(when))

    def check(self, game_id: int, *, after: tuple[int, int] | None = None) -> None:
        """Read every entry of a game (after `after`, as `stream` takes it) as `stream` does:
        `JournalDamaged` when one is damaged."""
        for _ in self.stream(game_id, after=after):
            pass

    def entry_crc(self, game_id: int, seq: int) -> int | None:
        """The checksum of entry `seq` of game `game_id` (None: the game has no such entry, or the journal
        no checksums). One indexed read."""
        with self._reading() as db:
            row = db.execute(f"SELECT {self._crc} FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
        return row[0] if row is not None and isinstance(row[0], int) else None

    def last_entry(self, game_id: int) -> tuple[int, int | None] | None:
        """The seq and checksum of the latest entry of a game (None: it has none). One indexed read."""
        with self._reading() as db:
            row = db.execute(f"SELECT seq, {self._crc} FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                             (game_id,)).fetchone()
        return None if row is None else (int(row[0]), row[1] if isinstance(row[1], int) else None)

    def export_record(self, game_id: int) -> str:
        """The game as a record (JSON Lines, the input of `wordtable score`): the header, then every
        `RECORD` entry in order, less those a `RETRACT` entry took back (each takes back the latest
        record line still standing). A line without an "at" label gets the entry's wall time."""
        summary = self.game(game_id)
        standing: list[JournalEntry] = []
        for entry in self.events(game_id, kinds=(RECORD, RETRACT)):
            if entry.kind == RETRACT:
                if standing:
                    standing.pop()
            else:
                standing.append(entry)
        lines = [dump_line(header_line(summary.game))]
        for entry in standing:
            line = dict(entry.payload)
            line.setdefault("at", entry.wall_time)
            lines.append(dump_line(line))
        return "\n".join(lines) + "\n"

    def enqueue(self, game_id: int) -> str:
        """Queue the finished game `game_id` for the league (in the caller's batch, if any); its id."""
        summary = self.game(game_id)
        if summary.finished is None:
            raise JournalError(f"game {game_id} is still open")
        import uuid  # late: it loads `platform`, which a start does not need

        league_id = str(uuid.uuid4())
        payload = {
            "id": league_id, "game": summary.game, "players": list(summary.players), "started": summary.started,
            "finished": summary.finished, "winner": summary.winner, "record": self.export_record(game_id),
        }
        with self._write() as db:
            db.execute("INSERT INTO outbox (id, game_id, payload, queued) VALUES (?, ?, ?, ?)",
                       (league_id, game_id, dumps(payload), utc_now()))
        return league_id

    # -- settings ----------------------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        """The value stored under `key`, or `default`; `JournalDamaged` when its row fails its checksum."""
        with self._reading() as db:
            row = db.execute(f"SELECT value, {self._crc} FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        self._check_setting(key, *row)
        value = loads(row[0])
        return default if value is UNREADABLE else value

    def set_setting(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable value under `key` (replacing the old one), durably."""
        text = dumps(value)
        with self._write() as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, text),
            )
            reseal_setting(db, key)

    def settings(self) -> dict[str, Any]:
        """Every setting; `JournalDamaged` when a row fails its checksum."""
        with self._reading() as db:
            rows = db.execute(f"SELECT key, value, {self._crc} FROM settings ORDER BY key").fetchall()
        for key, value, crc in rows:
            self._check_setting(key, value, crc)
        values = {key: loads(value) for key, value, _ in rows}
        return {key: value for key, value in values.items() if value is not UNREADABLE}

    @property
    def _crc(self) -> str:
        """The checksum column in a query (NULL in a journal older than the checksums)."""
        return "crc" if self.checksummed else "NULL"

    def _check_setting(self, key: str, value: Any, crc: Any) -> None:
        if self.checksummed and not setting_ok(key, value, crc):
            raise JournalDamaged(self.path, f"setting {key!r} fails its checksum")

    @staticmethod
    def _require_open(db: sqlite3.Connection, game_id: int) -> None:
        row = db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        if row[0] is not None:
            raise JournalError(f"game {game_id} is finished (archived at {row[0]})")

