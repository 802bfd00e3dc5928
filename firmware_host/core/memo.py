"""Memos for pure functions of immutable values (a game in play, a round, a state): asked again for the very
same value, the function answers what it answered before, without working it out again.

`remembers(size)` keeps the last `size` answers (the least recently asked forgotten first), so a memo holds
at most `size` values alive whatever is played; `remembers_last` is `remembers(1)`. `Same(*values)` is an
argument that stands for values by their identity (e.g. the scored rounds a table of the page shows).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

A = TypeVar("A")
T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")


class Same(Generic[T]):
    """`values` by identity, as a memo's argument: equal to another `Same` of the very same values (in
    order), hashed by their identities. It keeps them alive, so no other value can take their identity
    (two `Same` of equal identities hold the very same values)."""

    __slots__ = ("_hash", "_ids", "values")

    def __init__(self, *values: T) -> None:
        self.values = values
        self._ids = tuple(map(id, values))
        self._hash = hash(self._ids)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and self._ids == other._ids


def remembers(size: int) -> Callable[[Callable[Concatenate[A, P], R]], Callable[Concatenate[A, P], R]]:
    """A function remembering its last `size` calls and results: the first argument by identity (so it
    must be immutable; it is kept alive while remembered), any further ones by equality (hashable: e.g. a
    language, a `Same`). The result is shared between the callers: they must not change it. Safe across
    threads (a race at worst works the same answer out twice, or keeps one answer more for a while)."""
    if size < 1:
        raise ValueError(f"a memo remembers at least one call, not {size}")

    def decorate(function: Callable[Concatenate[A, P], R]) -> Callable[Concatenate[A, P], R]:
        memo: dict[tuple[Any, ...], tuple[A, R]] = {}  # insertion order: the least recently asked first

        @functools.wraps(function)
        def remembered(value: A, /, *args: P.args, **kwargs: P.kwargs) -> R:
            key = (id(value), args, tuple(kwargs.items())) if kwargs else (id(value), args)
            hit = memo.pop(key, None)
            if hit is not None and hit[0] is value:
                memo[key] = hit  # now the most recently asked
                return hit[1]
            result = function(value, *args, **kwargs)
            memo[key] = (value, result)
            while len(memo) > size:
                try:
                    del memo[next(iter(memo))]
                except (KeyError, RuntimeError, StopIteration):  # another thread changed the memo meanwhile
                    break
            return result

        return remembered

    return decorate


def remembers_last(function: Callable[Concatenate[A, P], R]) -> Callable[Concatenate[A, P], R]:
    """`function` remembering its last call and result (`remembers(1)`)."""
    return remembers(1)(function)
