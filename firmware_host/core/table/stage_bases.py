"""The shapes the games' stages share (a stage is a frozen value; its type is the row of its flow's `STAGES`).
A stage subclasses one of these, with only its docstring, when it holds no more than the shape does."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Plain:
    """A stage that holds nothing: its type says what is on screen and what the inputs do."""


@dataclass(frozen=True, slots=True)
class Picking:
    """A stage that chooses one of a list: `cursor` is the option marked."""

    cursor: int = 0
