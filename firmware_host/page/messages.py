"""What a page may send, checked before anything reaches the shell: size, JSON, schema, text.

Over the WebSocket a page sends JSON objects of at most `MAX_MESSAGE` bytes:
- `{"type": "entry", "seat": N, "text": "…"}`: what the stage asks of the page's own seat (N must be the
  seat its token holds; the server checks that): a word, or a line of words (a Quiddler lay-down); the
  text normalised by `core.text_input.clean` as a line of at most `ENTRY.limit` characters, each word at
  most `WORD.limit` (32), no control characters; an empty text withdraws a draft;
- `{"type": "command", "seat": N, "command": C, "value": "…"}`: a control for the table (`COMMANDS`:
  the sand timer, the free scoreboard, the menu's settings; `core.events.SeatCommand`), the value a
  `WORD`; the core decides whether it may be done now;
- `{"type": "ping"}`.
Over HTTP, `POST /api/join` takes `{"code": "…", "seat": N}` or `{"code": "…", "name": "…"}` (a seat by
its player's name). `parse_*` return the checked message or raise `Refused` with a short reason: an
entry or a command comes back as the core's input event (`SeatEntry`, `SeatCommand`), made by the one
codec of input events (`core.event_codec`) from the message checked here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from firmware_host.core.event_codec import decode
from firmware_host.core.events import SeatCommand, SeatEntry
from firmware_host.core.text_input import LINE, NAME, WORD, Field, TextRefused, clean

MAX_MESSAGE = 1024
MAX_SEAT = 15
COMMANDS = ("timer", "length", "points", "name", "lang", "volume", "warn")
ENTRY = Field(LINE.name, 64)  # a lay-down of ten Quiddler cards in notation fits


class Refused(ValueError):
    """A message the page server does not take; `reason` is a short key the page shows in its language."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason if not detail else f"{reason}: {detail}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Join:
    code: str
    seat: int | None
    name: str | None


def _object(raw: str | bytes) -> dict[str, Any]:
    if len(raw) > MAX_MESSAGE:
        raise Refused("too_big")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise Refused("not_json") from None
    if not isinstance(data, dict):
        raise Refused("not_object")
    return data


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEAT:
        raise Refused("bad_seat")
    return value


def _text(value: Any, kind: Any) -> str:
    if not isinstance(value, str):
        raise Refused("bad_text")
    try:
        return clean(value, kind)
    except TextRefused as exc:
        raise Refused("bad_text", exc.text("en")) from None


def parse_message(raw: str | bytes, at: float) -> SeatEntry | SeatCommand | Ping:
    """A page's message; an entry or a command as its input event at time `at`."""
    data = _object(raw)
    kind = data.get("type")
    if kind == "ping" and set(data) == {"type"}:
        return Ping()
    if kind == "entry" and set(data) == {"type", "seat", "text"}:
        text = _text(data["text"], ENTRY)
        if any(len(word) > WORD.limit for word in text.split()):
            raise Refused("bad_text")
        entry = decode({"type": "seat_text", "seat": _seat(data["seat"]), "text": text, "at": at})
        assert isinstance(entry, SeatEntry)
        return entry
    if kind == "command" and set(data) == {"type", "seat", "command", "value"}:
        if data["command"] not in COMMANDS:
            raise Refused("bad_command")
        command = decode({"type": "seat_command", "seat": _seat(data["seat"]), "command": data["command"],
                          "value": _text(data["value"], WORD), "at": at})
        assert isinstance(command, SeatCommand)
        return command
    raise Refused("bad_type")


def parse_join(raw: str | bytes) -> Join:
    data = _object(raw)
    if not set(data) <= {"code", "seat", "name"} or not isinstance(data.get("code"), str):
        raise Refused("bad_join")
    code = data["code"]
    if len(code) > 16:
        raise Refused("bad_join")
    seat = _seat(data["seat"]) if data.get("seat") is not None else None
    name = _text(data["name"], NAME) if data.get("name") is not None else None
    if (seat is None) == (name is None):
        raise Refused("bad_join")
    return Join(code, seat, name)
