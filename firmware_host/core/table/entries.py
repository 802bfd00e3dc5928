"""The events a game entered since its setup, oldest first: an immutable sequence that grows in O(1).

A game in play is a new `Played` value after every event; holding its events in a tuple copied them all
on each one, so resuming a game of n entries cost O(n²). `Entries` versions share one buffer: `added` on
the newest version appends to it, on an older one (a branch, e.g. after an undo) it copies its prefix
first. A version only ever reads the first `len` items of its buffer, so every version stays what it
was. Stepping the core is single-threaded (the shell's loop); readers in other threads only read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

E = TypeVar("E")


class Entries(Sequence[E], Generic[E]):
    """An immutable sequence of events; equal to another `Entries` or a tuple of the same items."""

    __slots__ = ("_buffer", "_length")

    def __init__(self, items: Iterable[E] = ()) -> None:
        self._buffer: list[E] = list(items)
        self._length = len(self._buffer)

    @classmethod
    def _view(cls, buffer: list[E], length: int) -> Entries[E]:
        view: Entries[E] = cls.__new__(cls)
        view._buffer, view._length = buffer, length
        return view

    def added(self, item: E) -> Entries[E]:
        """These entries and `item` after them (amortised O(1); `self` is unchanged)."""
        buffer = self._buffer if self._length == len(self._buffer) else self._buffer[: self._length]
        buffer.append(item)
        return Entries._view(buffer, self._length + 1)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> E: ...

    @overload
    def __getitem__(self, index: slice) -> Entries[E]: ...

    def __getitem__(self, index: int | slice) -> E | Entries[E]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if start == 0 and step == 1:  # a prefix shares the buffer
                return Entries._view(self._buffer, max(stop, 0))
            return Entries(self._buffer[: self._length][index])
        if not -self._length <= index < self._length:
            raise IndexError("entry index out of range")
        return self._buffer[index % self._length]

    def __iter__(self) -> Iterator[E]:
        return iter(self._buffer[: self._length])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Entries):
            return self._length == other._length and self._buffer[: self._length] == other._buffer[: other._length]
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Entries({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Entries, (tuple(self),))
