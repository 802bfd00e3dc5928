"""The one record codec: a game's record events are frozen dataclasses, and their fields are the line's keys.

A record event class names its line with `EVENT: ClassVar[str]`; every field is one key of the line, read
and written by its annotation: `str`, `int`, `bool`, `tuple[str, ...]` (a JSON list of texts), `X | None`
(the key may be missing), or anything else (`Any`, a mapping) as the JSON value itself. A text is one
kind of `text_input` text: `Annotated[str, NAME]` (`text_input.Name`, `Word`, ...), plain `str` being a
`LINE`; it is normalised by `text_input.clean` on reading and on writing, so a record holds only text
the reader takes back. `entry(...)` sets a field's options: a default (the key may be missing), `key=`
when the line's key differs from the field's name, `omit=True` to leave the key out of a written line
while it holds the default, `read=`/`write=` to convert a value the annotation cannot express (e.g. a
card code), and `schema=` the JSON Schema of such a value.

`Codec(*classes)` reads a `RecordLine` into its event (`decode`, raising `RecordError` with the line),
writes an event back into a line (`encode`: `{"event": EVENT, ...fields in order}`), normalises an
event's texts before it is entered (`clean`, raising `TextRefused`) and describes its lines as JSON
Schema (`schemas`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass
from typing import Annotated, Any, ClassVar, Generic, Protocol, TypeVar

from firmware_host.core.record import RecordLine
from firmware_host.core.text_input import LINE, Field, clean, text_schema

E = TypeVar("E")


class RecordEvent(Protocol):
    """What a record event class has: its line's name."""

    EVENT: ClassVar[str]


