"""The game record: versioned JSON Lines of table events, shared by all games.

Format (documented in docs/record-format.md):
- line 1, the header: {"record": "wordtable", "version": 1, "game": "<game id>"}
- every further line one table event: {"event": "<name>", ...fields}; an optional "at" field carries a
  wall-clock label (ISO 8601) and never affects scoring.
Lines end at "\n" only ("\r\n" is taken too): U+2028, U+2029 and U+0085 are legal inside a JSON text
and split no line. Blank lines are ignored; a byte-order mark before the header is skipped. This module
only parses text that the caller has read; it does no I/O. A malformed record raises `RecordError`
naming the 1-based line number; texts are normalised as they are read (`text_input.clean`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import Table, pick
from firmware_host.core.text_input import LINE, Field, TextRefused, clean, shortened

RECORD_MARK = "wordtable"
RECORD_VERSION = 1


TEXT: Table = {"de": {"line": "Zeile {line}: {message}"}, "en": {"line": "line {line}: {message}"}}


class RecordError(Exception):
    """A record that cannot be scored: `line` is 1-based (0 when the record as a whole is at fault).
    `message` is English; when a rule was broken, `rule` is the game's `RuleError` and `text(lang)` says it
    in the reader's language (after `lead`, the event and field it is about)."""

    def __init__(self, line: int, message: str, rule: RuleError | None = None, lead: str = "") -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message
        self.rule = rule
        self.lead = lead

    def text(self, lang: str) -> str:
        """A broken rule in `lang`; a malformed record (the file's format, for who edits it) in English."""
        if self.rule is None:
            return str(self)
        message = f"{self.lead}{self.rule.text(lang)}"
        return pick(TEXT, lang, "line", line=self.line, message=message) if self.line else message


@dataclass(frozen=True, slots=True)
class RecordLine:
    """One event line of a record: its 1-based line number, its event name and its raw fields."""

    line: int
    event: str
    data: Mapping[str, Any]

    def error(self, message: str, rule: RuleError | None = None, lead: str = "") -> RecordError:
        """The line's error: `message` in English, or the broken `rule` (after `lead`, e.g. the field)."""
        if rule is not None:
            return RecordError(self.line, f"{self.event}: {lead}{rule.message}", rule, f"{self.event}: {lead}")
        return RecordError(self.line, f"{self.event}: {message}")

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def text(self, key: str, default: str | None = None, field: Field = LINE) -> str:
        """The text at `key`, normalised as a text of `field`'s kind (`text_input.clean`)."""
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.error(f"'{key}' must be a text" + ("" if key in self.data else ", and is missing"))
        return self._clean(key, value, field)

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

    def texts(self, key: str, default: Sequence[str] | None = None, field: Field = LINE) -> list[str]:
        """The list of texts at `key`, each normalised as a text of `field`'s kind."""
        items = self.items(key, default)
        if not all(isinstance(item, str) for item in items):
            raise self.error(f"'{key}' must be a list of texts")
        return [self._clean(f"{key}[{i}]", item, field) for i, item in enumerate(items)]

    def _clean(self, key: str, value: str, field: Field) -> str:
        try:
            return clean(value, field)
        except TextRefused as exc:
            raise self.error(f"'{key}': {exc.message}") from None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A parsed record: which game, and its event lines in order."""

    game: str
    lines: tuple[RecordLine, ...]


def parse_record(text: str, games: Collection[str]) -> GameRecord:
    """Parse a whole record's text. Raises `RecordError` at the first malformed line. `games`: the game ids
    a header may name (`games.registry.parse_record` passes the games that keep a record)."""
    header: Mapping[str, Any] | None = None
    lines: list[RecordLine] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        raw = raw.removesuffix("\r")
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        except RecursionError:
            raise RecordError(number, "not a record line: its JSON is nested too deeply") from None
        except ValueError as exc:  # e.g. a number of more digits than Python converts
            raise RecordError(number, f"not valid JSON ({shortened(str(exc), 80)})") from None
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


# Characters written as \uXXXX escapes: legal in a JSON text, but line breaks to many readers
# (str.splitlines, JavaScript before ES2019), and lone surrogates that UTF-8 cannot carry.
_ESCAPED = re.compile("[\u0085\u2028\u2029\ud800-\udfff]")


def dump_line(data: Mapping[str, Any]) -> str:
    """One record line as written by the appliance: compact JSON, umlauts kept as they are, any character
    that could break a line (U+0085, U+2028, U+2029) or UTF-8 (a lone surrogate) escaped."""
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    return _ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _check_header(number: int, data: Mapping[str, Any], games: Collection[str]) -> Mapping[str, Any]:
    if data.get("record") != RECORD_MARK:
        raise RecordError(number, 'the first line must be the header {"record": "wordtable", ...}')
    version = data.get("version")
    if type(version) is not int or version != RECORD_VERSION:  # true and 1.0 equal 1 in Python, not here
        version = shortened(version)
        raise RecordError(number, f"record version {version} is not supported (this is {RECORD_VERSION})")
    if data.get("game") not in games:
        raise RecordError(number, f"unknown game {shortened(data.get('game'))}; known: {', '.join(games)}")
    return data


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One player's round as a spreadsheet row: `round` (its number, or "end" for what counts only at the
    end), what the player entered (`entry`), the round's `points` and the player's running `total`."""

    round: str
    player: str
    entry: str
    points: int
    total: int


def outcome_json(finished: bool, leaders: Sequence[str]) -> dict[str, Any]:
    """The outcome every game's JSON report ends with (one shape for all games): `finished`, `leaders`
    (first place so far, ties shared) and `winners` (the same players) only when the game is finished."""
    return {"finished": finished, "leaders": list(leaders)} | ({"winners": list(leaders)} if finished else {})


class ScoreReport(Protocol):
    """What a game's `score_record` returns: the scored game, printable and serialisable. A record that
    stops before the game's end is scored as far as it goes: `finished` is false and `leaders` are those
    in first place so far (never called winners)."""

    @property
    def finished(self) -> bool:
        """The game is over: every round played, or its end reached and counted."""
        ...

    @property
    def leaders(self) -> tuple[str, ...]:
        """The players in first place (the winners once `finished`)."""
        ...

    def rows(self) -> list[ScoreRow]:
        """One row per player per round, in play order (`journal export --format csv`)."""
        ...

    def totals(self) -> dict[str, int]:
        """Each player's total so far (the league's running totals): the `total` of their last row in
        `rows()`, the players in the order of their first row (none before their first row)."""
        ...

    def text(self, lang: str) -> str:
        """The per-round and final table with breakdowns, as plain text."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The same content as JSON-ready data."""
        ...
