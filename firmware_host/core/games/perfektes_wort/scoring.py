"""Scoring Das perfekte Wort with a breakdown of every number (players check it against their sheets).

Word points per row: valid word 5, exact maximum length 5, each grey-letter hit 5, each Profi arrow hit 5
(R5: an arrow hit belongs to the row of the later of its two cells, when both hold the same letter).
Vowel points: per vowel A E I O U, its count in all final words × its value (Ä Ö Ü are not vowels).
Bonus points: 5 per circled field. Total = word + vowel + bonus points. Rank by total, then vowel points;
equal in both means the same rank (a shared win at the top).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from firmware_host.core.memo import remembers_last

from .data import Cell
from .fields import FieldMark
from .rules import Game, field_marks, final_word, pending
from .words import VOWELS, vowel_counts

POINTS_VALID = 5
POINTS_LENGTH = 5
POINTS_HIT = 5


@dataclass(frozen=True, slots=True)
class GreyHit:
    """A grey letter used in its own cell."""

    cell: int
    letter: str


@dataclass(frozen=True, slots=True)
class ArrowHit:
    """A Profi arrow whose cell and target cell hold the same letter."""

    source: Cell
    target: Cell
    letter: str


@dataclass(frozen=True, slots=True)
class RowScore:
    """One row (= round) of one player's sheet and its word points."""

    round: int
    letter: str
    max_length: int
    written: str  # as written, or as corrected ("" = no word)
    word: str  # what is scored ("" = nothing: no word, or struck)
    status: str  # "none", "valid", "shortened", "struck"
    corrected: bool
    valid_points: int
    length_points: int
    grey_hits: tuple[GreyHit, ...]
    arrow_hits: tuple[ArrowHit, ...]

    @property
    def hit_points(self) -> int:
        return POINTS_HIT * (len(self.grey_hits) + len(self.arrow_hits))

    @property
    def points(self) -> int:
        return self.valid_points + self.length_points + self.hit_points


@dataclass(frozen=True, slots=True)
class VowelScore:
    counts: Mapping[str, int]
    values: Mapping[str, int]

    def points_of(self, vowel: str) -> int:
        return self.counts[vowel] * self.values[vowel]

    @property
    def points(self) -> int:
        return sum(self.points_of(v) for v in VOWELS)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    name: str
    rows: tuple[RowScore, ...]
    vowels: VowelScore
    fields: tuple[FieldMark, ...]
    rank: int
    winner: bool

    @property
    def word_points(self) -> int:
        return sum(row.points for row in self.rows)

    @property
    def bonus_points(self) -> int:
        return sum(f.points for f in self.fields)

    @property
    def total(self) -> int:
        return self.word_points + self.vowels.points + self.bonus_points


@dataclass(frozen=True, slots=True)
class Result:
    """The scored game so far: `rounds` revealed (9 = finished). Winners are those ranked 1."""

    side: str
    title: str
    solo: bool
    rounds: int
    players: tuple[PlayerResult, ...]

    @property
    def finished(self) -> bool:
        return self.rounds == 9

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.winner)

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


@remembers_last
def score(game: Game) -> Result:
    """Score every revealed round. Raises the first of `pending(game)` if an entry still needs the table.
    Remembered for the last game value scored (the page's views and the league's totals of one step share
    it); the result is shared, never to be changed."""
    problems = pending(game)
    if problems:
        raise problems[0]
    sheet = game.setup.sheet
    marks = field_marks(game)
    unranked: list[PlayerResult] = []
    for player in game.setup.players:
        finals = {rnd: "" for rnd in range(1, game.revealed + 1)}
        for entry in game.entries:
            if entry.player == player:
                finals[entry.round] = final_word(game, entry)
        letters = {Cell(rnd, i): ch for rnd, word in finals.items() for i, ch in enumerate(word, start=1)}
        arrow_hits: dict[int, list[ArrowHit]] = {}
        for arrow in sheet.arrows:
            letter = letters.get(arrow.source)
            if letter is not None and letters.get(arrow.target) == letter:
                row = max(arrow.source.row, arrow.target.row)
                arrow_hits.setdefault(row, []).append(ArrowHit(arrow.source, arrow.target, letter))
        rows = tuple(
            _row(game, player, rnd, finals[rnd], tuple(arrow_hits.get(rnd, ())))
            for rnd in range(1, game.revealed + 1)
        )
        counts = vowel_counts("".join(finals.values()))
        vowels = VowelScore(counts, dict(game.setup.vowels))
        fields = tuple(marks[player][f] for f in sheet.bonus_fields)
        unranked.append(PlayerResult(player, rows, vowels, fields, rank=0, winner=False))
    keys = [(p.total, p.vowels.points) for p in unranked]
    results = []
    for result, key in zip(unranked, keys, strict=True):
        rank = 1 + sum(1 for other in keys if other > key)
        results.append(replace(result, rank=rank, winner=rank == 1))
    return Result(sheet.side, sheet.title, game.solo, game.revealed, tuple(results))


def _row(game: Game, player: str, rnd: int, word: str, arrow_hits: tuple[ArrowHit, ...]) -> RowScore:
    entry = game.entry(rnd, player)
    limit = game.max_length(rnd)
    if entry is None or not entry.written:
        status = "none"
    elif entry.struck:
        status = "struck"
    elif entry.kept is not None:
        status = "shortened"
    else:
        status = "valid"
    grey = game.setup.sheet.grey(rnd)
    hits = tuple(GreyHit(i, ch) for i, ch in enumerate(word, start=1) if grey.get(i) == ch)
    return RowScore(
        round=rnd,
        letter=game.letter(rnd),
        max_length=limit,
        written=entry.written if entry else "",
        word=word,
        status=status,
        corrected=bool(entry and entry.corrected),
        valid_points=POINTS_VALID if word else 0,
        length_points=POINTS_LENGTH if word and len(word) == limit else 0,
        grey_hits=hits,
        arrow_hits=arrow_hits,
    )