def entry(
    default: Any = MISSING,
    *,
    key: str | None = None,
    omit: bool = False,
    read: Callable[[RecordLine, str], Any] | None = None,
    write: Callable[[Any], Any] | None = None,
    schema: Mapping[str, Any] | None = None,
) -> Any:
    """A record event field with options (see the module doc). `read(line, key)` returns the value (and
    raises `RecordError` through `line.error` when it cannot); `write(value)` returns the JSON value;
    `schema` is the JSON Schema of the value as written (for a field the annotation cannot describe)."""
    metadata = {"key": key, "omit": omit, "read": read, "write": write, "schema": schema}
    if default is MISSING:
        return dataclasses.field(metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    key: str
    kind: Any  # the annotation, with `| None` taken off
    optional: bool  # `X | None`
    default: Any
    omit: bool
    read: Callable[[RecordLine, str], Any] | None
    write: Callable[[Any], Any] | None
    text: Field | None  # the kind of text of a `str` or `tuple[str, ...]` field
    schema: Mapping[str, Any] | None

    def decode(self, line: RecordLine) -> Any:
        if self.optional and not line.has(self.key):
            return None if self.default is MISSING else self.default
        if self.key not in line.data and self.default is not MISSING:
            return self.default
        if self.read is not None:
            return self.read(line, self.key)
        if self.kind is str:
            return line.text(self.key, field=self.text or LINE)
        if self.kind is bool:
            return line.flag(self.key)
        if self.kind is int:
            return line.whole(self.key)
        if self.kind == tuple[str, ...]:
            return tuple(line.texts(self.key, field=self.text or LINE))
        if self.key not in line.data:
            raise line.error(f"'{self.key}' is missing")
        return line.data[self.key]

    def encode(self, value: Any) -> tuple[bool, Any]:
        """(written, JSON value) of a field's value."""
        if value is None or (self.omit and value == self.default):
            return False, None
        if self.write is not None:
            return True, self.write(value)
        return True, list(value) if isinstance(value, tuple) else value

    def cleaned(self, value: Any) -> Any:
        """The value with its texts normalised (`text_input.clean`); raises `TextRefused`."""
        if self.text is None or value is None:
            return value
        if isinstance(value, str):
            return clean(value, self.text)
        return tuple(clean(item, self.text) for item in value)

    def schema_of(self) -> dict[str, Any]:
        """The JSON Schema of the field's value as written."""
        if self.schema is not None:
            return dict(self.schema)
        if self.kind is str:
            return text_schema(self.text or LINE)
        if self.kind is bool:
            return {"type": "boolean"}
        if self.kind is int:
            return {"type": "integer"}
        if self.kind == tuple[str, ...]:
            return {"type": "array", "items": text_schema(self.text or LINE)}
        return {}


def _text_kind(kind: Any) -> tuple[Any, Field | None]:
    """(the type, its text kind) of an annotation: `Annotated[str, NAME]` -> (str, NAME); `str` -> (str, LINE);
    `tuple[Annotated[str, WORD], ...]` -> (tuple[str, ...], WORD)."""
    if typing.get_origin(kind) is Annotated:
        base, *extras = typing.get_args(kind)
        return base, next((x for x in extras if isinstance(x, Field)), LINE)
    if kind is str:
        return str, LINE
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item, field = _text_kind(args[0])
            if item is str:
                return tuple[str, ...], field
    return kind, None


def _fields(cls: type) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    found = []
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        args = typing.get_args(kind)
        optional = isinstance(kind, types.UnionType) and type(None) in args
        if optional:
            kind = next(a for a in args if a is not type(None))
        kind, text = _text_kind(kind)
        default = f.default if f.default is not MISSING else MISSING
        meta = f.metadata
        found.append(_Field(f.name, meta.get("key") or f.name, kind, optional, default, bool(meta.get("omit")),
                            meta.get("read"), meta.get("write"), text, meta.get("schema")))
    return tuple(found)


class Codec(Generic[E]):
    """Reads and writes the record lines of a game's event classes (all of them frozen dataclasses with
    `EVENT`). Which class a line is: its `"event"` name."""

    def __init__(self, *classes: type[E]) -> None:
        self._classes: dict[str, type[E]] = {}
        self._fields: dict[type[E], tuple[_Field, ...]] = {}
        for cls in classes:
            name = cls.EVENT  # type: ignore[attr-defined]
            if name in self._classes:
                raise ValueError(f"two record events are named {name!r}")
            self._classes[name] = cls
            self._fields[cls] = _fields(cls)

    @property
    def events(self) -> tuple[str, ...]:
        """The event names this codec reads, in the order the classes were given."""
        return tuple(self._classes)

    def decode(self, line: RecordLine) -> E:
        """The event of a line. Raises `RecordError` (with the line) for an unknown event or a bad field."""
        cls = self._classes.get(line.event)
        if cls is None:
            raise line.error(f"unknown event; this game knows: {', '.join(self.events)}")
        return cls(**{f.name: f.decode(line) for f in self._fields[cls]})

    def clean(self, event: E) -> E:
        """The event with every text normalised as its field's kind (`text_input.clean`): what a table
        enters and a record holds. Raises `TextRefused` for a text the kind does not take."""
        fields = self._fields[type(event)]
        changes = {}
        for f in fields:
            value = getattr(event, f.name)
            cleaned = f.cleaned(value)
            if cleaned != value:
                changes[f.name] = cleaned
        return dataclasses.replace(event, **changes) if changes else event  # type: ignore[type-var]

    def schemas(self) -> dict[str, dict[str, Any]]:
        """Each event's line as a JSON Schema object, by event name: `event` the name, a property per field
        (required unless it has a default or may be missing), `at` optional; other keys are allowed. Texts
        refer to `text_input.text_schemas` ("#/$defs/text.<kind>")."""
        found: dict[str, dict[str, Any]] = {}
        for name, cls in self._classes.items():
            properties: dict[str, Any] = {"event": {"const": name}}
            required = ["event"]
            for f in self._fields[cls]:
                properties[f.key] = f.schema_of()
                if not f.optional and f.default is MISSING:
                    required.append(f.key)
            properties["at"] = {"type": "string", "description": "a wall-clock label (ISO 8601); never scored"}
            doc = (cls.__doc__ or "").strip()
            schema: dict[str, Any] = {"type": "object"}
            if doc and not doc.startswith(f"{cls.__name__}("):
                schema["description"] = " ".join(doc.split())
            schema |= {"properties": properties, "required": required}
            found[name] = schema
        return found

    def encode(self, event: E) -> dict[str, Any]:
        """The record line of an event: `{"event": EVENT, ...}` with the fields in declaration order."""
        line: dict[str, Any] = {"event": type(event).EVENT}  # type: ignore[attr-defined]
        for f in self._fields[type(event)]:
            written, value = f.encode(getattr(event, f.name))
            if written:
                line[f.key] = value
        return line

