"""A memo for pure functions of immutable values (a game in play, a state): asked again for the very same
value, the function answers what it answered before, without working it out again."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

A = TypeVar("A")
R = TypeVar("R")
P = ParamSpec("P")


def remembers_last(function: Callable[Concatenate[A, P], R]) -> Callable[Concatenate[A, P], R]:
    """`function` remembering its last call and result: the first argument by identity (so it must be
    immutable), any further ones by equality (e.g. a language). The result is shared between the callers:
    they must not change it. Safe across threads (a race at worst works the same answer out twice)."""
    last: list[tuple[A, tuple[Any, ...], dict[str, Any], R]] = []

    @functools.wraps(function)
    def remembered(value: A, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if last and last[0][0] is value and last[0][1] == args and last[0][2] == kwargs:
            return last[0][3]
        result = function(value, *args, **kwargs)
        last[:] = [(value, args, kwargs, result)]
        return result

    return remembered
