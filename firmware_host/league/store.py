"""The league's own SQLite file: every finished game of a venue once, by its id, re-scored on arrival.

`ingest(payload)` keeps a game once (a repeat by id changes nothing and says so), scores its record with
the game's rules core — the code path of `wordtable score` — and keeps each player's result; a record
that does not score is kept too, flagged with the reason, and counts in no standings. A game is dated by
when it was played (`played`: its end on the box's clock, moved onto the league's by the box's send time —
a box offline overnight delivers into the evening it was played), not by when it came. Standings are read
back per game kind, for the evening (games played since `EVENING_STARTS` o'clock, local time) or the
season (all). A `LeagueStore` belongs to the thread that opened it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from firmware_host.core.games.registry import parse_record, score
from firmware_host.core.history.played import FACTS
from firmware_host.core.record import RecordError, ScoreReport

EVENING_STARTS = 6  # an evening runs from 06:00 to 06:00 local time: a game after midnight still counts
BEST_KINDS = {"perfektes-wort": "words", "quiddler": "rounds"}  # what each game's best list shows
BEST_SHOWN = 10
TIMED = frozenset(game for game, facts in FACTS.items() if not facts.points)  # standings of time, not points

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    venue     TEXT NOT NULL,
    tbl       TEXT NOT NULL,
    game      TEXT NOT NULL,
    players   TEXT NOT NULL,
    started   TEXT,
    finished  TEXT,
    winner    TEXT,
    record    TEXT NOT NULL,
    received  TEXT NOT NULL,
    problem   TEXT,
    complete  INTEGER NOT NULL DEFAULT 0,
    report    TEXT,
    played    TEXT                -- `played_label`: when the game ended, on the league's clock
);
CREATE TABLE IF NOT EXISTS results (
    game_id   TEXT NOT NULL REFERENCES games(id),
    player    TEXT NOT NULL,
    points    INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE TABLE IF NOT EXISTS highlights (
    game_id   TEXT NOT NULL REFERENCES games(id),
    player    TEXT NOT NULL,
    round     TEXT NOT NULL,
    entry     TEXT NOT NULL,
    points    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_received ON games(received);
CREATE INDEX IF NOT EXISTS games_by_table ON games(venue, tbl)
"""


class PayloadError(ValueError):
    """A games message that is no game (its reason); it is logged and dropped."""


@dataclass(frozen=True, slots=True)
class Ingested:
    id: str
    table: str
    game: str
    new: bool  # False: a repeat, nothing changed
    problem: str | None  # why the record does not score; None: it scores


def now_label() -> str:
    return _label(datetime.now(UTC))


