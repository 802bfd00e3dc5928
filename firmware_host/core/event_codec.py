"""Input events to and from plain JSON-ready dicts: the journal's format, and the one way any channel that
speaks JSON or text (the table page's messages, the action scripts) makes its events. `CODEC` is the table
of every event type."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core import events as ev
from firmware_host.core import text_input
from firmware_host.core.cards import CardTable, kept_name, table_data
from firmware_host.core.events import Button, Event, kept_event
from firmware_host.core.text_input import Field, clean


class CodecError(ValueError):
    """A stored or scripted event that cannot be read back."""


def _same(value: Any) -> Any:
    return value


def _seat(value: Any) -> int:
    """A seat number: an int (not a bool, not a float) from 0."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a seat: {value!r}")
    return value


def _person(value: Any) -> int:
    """A person's id: an int from 0, or -1 (a seat's phone, not a person's)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < -1:
        raise ValueError(f"not a person: {value!r}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"not true or false: {value!r}")
    return value


def _time(value: Any) -> float:
    at = float(value)
    if not math.isfinite(at):
        raise ValueError("the time is not a finite number")
    return at


_REQUIRED = object()


@dataclass(frozen=True, slots=True)
class EventField:
    """One field of an event as written: its JSON `key`, the event's attribute (`attr`, default: the key),
    `read` (JSON value -> attribute; raises ValueError, TypeError or KeyError) and `write` (the reverse), the
    `default` of a key a journal may lack (an `optional` key is written only when its value is not the
    default, so events that have none are written as before it existed), and the kind of text
    (`text_input.Field`) the core's edge normalises it to (`edge_cleaned`; None: no text the edge checks)."""

    key: str
    read: Callable[[Any], Any] = _same
    write: Callable[[Any], Any] = _same
    attr: str = ""
    default: Any = _REQUIRED
    text: Field | None = None
    optional: bool = False

    @property
    def name(self) -> str:
        return self.attr or self.key


@dataclass(frozen=True, slots=True)
class EventKind:
    """An event type as written: {"type": `tag`, each field's key: its value} (in `fields` order)."""

    tag: str
    event: type[Event]
    fields: tuple[EventField, ...]
    make: Callable[..., Event] | None = None  # builds the event from the fields' values (default: `event`)

    def build(self, values: dict[str, Any]) -> Event:
        make: Callable[..., Event] = self.make or self.event
        return make(**values)


def _button(value: Any) -> Button:
    return Button(value)


def _value(button: Button) -> str:
    return button.value


def _known(data: Any) -> tuple[tuple[str, bool], ...]:
    return tuple((str(word), bool(ok)) for word, ok in data.items())


def _best(data: Any) -> tuple[tuple[str, str, int, str, int], ...]:
    return tuple((str(p), str(w), int(n), str(o), int(m)) for p, w, n, o, m in data)


def _items(data: Any) -> dict[str, Any]:
    return {str(name): item for name, item in data.items()}


