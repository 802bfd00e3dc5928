"""The bonus fields: who circles and who strikes which field in which round (ruling R4, solo variant).

Per round, after its verdicts and shortenings: every final word holding a field's letters as a
contiguous substring claims that field, unless its player has already circled or struck it; all
claimants circle it, everyone else who still has it open strikes it. In the solo variant the player
also strikes one unused field after each round (a `SoloStrike`), which must not be one already used.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from enum import StrEnum

from .errors import FieldError

CIRCLED_POINTS = 5


class Mark(StrEnum):
    OPEN = "open"
    CIRCLED = "circled"
    STRUCK = "struck"


@dataclass(frozen=True, slots=True)
class FieldMark:
    """A bonus field on one player's sheet: its mark, the round it got it, and whose word caused it
    (the claimants for a circled or struck field; empty for a solo strike)."""

    field: str
    mark: Mark
    round: int = 0
    by: tuple[str, ...] = ()

    @property
    def points(self) -> int:
        return CIRCLED_POINTS if self.mark is Mark.CIRCLED else 0


@dataclass(frozen=True, slots=True)
class FieldStrike:
    """A solo strike: after `round`, the player struck `field`. `ref` is the table event."""

    round: int
    field: str
    ref: int = dataclass_field(default=0, compare=False)


Marks = tuple[tuple[FieldMark, ...], ...]  # per player (in seat order), per field (in the sheet's order)


def resolve_fields(
    players: Sequence[str],
    fields: Sequence[str],
    finals: Mapping[tuple[int, str], str],
    strikes: Sequence[FieldStrike],
    rounds: int,
) -> dict[str, dict[str, FieldMark]]:
    """Each player's mark on each field after `rounds` rounds. `finals` maps (round, player) to the final
    word (missing: no word). Raises `FieldError` (with the strike's ref) for a solo strike of a field
    that is already circled or struck, or a second solo strike in one round."""
    marks = open_marks(len(players), tuple(fields))
    for rnd in range(1, rounds + 1):
        words = tuple(finals.get((rnd, player), "") for player in players)
        in_round = tuple(strike for strike in strikes if strike.round == rnd)
        marks = resolve_round(marks, tuple(players), tuple(fields), rnd, words, in_round)
    return {player: {mark.field: mark for mark in row} for player, row in zip(players, marks, strict=True)}


def open_marks(players: int, fields: tuple[str, ...]) -> Marks:
    """The marks before round 1: every field open on every sheet."""
    row = tuple(FieldMark(field, Mark.OPEN) for field in fields)
    return (row,) * players


def resolve_round(marks: Marks, players: tuple[str, ...], fields: tuple[str, ...], rnd: int,
                  words: tuple[str, ...], strikes: tuple[FieldStrike, ...]) -> Marks:
    """The marks after round `rnd` from those before it: `words` are the round's final words (in seat
    order, "" for none), `strikes` its solo strikes. A player's marks that the round leaves as they were
    are the very same value (and so are all of them, when it changes none). Raises `FieldError` as
    `resolve_fields` does."""
    claims: dict[int, list[str]] = {}
    for player, word, before in zip(players, words, marks, strict=True):
        for index, mark in enumerate(before):
            if mark.field in word and mark.mark is Mark.OPEN:
                claims.setdefault(index, []).append(player)
    if not claims and not strikes:
        return marks
    rows = [list(row) for row in marks]
    for index, claimants in claims.items():
        field, by = fields[index], tuple(claimants)
        for player, changed in zip(players, rows, strict=True):
            if player in claimants:
                changed[index] = FieldMark(field, Mark.CIRCLED, rnd, by)
            elif changed[index].mark is Mark.OPEN:
                changed[index] = FieldMark(field, Mark.STRUCK, rnd, by)
    if len(strikes) > 1:
        raise FieldError("one_strike", strikes[1].ref, round=rnd)
    for strike in strikes:
        for changed in rows:
            if strike.field not in fields:
                raise FieldError("not_a_field", strike.ref, field=strike.field, fields=", ".join(fields))
            index = fields.index(strike.field)
            mark = changed[index]
            if mark.mark is Mark.CIRCLED:
                raise FieldError("strike_used", strike.ref, field=strike.field, round=mark.round)
            if mark.mark is Mark.STRUCK:
                raise FieldError("already_struck", strike.ref, field=strike.field, round=mark.round)
            changed[index] = FieldMark(strike.field, Mark.STRUCK, rnd)
    return tuple(before if all(map(operator.is_, before, changed)) else tuple(changed)
                 for before, changed in zip(marks, rows, strict=True))
