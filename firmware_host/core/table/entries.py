"""The events a game entered since its setup, oldest first: an immutable sequence that grows in O(1).

A game in play is a new `Played` value after every event; holding its events in a tuple copied them all
on each one, so resuming a game of n entries cost O(n²). `Entries` versions share one buffer: `added` on
the newest version appends to it, on an older one (a branch, e.g. after an undo) it copies its prefix
first. A version only ever reads the first `len` items of its buffer, so every version stays what it
was. Stepping the core is single-threaded (the shell's loop); readers in other threads only read.

A buffer may begin with a deferred head (`Entries.deferred`): its first items are made by a function
only when one of them is read (an index into the head, iteration, equality), once, and shared by every
version — a game resumed from a snapshot does not build its long history before its first frame. The
buffer also carries `memo`, an opaque value the core never reads: whoever encodes these entries keeps
there what it already encoded of the buffer (its items never change, only more are appended; a branch
starts without a memo).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Any, Generic, TypeVar, overload

E = TypeVar("E")


class _Buffer(Generic[E]):
    """The items of every version of one line of entries: `count` deferred ones (made by `make` when first
    needed, then kept in `head`), then `items`."""

    __slots__ = ("count", "head", "items", "make", "memo")

    def __init__(self, items: list[E], count: int = 0, make: Callable[[], Sequence[E]] | None = None,
                 memo: Any = None) -> None:
        self.items = items
        self.count = count
        self.make = make
        self.head: Sequence[E] | None = None if count else ()
        self.memo = memo

    def first(self) -> Sequence[E]:
        """The deferred head, made on first need (idempotent: two threads at once make equal heads)."""
        head = self.head
        if head is None:
            assert self.make is not None
            head = tuple(self.make())
            if len(head) != self.count:
                raise ValueError(f"a deferred head of {self.count} entries made {len(head)}")
            self.head = head
        return head

    def __len__(self) -> int:
        return self.count + len(self.items)


class Entries(Sequence[E], Generic[E]):
    """An immutable sequence of events; equal to another `Entries` or a tuple of the same items."""

    __slots__ = ("_buffer", "_length")

    def __init__(self, items: Iterable[E] = ()) -> None:
        self._buffer: _Buffer[E] = _Buffer(list(items))
        self._length = len(self._buffer)

    @classmethod
    def deferred(cls, count: int, make: Callable[[], Sequence[E]], after: Iterable[E] = (),
                 memo: Any = None) -> Entries[E]:
        """`count` entries that `make()` gives when one of them is first read, then `after`; `memo` starts
        the buffer's encoder memo."""
        buffer = _Buffer(list(after), count, make if count else None, memo)
        return cls._view(buffer, len(buffer))

    @classmethod
    def _view(cls, buffer: _Buffer[E], length: int) -> Entries[E]:
        view: Entries[E] = cls.__new__(cls)
        view._buffer, view._length = buffer, length
        return view

    @property
    def memo(self) -> Any:
        """The encoder's memo of this version's buffer (None: none kept)."""
        return self._buffer.memo

    def keep(self, memo: Any) -> None:
        """Keep `memo` for this buffer (what an encoder made of its first items: they never change)."""
        self._buffer.memo = memo

    def head_made(self) -> bool:
        """Whether no deferred item is left to make (what an encoder may read without making them)."""
        return self._buffer.head is not None

    def since(self, start: int) -> tuple[E, ...]:
        """The items from `start` to the end; never makes the deferred head when `start` is past it."""
        buffer = self._buffer
        if start >= buffer.count:
            return tuple(buffer.items[start - buffer.count:self._length - buffer.count])
        return tuple(self)[start:]

    def added(self, item: E) -> Entries[E]:
        """These entries and `item` after them (amortised O(1); `self` is unchanged)."""
        buffer = self._buffer
        if self._length != len(buffer):  # a branch: a buffer of its own
            if self._length >= buffer.count:  # the deferred head shared, the encoder's memo not (it may
                shared = buffer  # cover items this branch does not have)
                buffer = _Buffer(shared.items[:self._length - shared.count], shared.count, shared.make)
                buffer.head = shared.head
            else:
                buffer = _Buffer(list(self))
        buffer.items.append(item)
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
            return Entries(tuple(self)[index])
        if not -self._length <= index < self._length:
            raise IndexError("entry index out of range")
        index %= self._length
        buffer = self._buffer
        return buffer.items[index - buffer.count] if index >= buffer.count else buffer.first()[index]

    def __iter__(self) -> Iterator[E]:
        buffer = self._buffer
        if self._length <= buffer.count:
            return iter(buffer.first()[:self._length])
        return chain(buffer.first(), islice(buffer.items, self._length - buffer.count))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Entries):  # versions of one buffer are equal by their length: no item is read
            if other._buffer is self._buffer or self._length != other._length:
                return self._length == other._length
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Entries({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Entries, (tuple(self),))
