"""The journal's rows as values: an entry (and the kinds of record lines), a game's summary, and the one
codec of what a cell stores.

Every payload, meta datum, player list and setting is stored as JSON text written by `dumps` and read by
`loads`; a cell damaged in place (`PRAGMA quick_check` sees a file's structure, not its content) reads as
`UNREADABLE` or as text with U+FFFD, never as an exception that fails the whole read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.journal.errors import JournalError

RECORD = "record"  # the kind of entries that are game-record lines
RETRACT = "retract"  # takes back the latest record line not yet taken back (undo at the table)


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One appended entry. `seq` is the acknowledged sequence number."""

    seq: int
    game_id: int
    kind: str
    payload: Mapping[str, Any]
    wall_time: str


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game as `wordtable journal list` shows it. `finished` is None while the game is open."""

    id: int
    started: str
    game: str
    players: tuple[str, ...]
    finished: str | None
    winner: str | None


SUMMARY = "SELECT id, started, game, players, finished, winner FROM games"  # the columns of `summary`


def summary(row: tuple[Any, ...]) -> GameSummary:
    """A row of `SUMMARY` as a GameSummary."""
    game_id, started, game, players, finished, winner = row
    names = loads(players)
    readable = tuple(str(name) for name in names) if isinstance(names, list) else ("?",)
    return GameSummary(int(game_id), cell(started), cell(game), readable,
                       None if finished is None else cell(finished), None if winner is None else cell(winner))


def cell(value: Any) -> str:
    """A text column's value as text: a cell damaged in place may come back as a number or bytes."""
    return value if isinstance(value, str) else text(value) if isinstance(value, bytes) else str(value)


UNREADABLE = object()


def loads(stored: str) -> Any:
    """A stored JSON value, or `UNREADABLE` for text damaged in place."""
    try:
        return json.loads(stored)
    except ValueError:
        return UNREADABLE


def text(data: bytes) -> str:
    """Stored text as str (the connections' text factory); bytes damaged in place become U+FFFD instead of
    failing the whole read."""
    return data.decode("utf-8", errors="replace")


def dumps(value: Any) -> str:
    """`value` as the JSON text a cell stores. Raises `JournalError` for what JSON cannot hold."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"not storable as JSON: {exc}") from None
