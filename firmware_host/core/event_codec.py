"""Input events to and from plain JSON-ready dicts, for the journal and for action scripts."""

from __future__ import annotations

import json
import math
from typing import Any

from firmware_host.core.cards import CardTable, kept_name, table_data
from firmware_host.core.events import (
    BestRevealed,
    Button,
    CardRemoved,
    CardScan,
    Event,
    Kept,
    LongPress,
    Notice,
    PageInfo,
    Press,
    ReaderStatus,
    Resumed,
    SeatClaim,
    SeatCommand,
    SeatEntry,
    SeatJoin,
    TextEntry,
    Tick,
    Trouble,
    Turn,
    WordsChecked,
    kept_event,
)


class CodecError(ValueError):
    """A stored or scripted event that cannot be read back."""


def encode(event: Event) -> dict[str, Any]:
    """The event as {"type": ..., fields...}."""
    match event:
        case Press(button, at):
            return {"type": "press", "button": button.value, "at": at}
        case LongPress(button, at):
            return {"type": "hold", "button": button.value, "at": at}
        case Turn(steps, at):
            return {"type": "turn", "steps": steps, "at": at}
        case TextEntry(text, at):
            return {"type": "text", "text": text, "at": at}
        case SeatEntry(seat, text, at):
            return {"type": "seat_text", "seat": seat, "text": text, "at": at}
        case SeatCommand(seat, command, value, at):
            return {"type": "seat_command", "seat": seat, "command": command, "value": value, "at": at}
        case SeatClaim(seat, claim, at):
            return {"type": "seat_claim", "seat": seat, "claim": claim, "at": at}
        case SeatJoin(name, claim, at):
            return {"type": "seat_join", "name": name, "claim": claim, "at": at}
        case PageInfo(address, code, at):
            return {"type": "page", "address": address, "code": code, "at": at}
        case CardScan(reader, code, at):
            return {"type": "scan", "reader": reader, "code": code, "at": at}
        case CardRemoved(reader, code, at):
            return {"type": "removed", "reader": reader, "code": code, "at": at}
        case ReaderStatus(reader, present, at):
            return {"type": "reader", "reader": reader, "present": present, "at": at}
        case Tick(now):
            return {"type": "tick", "at": now}
        case Resumed(at, off_s):
            return {"type": "resumed", "at": at, "off": off_s}
        case Trouble(kind, detail, at):
            return {"type": "trouble", "kind": kind, "detail": detail, "at": at}
        case Notice(text, at):
            return {"type": "notice", "text": text, "at": at}
        case WordsChecked(known, at):
            return {"type": "words", "known": {word: ok for word, ok in known}, "at": at}
        case BestRevealed(rnd, source, best, at):
            return {"type": "best", "round": rnd, "source": source, "best": [list(line) for line in best], "at": at}
        case Kept(items, at):
            return {"type": "kept", "items": {name: json.loads(text) for name, text in items}, "at": at}
    raise CodecError(f"cannot encode {event!r}")


def decode(data: dict[str, Any]) -> Event:
    """The event encoded by `encode`. Raises `CodecError` naming what is wrong."""
    try:
        kind, at = data["type"], float(data["at"])
        if not math.isfinite(at):
            raise ValueError("the time is not a finite number")
        if kind == "press":
            return Press(Button(data["button"]), at)
        if kind == "hold":
            return LongPress(Button(data["button"]), at)
        if kind == "turn":
            return Turn(int(data["steps"]), at)
        if kind == "text":
            return TextEntry(str(data["text"]), at)
        if kind == "seat_text":
            return SeatEntry(_seat(data["seat"]), str(data["text"]), at)
        if kind == "seat_command":
            return SeatCommand(_seat(data["seat"]), str(data["command"]), str(data["value"]), at)
        if kind == "seat_claim":
            return SeatClaim(_seat(data["seat"]), str(data["claim"]), at)
        if kind == "seat_join":
            return SeatJoin(str(data["name"]), str(data["claim"]), at)
        if kind == "page":
            return PageInfo(str(data["address"]), str(data["code"]), at)
        if kind == "scan":
            return CardScan(str(data["reader"]), str(data["code"]), at)
        if kind == "removed":
            return CardRemoved(str(data["reader"]), str(data["code"]), at)
        if kind == "reader":
            return ReaderStatus(str(data["reader"]), bool(data["present"]), at)
        if kind == "tick":
            return Tick(at)
        if kind == "resumed":
            return Resumed(at, float(data.get("off", 0.0)))
        if kind == "trouble":
            return Trouble(str(data["kind"]), str(data["detail"]), at)
        if kind == "notice":
            return Notice(str(data["text"]), at)
        if kind == "words":
            return WordsChecked(tuple((str(w), bool(ok)) for w, ok in data["known"].items()), at)
        if kind == "best":
            best = tuple((str(p), str(w), int(n), str(o), int(m)) for p, w, n, o, m in data["best"])
            return BestRevealed(int(data["round"]), str(data["source"]), best, at)
        if kind == "kept":
            return kept_event({str(name): item for name, item in data["items"].items()}, at)
        if kind == "cards":  # journals written before `kept`: the enrolled card tables alone
            return kept_event({kept_name(g): table_data(CardTable(str(g), dict(faces)))
                               for g, faces in data["tables"].items()}, at)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise CodecError(f"bad event {data!r}: {exc}") from None
    raise CodecError(f"unknown event type {data.get('type')!r}")


def _seat(value: Any) -> int:
    """A seat number: an int (not a bool, not a float) from 0."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a seat: {value!r}")
    return value
