"""A rules core as one value, and replaying a game record through it.

`Rules` holds what every game's rules core has: its record codec (the setup event and the table events),
how a setup starts a game, and how an event changes it. `replay` folds a record with it and turns every
broken rule into a `RecordError` naming the line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.record import GameRecord, RecordError, ScoreReport
from firmware_host.core.record_codec import Codec

G = TypeVar("G")  # the rules core's game state
S = TypeVar("S")  # its setup event
E = TypeVar("E")  # its table events


@dataclass(frozen=True, slots=True)
class Rules(Generic[S, G, E]):
    """`codec` reads and writes every line after the header (the setup line first); `start(setup)` is the
    game at its start; `apply(game, event, line)` the game after a table event (`line`: the event's
    1-based record line, for errors found later); both raise `RuleError`. `report(game)` is the game so
    far scored (a record's score is `report(replay(record))`; the league's running totals are the game in
    play's); it raises `RecordError` when the game does not score yet. A record may stop anywhere: the
    game so far is what it scores (unfinished)."""

    game: str
    codec: Codec[Any]
    setup: type[S]
    start: Callable[[S], G]
    apply: Callable[[G, E, int], G]
    report: Callable[[G], ScoreReport]

    def replay(self, record: GameRecord) -> G:
        """Fold a record: its first event must be the setup; every later line is decoded and applied.
        Raises `RecordError` (with the line number) for a malformed line or an entry the rules refuse."""
        if record.game != self.game:
            raise RecordError(0, f"this is a record of {record.game!r}, not of {self.game!r}")
        if not record.lines:
            raise RecordError(0, f"the record has no events: the first event must be '{self.setup.EVENT}'")  # type: ignore[attr-defined]
        first, *rest = record.lines
        if first.event != self.setup.EVENT:  # type: ignore[attr-defined]
            name = self.setup.EVENT  # type: ignore[attr-defined]
            raise RecordError(first.line, f"the first event must be '{name}', not '{first.event}'")
        try:
            game = self.start(self.codec.decode(first))
        except RuleError as exc:
            raise first.error(exc.message, exc) from None
        for line in rest:
            if line.event == first.event:
                raise line.error("the game is already set up")
            event = self.codec.decode(line)
            try:
                game = self.apply(game, event, line.line)
            except RuleError as exc:
                raise line.error(exc.message, exc) from None
        return game
