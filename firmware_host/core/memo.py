"""A memo for pure functions of immutable values (a game in play, a state): asked again for the very same
value, the function answers what it answered before, without working it out again."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

A = TypeVar("A")
R = TypeVar("R")


def remembers_last(function: Callable[[A], R]) -> Callable[[A], R]:
    """`function` remembering its last argument (by identity, so it must be immutable) and its result. The
    result is shared between the callers: they must not change it. Safe across threads (a race at worst
    works the same answer out twice)."""
    last: list[tuple[A, R]] = []

    @functools.wraps(function)
    def remembered(value: A) -> R:
        if last and last[0][0] is value:
            return last[0][1]
        result = function(value)
        last[:] = [(value, result)]
        return result

    return remembered
