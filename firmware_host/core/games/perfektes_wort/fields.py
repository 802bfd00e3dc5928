"""The bonus fields: who circles and who strikes which field in which round (ruling R4, solo variant).

Per round, after its verdicts and shortenings: every final word holding a field's letters as a
contiguous substring claims that field, unless its player has already circled or struck it; all
claimants circle it, everyone else who still has it open strikes it. In the solo variant the player
also strikes one unused field after each round (a `SoloStrike`), which must not be one already used.
"""

from __future__ import annotations

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
    marks = {p: {f: FieldMark(f, Mark.OPEN) for f in fields} for p in players}
    for rnd in range(1, rounds + 1):
        claims: dict[str, list[str]] = {}
        for player in players:
            word = finals.get((rnd, player), "")
            for field in fields:
                if field in word and marks[player][field].mark is Mark.OPEN:
                    claims.setdefault(field, []).append(player)
        for field, claimants in claims.items():
            for player in players:
                if player in claimants:
                    marks[player][field] = FieldMark(field, Mark.CIRCLED, rnd, tuple(claimants))
                elif marks[player][field].mark is Mark.OPEN:
                    marks[player][field] = FieldMark(field, Mark.STRUCK, rnd, tuple(claimants))
        in_round = [s for s in strikes if s.round == rnd]
        if len(in_round) > 1:
            raise FieldError("one_strike", in_round[1].ref, round=rnd)
        for strike in in_round:
            for player in players:
                mark = marks[player].get(strike.field)
                if mark is None:
                    raise FieldError("not_a_field", strike.ref, field=strike.field, fields=", ".join(fields))
                if mark.mark is Mark.CIRCLED:
                    raise FieldError("strike_used", strike.ref, field=strike.field, round=mark.round)
                if mark.mark is Mark.STRUCK:
                    raise FieldError("already_struck", strike.ref, field=strike.field, round=mark.round)
                marks[player][strike.field] = FieldMark(strike.field, Mark.STRUCK, rnd)
    return marks