def _label(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _instant(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def played_label(data: Mapping[str, Any], received: str) -> str:
    """When the game was played, as a label on the league's clock: its `finished`, moved by the box's clock
    offset when the message says when it was sent (`sent_at`, Unix seconds on the same clock), never
    later than `received`; `received` itself for a game that names no end."""
    arrived = _instant(received) or datetime.now(UTC)
    finished = _instant(data.get("finished"))
    if finished is None:
        return received
    sent = data.get("sent_at")
    if isinstance(sent, (int, float)) and not isinstance(sent, bool):
        finished = arrived + (finished - datetime.fromtimestamp(float(sent), UTC))
    return _label(min(finished, arrived))


def evening_start(now: datetime | None = None) -> str:
    """The UTC label of the evening's start (`EVENING_STARTS` o'clock local time, today or yesterday)."""
    local = (now or datetime.now(UTC)).astimezone()
    start = local.replace(hour=EVENING_STARTS, minute=0, second=0, microsecond=0)
    if local < start:
        start -= timedelta(days=1)
    return _label(start)


def check_payload(data: Any) -> dict[str, Any]:
    """The fields a games message must have (docs/league-game.schema.json). Raises `PayloadError`."""
    if not isinstance(data, dict):
        raise PayloadError("not a JSON object")
    for key in ("id", "venue", "table", "game", "record"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise PayloadError(f"{key!r} is missing or not a text")
    if len(data["id"]) > 64:
        raise PayloadError("the id is longer than 64 characters")
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise PayloadError("'players' is not a list of names")
    return data


class LeagueStore:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")  # a game is stored before the broker is acknowledged
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if columns and "played" not in columns:  # a league file from before games were dated by their end
            self._db.execute("ALTER TABLE games ADD COLUMN played TEXT")
            rows = self._db.execute("SELECT id, finished, received FROM games").fetchall()
            self._db.executemany("UPDATE games SET played = ? WHERE id = ?",
                                 [(played_label({"finished": finished}, received), game_id)
                                  for game_id, finished, received in rows])
        for statement in _SCHEMA.split(";"):
            self._db.execute(statement)
        self._db.execute("CREATE INDEX IF NOT EXISTS games_by_played ON games(played)")

    def close(self) -> None:
        self._db.close()

    # -- in ------------------------------------------------------------------------------------------

    def ingest(self, payload: Mapping[str, Any], received: str | None = None) -> Ingested:
        """Keep the game once by its id (see the module). Raises `PayloadError` for no game."""
        data = check_payload(dict(payload))
        game_id = data["id"]
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
            row = self._db.execute("SELECT tbl, game, problem FROM games WHERE id = ?", (game_id,)).fetchone()
            return Ingested(game_id, row[0], row[1], False, row[2])
        report, problem = _scored(data)
        received = received or now_label()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(
                "INSERT INTO games (id, venue, tbl, game, players, started, finished, winner, record, received,"
                " problem, complete, report, played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, data["venue"], data["table"], data["game"], json.dumps(data.get("players", [])),
                 _text(data.get("started")), _text(data.get("finished")), _text(data.get("winner")),
                 data["record"], received, problem,
                 int(report is not None and report.finished),
                 None if report is None else json.dumps(report.to_json(), ensure_ascii=False),
                 played_label(data, received)),
            )
            if report is not None:
                self._results(game_id, data["game"], report)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return Ingested(game_id, data["table"], data["game"], True, problem)

    def _results(self, game_id: str, game: str, report: ScoreReport) -> None:
        totals: dict[str, int] = {}
        rows = report.rows()
        for row in rows:
            totals[row.player] = row.total
        winners = set(report.leaders) if report.finished else set()
        self._db.executemany("INSERT INTO results (game_id, player, points, won) VALUES (?, ?, ?, ?)",
                             [(game_id, player, total, int(player in winners)) for player, total in totals.items()])
        if game in BEST_KINDS:
            self._db.executemany(
                "INSERT INTO highlights (game_id, player, round, entry, points) VALUES (?, ?, ?, ?, ?)",
                [(game_id, row.player, row.round, row.entry, row.points) for row in rows
                 if row.entry.strip() and row.round != "end"])

    # -- out -----------------------------------------------------------------------------------------

    def count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])

    def ids(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY received, id")]

    def latest_ids(self, venue: str, table: str, count: int) -> list[str]:
        """The ids of the table's `count` games stored last, oldest first (what the league acknowledges)."""
        rows = self._db.execute("SELECT id FROM games WHERE venue = ? AND tbl = ? ORDER BY rowid DESC LIMIT ?",
                                (venue, table, count)).fetchall()
        return [row[0] for row in reversed(rows)]

    def game(self, game_id: str) -> dict[str, Any] | None:
        """One game as stored: its fields, its record and its score report (None when it does not score)."""
        row = self._db.execute(
            "SELECT id, venue, tbl, game, players, started, finished, winner, record, received, problem,"
            " complete, report, played FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _game(row)

    def games(self, since: str | None = None) -> Iterator[dict[str, Any]]:
        """Every game (played since `since`, when given), in the order they were played."""
        rows = self._db.execute(
            "SELECT id, venue, tbl, game, players, started, finished, winner, record, received, problem,"
            " complete, report, played FROM games WHERE played >= ? ORDER BY played, id", (since or "",))
        for row in rows.fetchall():
            yield _game(row)

    def results(self, game_id: str) -> dict[str, int]:
        rows = self._db.execute("SELECT player, points FROM results WHERE game_id = ? ORDER BY rowid", (game_id,))
        return {player: points for player, points in rows}

    def standings(self, since: str | None = None) -> dict[str, dict[str, Any]]:
        """Per game kind: each player's games played, wins and average points (best first), and the best
        words (Das perfekte Wort) or rounds (Quiddler); a timed game's (Zugzeit's) turn times instead
        (`time_standings`). Each kind's `kind` says which ("points" or "time"). Only complete games that
        score count."""
        out: dict[str, dict[str, Any]] = {}
        rows = self._db.execute(
            "SELECT g.game, r.player, count(*), sum(r.won), avg(r.points), sum(r.points) FROM results r"
            " JOIN games g ON g.id = r.game_id WHERE g.complete = 1 AND g.problem IS NULL AND g.played >= ?"
            " GROUP BY g.game, r.player ORDER BY g.game, avg(r.points) DESC, sum(r.won) DESC, r.player",
            (since or "",))
        for game, player, played, wins, average, total in rows:
            entry = out.setdefault(game, {"games": 0, "players": [], "best": None})
            entry["players"].append({"player": player, "played": played, "wins": int(wins),
                                     "average": round(float(average), 2), "points": int(total)})
        counts = self._db.execute(
            "SELECT game, count(*) FROM games WHERE complete = 1 AND problem IS NULL AND played >= ? GROUP BY game",
            (since or "",))
        for game, played in counts:
            out.setdefault(game, {"games": 0, "players": [], "best": None})["games"] = played
        for game, entry in out.items():
            entry["kind"] = "points"
            if game in TIMED:
                reports = self._db.execute(
                    "SELECT report FROM games WHERE complete = 1 AND problem IS NULL AND played >= ? AND game = ?"
                    " ORDER BY played, id", (since or "", game))
                entry.update(kind="time", players=time_standings(json.loads(row[0]) for row in reports))
        for game, kind in BEST_KINDS.items():
            if game not in out:
                continue
            best = self._db.execute(
                "SELECT h.player, h.round, h.entry, h.points, g.tbl, g.id FROM highlights h JOIN games g"
                " ON g.id = h.game_id WHERE g.complete = 1 AND g.problem IS NULL AND g.played >= ?"
                " AND g.game = ? ORDER BY h.points DESC, g.played, h.rowid LIMIT ?", (since or "", game, BEST_SHOWN))
            keys = ("player", "round", "entry", "points", "table", "id")
            out[game]["best"] = {"kind": kind, "entries": [dict(zip(keys, row, strict=True)) for row in best]}
        return out


def time_standings(reports: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each player of timed games (their reports' JSON: `players` with `turns`, `total_ms`, `longest_ms`,
    `status`): games played, games won (the last one in), turns, the time thought in all, the average turn
    and the longest (milliseconds), fastest average turn first; a player without a turn comes last."""
    seen: dict[str, dict[str, Any]] = {}
    for report in reports:
        winners = set(report.get("winners") or ())
        for row in report["players"]:
            entry = seen.setdefault(row["player"], {"player": row["player"], "played": 0, "wins": 0, "turns": 0,
                                                    "total_ms": 0, "longest_ms": 0})
            entry["played"] += 1
            entry["wins"] += int(row["player"] in winners)
            entry["turns"] += row["turns"]
            entry["total_ms"] += row["total_ms"]
            entry["longest_ms"] = max(entry["longest_ms"], row["longest_ms"])
    for entry in seen.values():
        entry["average_ms"] = entry["total_ms"] // entry["turns"] if entry["turns"] else None
    return sorted(seen.values(), key=lambda e: (e["average_ms"] is None, e["average_ms"] or 0, e["player"]))


def _scored(data: Mapping[str, Any]) -> tuple[ScoreReport | None, str | None]:
    try:
        record = parse_record(data["record"])
        if record.game != data["game"]:
            return None, f"the record is a {record.game} game, the message says {data['game']}"
        return score(record), None
    except RecordError as exc:
        return None, str(exc)
    except Exception as exc:  # a record the rules trip over is flagged, never fatal for the league
        return None, f"{type(exc).__name__}: {exc}"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _game(row: tuple[Any, ...]) -> dict[str, Any]:
    keys = ("id", "venue", "table", "game", "players", "started", "finished", "winner", "record", "received",
            "problem", "complete", "report", "played")
    data = dict(zip(keys, row, strict=True))
    data["players"] = json.loads(data["players"])
    data["complete"] = bool(data["complete"])
    data["report"] = None if data["report"] is None else json.loads(data["report"])
    return data
