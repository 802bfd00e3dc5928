"""`Chain`: an immutable sequence that grows at its end without copying what it holds.

A game state that keeps a log (a table game's turns, the scoreboard's changes) gets a new state per event;
with a tuple, each event copies the whole log (a record of n lines costs n²). A chain links the new item
to the chain before it: `add` is O(1) and both chains stay valid, sharing their past. Reading is a walk:
iterating is O(n), `chain[-k]` and `last` are O(k), `chain[i]` from the start O(n). Equality compares the
items (stopping where both share their past); the hash is that of the items as a tuple.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Chain(Sequence[T], Generic[T]):
    """The items added so far, oldest first. `Chain()` is empty; `Chain.of(items)` holds `items`."""

    __slots__ = ("_before", "_item", "_size")

    _item: T
    _before: Chain[T] | None
    _size: int

    def __init__(self) -> None:
        self._before = None
        self._size = 0

    @classmethod
    def of(cls, items: Iterable[T]) -> Chain[T]:
        chain: Chain[T] = cls()
        for item in items:
            chain = chain.add(item)
        return chain

    def add(self, item: T) -> Chain[T]:
        """This chain with `item` at its end (this chain itself is unchanged)."""
        link: Chain[T] = Chain.__new__(Chain)
        link._item, link._before, link._size = item, self, self._size + 1
        return link

    @property
    def last(self) -> T:
        """The newest item. Raises IndexError when empty."""
        if not self._size:
            raise IndexError("the chain is empty")
        return self._item

    @property
    def before(self) -> Chain[T]:
        """The chain without its newest item. Raises IndexError when empty."""
        if self._before is None:
            raise IndexError("the chain is empty")
        return self._before

    def __len__(self) -> int:
        return self._size

    def __reversed__(self) -> Iterator[T]:
        link: Chain[T] | None = self
        while link is not None and link._size:
            yield link._item
            link = link._before

    def __iter__(self) -> Iterator[T]:
        return iter(list(reversed(self))[::-1])

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        steps = -index - 1 if index < 0 else self._size - 1 - index
        if not 0 <= steps < self._size:
            raise IndexError("chain index out of range")
        for item in reversed(self):
            if steps == 0:
                return item
            steps -= 1
        raise AssertionError("unreachable")  # pragma: no cover

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chain):
            return NotImplemented
        if len(self) != len(other):
            return False
        mine: Chain[Any] | None = self
        theirs: Chain[Any] | None = other
        while mine is not None and theirs is not None and mine is not theirs and mine._size:
            if mine._item != theirs._item:
                return False
            mine, theirs = mine._before, theirs._before
        return True

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Chain.of({list(self)!r})"
