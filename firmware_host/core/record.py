"""The game record: versioned JSON Lines of table events, shared by all games.

Format (documented in docs/record-format.md):
- line 1, the header: {"record": "wordtable", "version": 1, "game": "<game id>"}
- every further line one table event: {"event": "<name>", ...fields}; an optional "at" field carries a
  wall-clock label (ISO 8601) and never affects scoring.
Blank lines are ignored. This module only parses text that the caller has read; it does no I/O.
A malformed record raises `RecordError` naming the 1-based line number.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

RECORD_MARK = "wordtable"
RECORD_VERSION = 1


class RecordError(Exception):
    """A record that cannot be scored: `line` is 1-based (0 when the record as a whole is at fault)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class RecordLine:
    """One event line of a record: its 1-based line number, its event name and its raw fields."""

    line: int
    event: str
    data: Mapping[str, Any]

    def error(self, message: str) -> RecordError:
        return RecordError(self.line, f"{self.event}: {message}")

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.error(f"'{key}' must be a text" + ("" if key in self.data else ", and is missing"))
        return value

    def whole(self, key: str, default: int | None = None) -> int:
        value = self.data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"'{key}' must be a whole number" + ("" if key in self.data else ", and is missing"))
        return value

    def flag(self, key: str, default: bool | None = None) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"'{key}' must be true or false" + ("" if key in self.data else ", and is missing"))
        return value

    def items(self, key: str, default: Sequence[Any] | None = None) -> list[Any]:
        value = self.data.get(key, default)
        if not isinstance(value, list | tuple):
            raise self.error(f"'{key}' must be a list" + ("" if key in self.data else ", and is missing"))
        return list(value)

    def texts(self, key: str, default: Sequence[str] | None = None) -> list[str]:
        items = self.items(key, default)
        if not all(isinstance(item, str) for item in items):
            raise self.error(f"'{key}' must be a list of texts")
        return items


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A parsed record: which game, and its event lines in order."""

    game: str
    lines: tuple[RecordLine, ...]


def parse_record(text: str, games: Collection[str] | None = None) -> GameRecord:
    """Parse a whole record's text. Raises `RecordError` at the first malformed line. `games`: the game ids
    a header may name (default: the games of `core.games.registry` that keep a record)."""
    if games is None:
        from firmware_host.core.games.registry import record_games

        games = record_games()
    header: Mapping[str, Any] | None = None
    lines: list[RecordLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(data, dict):
            raise RecordError(number, "each line must be a JSON object")
        if header is None:
            header = _check_header(number, data, games)
            continue
        event = data.get("event")
        if not isinstance(event, str) or not event:
            raise RecordError(number, "missing 'event' (the event's name)")
        lines.append(RecordLine(number, event, data))
    if header is None:
        raise RecordError(0, "empty record: the first line must be the header")
    return GameRecord(str(header["game"]), tuple(lines))


def header_line(game: str) -> dict[str, Any]:
    """The header object that starts every record of `game`."""
    return {"record": RECORD_MARK, "version": RECORD_VERSION, "game": game}


def dump_line(data: Mapping[str, Any]) -> str:
    """One record line as written by the appliance: compact JSON, umlauts kept as they are."""
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def _check_header(number: int, data: Mapping[str, Any], games: Collection[str]) -> Mapping[str, Any]:
    if data.get("record") != RECORD_MARK:
        raise RecordError(number, 'the first line must be the header {"record": "wordtable", ...}')
    if data.get("version") != RECORD_VERSION:
        raise RecordError(number, f"record version {data.get('version')!r} is not supported (this is {RECORD_VERSION})")
    if data.get("game") not in games:
        raise RecordError(number, f"unknown game {data.get('game')!r}; known: {', '.join(games)}")
    return data


class ScoreReport(Protocol):
    """What a game's `score_record` returns: the scored game, printable and serialisable."""

    def text(self, lang: str) -> str:
        """The per-round and final table with breakdowns, as plain text."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The same content as JSON-ready data."""
        ...
