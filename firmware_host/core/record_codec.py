"""The one record codec: a game's record events are frozen dataclasses, and their fields are the line's keys.

A record event class names its line with `EVENT: ClassVar[str]`; every field is one key of the line, read
and written by its annotation: `str`, `int`, `bool`, `tuple[str, ...]` (a JSON list of texts), `X | None`
(the key may be missing), or anything else (`Any`, a mapping) as the JSON value itself. `entry(...)`
sets a field's options: a default (the key may be missing), `key=` when the line's key differs from
the field's name, `omit=True` to leave the key out of a written line while it holds the default, and
`read=`/`write=` to convert a value the annotation cannot express (e.g. a card code).

`Codec(*classes)` reads a `RecordLine` into its event (`decode`, raising `RecordError` with the line)
and writes an event back into a line (`encode`: `{"event": EVENT, ...fields in order}`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from firmware_host.core.record import RecordLine

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
) -> Any:
    """A record event field with options (see the module doc). `read(line, key)` returns the value (and
    raises `RecordError` through `line.error` when it cannot); `write(value)` returns the JSON value."""
    metadata = {"key": key, "omit": omit, "read": read, "write": write}
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

    def decode(self, line: RecordLine) -> Any:
        if self.optional and not line.has(self.key):
            return None if self.default is MISSING else self.default
        if self.key not in line.data and self.default is not MISSING:
            return self.default
        if self.read is not None:
            return self.read(line, self.key)
        if self.kind is str:
            return line.text(self.key)
        if self.kind is bool:
            return line.flag(self.key)
        if self.kind is int:
            return line.whole(self.key)
        if self.kind == tuple[str, ...]:
            return tuple(line.texts(self.key))
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


def _fields(cls: type) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)
    found = []
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        args = typing.get_args(kind)
        optional = isinstance(kind, types.UnionType) and type(None) in args
        if optional:
            kind = next(a for a in args if a is not type(None))
        default = f.default if f.default is not MISSING else MISSING
        meta = f.metadata
        found.append(_Field(f.name, meta.get("key") or f.name, kind, optional, default, bool(meta.get("omit")),
                            meta.get("read"), meta.get("write")))
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

    def encode(self, event: E) -> dict[str, Any]:
        """The record line of an event: `{"event": EVENT, ...}` with the fields in declaration order."""
        line: dict[str, Any] = {"event": type(event).EVENT}  # type: ignore[attr-defined]
        for f in self._fields[type(event)]:
            written, value = f.encode(getattr(event, f.name))
            if written:
                line[f.key] = value
        return line