def _kept_items(items: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    return {name: json.loads(text) for name, text in items}


AT = EventField("at", _time)
TEXT = EventField("text", str)
SEAT = EventField("seat", _seat)
PERSON = EventField("person", _person, default=-1, optional=True)
READER, CODE = EventField("reader", str), EventField("code", str)
TYPED = replace(TEXT, text=text_input.LINE)  # these keys as text that the core's edge normalises
TYPED_READER, TYPED_CODE = replace(READER, text=text_input.CODE), replace(CODE, text=text_input.CODE)
CLAIM = EventField("claim", str, text=text_input.CODE)


CODEC: tuple[EventKind, ...] = (
    EventKind("press", ev.Press, (EventField("button", _button, _value), AT)),
    EventKind("hold", ev.LongPress, (EventField("button", _button, _value), AT)),
    EventKind("turn", ev.Turn, (EventField("steps", int), AT)),
    EventKind("text", ev.TextEntry, (TYPED, AT)),
    EventKind("seat_text", ev.SeatEntry, (SEAT, TYPED, AT, PERSON)),
    EventKind("seat_command", ev.SeatCommand, (SEAT, EventField("command", str, text=text_input.CODE),
                                               EventField("value", str, text=text_input.LINE), AT, PERSON)),
    EventKind("seat_claim", ev.SeatClaim, (SEAT, CLAIM, AT, PERSON)),
    EventKind("seat_answer", ev.SeatAnswer, (SEAT, CLAIM, EventField("granted", bool), AT, PERSON)),
    EventKind("seat_join", ev.SeatJoin, (EventField("name", str, text=text_input.LINE), CLAIM, AT,
                                          EventField("in_place", _flag, default=False))),
    EventKind("pin_key", ev.PinKey, (EventField("stage", str), EventField("count", int), AT,
                                     EventField("notice", str, default="", optional=True))),
    EventKind("page", ev.PageInfo, (EventField("address", str, text=text_input.CODE), TYPED_CODE, AT)),
    EventKind("scan", ev.CardScan, (TYPED_READER, TYPED_CODE, AT)),
    EventKind("removed", ev.CardRemoved, (READER, CODE, AT)),
    EventKind("reader", ev.ReaderStatus, (READER, EventField("present", bool), AT)),
    EventKind("tick", ev.Tick, (EventField("at", _time, attr="now"),)),
    EventKind("resumed", ev.Resumed, (AT, EventField("off", float, attr="off_s", default=0.0))),
    EventKind("trouble", ev.Trouble, (EventField("kind", str), EventField("detail", str), AT)),
    EventKind("notice", ev.Notice, (TEXT, AT)),
    EventKind("words", ev.WordsChecked, (EventField("known", _known, lambda known: dict(known)), AT)),
    EventKind("best", ev.BestRevealed, (EventField("round", int), EventField("source", str),
                                        EventField("best", _best, lambda best: [list(line) for line in best]), AT)),
    EventKind("kept", ev.Kept, (EventField("items", _items, _kept_items), AT), kept_event),
)
"""Every input event as the journal writes it, the one table `encode`, `decode` and `edge_cleaned` read (a
new event is a row here)."""

_BY_TAG = {kind.tag: kind for kind in CODEC}
_BY_EVENT = {kind.event: kind for kind in CODEC}


def _legacy_cards(data: dict[str, Any]) -> Event:
    """Journals written before `kept`: the enrolled card tables alone."""
    return kept_event({kept_name(g): table_data(CardTable(str(g), dict(faces))) for g, faces in data["tables"].items()},
                      _time(data["at"]))


_LEGACY: dict[str, Callable[[dict[str, Any]], Event]] = {"cards": _legacy_cards}


def encode(event: Event) -> dict[str, Any]:
    """The event as {"type": ..., fields...}."""
    kind = _BY_EVENT.get(type(event))
    if kind is None:
        raise CodecError(f"cannot encode {event!r}")
    return {"type": kind.tag, **{f.key: f.write(getattr(event, f.name)) for f in kind.fields
                                 if not f.optional or getattr(event, f.name) != f.default}}


def decode(data: dict[str, Any]) -> Event:
    """The event encoded by `encode`. Raises `CodecError` naming what is wrong."""
    try:
        tag, at = data["type"], _time(data["at"])
        kind, legacy = _BY_TAG.get(tag), _LEGACY.get(tag)
        if legacy is not None:
            return legacy(data)
        if kind is not None:
            values: dict[str, Any] = {
                f.name: at if f.key == "at" else f.read(data[f.key] if f.default is _REQUIRED
                                                        else data.get(f.key, f.default))
                for f in kind.fields}
            return kind.build(values)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise CodecError(f"bad event {data!r}: {exc}") from None
    raise CodecError(f"unknown event type {data.get('type')!r}")


def edge_cleaned(event: Event) -> Event:
    """The event with its typed text normalised (`text_input.clean`, each field to its `EventField.text`, in
    the fields' order). Raises `TextRefused` for the first text it refuses."""
    kind = _BY_EVENT.get(type(event))
    texts = {} if kind is None else {f.name: clean(getattr(event, f.name), f.text)
                                     for f in kind.fields if f.text is not None}
    changed: Any = event  # a dataclass of the union: `replace` takes its fields by name
    return replace(changed, **texts) if texts else event
