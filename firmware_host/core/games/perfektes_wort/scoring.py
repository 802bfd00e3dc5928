"""Scoring Das perfekte Wort with a breakdown of every number (players check it against their sheets).

Word points per row: valid word 5, exact maximum length 5, each grey-letter hit 5, each Profi arrow hit 5
(R5: an arrow hit belongs to the row of the later of its two cells, when both hold the same letter).
Vowel points: per vowel A E I O U, its count in all final words × its value (Ä Ö Ü are not vowels).
Bonus points: 5 per circled field. Total = word + vowel + bonus points. Rank by total, then vowel points;
equal in both means the same rank (a shared win at the top).

A game is scored once per value (`score` remembers the last), and a new game value is scored from the
last one scored: only what changed is worked out again — the bonus fields from the first round whose
entries changed, the sheets of the players whose entries changed (a row whose entry did not stays), the
ranked players whose sheet, fields or rank changed. What a step leaves as it was stays the very same value
(what the page's views build on).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from firmware_host.core.memo import remembers_last

from .data import Cell
from .fields import FieldMark, FieldStrike, Marks, open_marks, resolve_round
from .rules import Entry, Game, Setup, pending
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
    hit_points: int = field(init=False)
    points: int = field(init=False)

    def __post_init__(self) -> None:
        hit_points = POINTS_HIT * (len(self.grey_hits) + len(self.arrow_hits))
        object.__setattr__(self, "hit_points", hit_points)
        object.__setattr__(self, "points", self.valid_points + self.length_points + hit_points)


@dataclass(frozen=True, slots=True)
class VowelScore:
    counts: Mapping[str, int]
    values: Mapping[str, int]
    points: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", sum(self.points_of(v) for v in VOWELS))

    def points_of(self, vowel: str) -> int:
        return self.counts[vowel] * self.values[vowel]


@dataclass(frozen=True, slots=True)
class PlayerResult:
    name: str
    rows: tuple[RowScore, ...]
    vowels: VowelScore
    fields: tuple[FieldMark, ...]
    rank: int
    winner: bool
    word_points: int = field(init=False)
    bonus_points: int = field(init=False)
    total: int = field(init=False)

    def __post_init__(self) -> None:
        word_points = sum(row.points for row in self.rows)
        bonus_points = sum(f.points for f in self.fields)
        object.__setattr__(self, "word_points", word_points)
        object.__setattr__(self, "bonus_points", bonus_points)
        object.__setattr__(self, "total", word_points + self.vowels.points + bonus_points)


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
    setup = game.setup
    table = _table(game)
    base = _LAST[0] if _LAST and _LAST[0].setup is setup else _Scoring.empty(setup)
    _check_settled(game, table, base)
    marks = _marks(game, table, base)
    sheets = tuple(before if before is not None and row == known else _sheet(setup, row, known, before)
                   for row, known, before in zip(table, base.table, base.sheets, strict=True))
    players = _ranked(setup.players, sheets, marks[game.revealed], base)
    _LAST[:] = [_Scoring(setup, game.strikes, table, marks, sheets, players)]
    return Result(setup.sheet.side, setup.sheet.title, game.solo, game.revealed, players)


Table = tuple[tuple[Entry | None, ...], ...]  # a game's entries: per player (in seat order), per round


def _table(game: Game) -> Table:
    seat = {player: i for i, player in enumerate(game.setup.players)}
    cells: list[list[Entry | None]] = [[None] * game.revealed for _ in seat]
    for entry in game.entries:
        cells[seat[entry.player]][entry.round - 1] = entry
    return tuple(map(tuple, cells))


def _check_settled(game: Game, table: Table, base: _Scoring) -> None:
    """Raises the first of `pending(game)`, if any. Only the entries new since `base` are looked at: those
    of the game `base` scored needed nothing (what an entry needs is its own)."""
    new = tuple(entry for row, known in zip(table, base.table, strict=True) if row != known
                for rnd, entry in enumerate(row) if entry is not None and not _same(known[rnd:rnd + 1], entry))
    if pending(Game(setup=game.setup, revealed=game.revealed, entries=new, lexicon=game.lexicon)):
        raise pending(game)[0]


def _marks(game: Game, table: Table, base: _Scoring) -> tuple[Marks, ...]:
    """The bonus fields' marks after round 0, 1, … `game.revealed`: `base`'s up to the first round whose
    entries changed, from there on resolved again (a player's marks as they were stay the very same value)."""
    players, fields = game.setup.players, game.setup.sheet.bonus_fields
    start = 1 if base.strikes != game.strikes else _first_change(base.table, table)
    marks = base.marks[:start] or (open_marks(len(players), fields),)
    for rnd in range(start, game.revealed + 1):
        words = tuple(_final(row[rnd - 1]) for row in table)
        in_round = tuple(s for s in game.strikes if s.round == rnd)
        now = resolve_round(marks[-1], players, fields, rnd, words, in_round)
        if rnd < len(base.marks):
            now = tuple(old if old == row else row for old, row in zip(base.marks[rnd], now, strict=True))
        marks = (*marks, now)
    return marks


def _ranked(players: tuple[str, ...], sheets: tuple[_Sheet, ...], marks: Marks,
            base: _Scoring) -> tuple[PlayerResult, ...]:
    """Each player's result, ranked by total, then vowel points; `base`'s where sheet, fields and rank stay."""
    bonus = [before.bonus_points if before is not None and before.fields is marked else
             sum(mark.points for mark in marked) for before, marked in zip(base.players, marks, strict=True)]
    keys = [(sheet.points + sheet.vowels.points + points, sheet.vowels.points)
            for sheet, points in zip(sheets, bonus, strict=True)]
    ahead = sorted(keys, reverse=True)  # a player's rank: 1 + how many are ahead
    results = []
    for name, sheet, marked, key, known, before in zip(players, sheets, marks, keys, base.sheets, base.players,
                                                       strict=True):
        rank = 1 + ahead.index(key)
        if before is None or before.rank != rank or before.fields is not marked or known is not sheet:
            before = PlayerResult(name, sheet.rows, sheet.vowels, marked, rank=rank, winner=rank == 1)
        results.append(before)
    return tuple(results)


def _final(entry: Entry | None) -> str:
    """The word scored for `entry` ("" for none) in a game `pending` found nothing in: `rules.final_word`,
    which is the current form unless struck when no entry needs the table."""
    return "" if entry is None or entry.struck else entry.current


@dataclass(frozen=True, slots=True)
class _Sheet:
    """One player's rows, vowels and word points."""

    rows: tuple[RowScore, ...]
    vowels: VowelScore
    points: int


@dataclass(frozen=True, slots=True, eq=False)
class _Scoring:
    """What scoring a game value worked out, to score the next one from: its setup and solo strikes, its
    entries (per player, per round), the bonus fields' marks after each round (from round 0), each
    player's sheet and ranked result (None: not scored yet)."""

    setup: Setup
    strikes: tuple[FieldStrike, ...]
    table: Table
    marks: tuple[Marks, ...]
    sheets: tuple[_Sheet | None, ...]
    players: tuple[PlayerResult | None, ...]

    @classmethod
    def empty(cls, setup: Setup) -> _Scoring:
        """Nothing scored of a game of `setup` yet."""
        none = (None,) * len(setup.players)
        return cls(setup, (), ((),) * len(setup.players), (), none, none)


_LAST: list[_Scoring] = []  # the last game value scored (one: what the next one is scored from)


def _first_change(before: Table, now: Table) -> int:
    """The first round whose entries in `now` are not those `before` (past `now`'s last round: none)."""
    first = len(now[0]) + 1 if now else 1
    for old, new in zip(before, now, strict=True):
        if old != new:
            first = min(first, next((rnd for rnd, entry in enumerate(new, start=1)
                                     if not _same(old[rnd - 1:rnd], entry)), first))
    return first


def _same(known: tuple[Entry | None, ...], entry: Entry | None) -> bool:
    """Whether `known` (an entry or none, or nothing: a round not played then) holds `entry`'s equal."""
    return bool(known) and (known[0] is entry or known[0] == entry)


def _sheet(setup: Setup, entries: tuple[Entry | None, ...], known: tuple[Entry | None, ...],
           before: _Sheet | None) -> _Sheet:
    """The sheet of a player whose entries in rounds 1, 2, … are `entries` (None: none in that round); a
    row of `before` (the sheet of the entries `known`) stays where its entry and arrow hits do."""
    finals = {rnd: _final(entry) for rnd, entry in enumerate(entries, start=1)}
    arrow_hits: dict[int, list[ArrowHit]] = {}
    if setup.sheet.arrows:
        letters = {Cell(rnd, i): ch for rnd, word in finals.items() for i, ch in enumerate(word, start=1)}
        for arrow in setup.sheet.arrows:
            letter = letters.get(arrow.source)
            if letter is not None and letters.get(arrow.target) == letter:
                row = max(arrow.source.row, arrow.target.row)
                arrow_hits.setdefault(row, []).append(ArrowHit(arrow.source, arrow.target, letter))
    cards = Game(setup)  # the rounds' letters and maximum lengths, as the rules read them from the deck
    rows = []
    kept = before.rows if before is not None else ()
    for rnd, entry in enumerate(entries, start=1):
        hits = tuple(arrow_hits[rnd]) if rnd in arrow_hits else ()
        old = kept[rnd - 1] if rnd <= len(kept) and (known[rnd - 1] is entry or known[rnd - 1] == entry) else None
        rows.append(old if old is not None and old.arrow_hits == hits else _row(cards, rnd, entry, finals[rnd], hits))
    vowels = VowelScore(vowel_counts("".join(finals.values())), dict(setup.vowels))
    if before is not None and vowels == before.vowels:
        vowels = before.vowels
    return _Sheet(tuple(rows), vowels, sum(row.points for row in rows))


def _row(cards: Game, rnd: int, entry: Entry | None, word: str, arrow_hits: tuple[ArrowHit, ...]) -> RowScore:
    limit = cards.max_length(rnd)
    if entry is None or not entry.written:
        status = "none"
    elif entry.struck:
        status = "struck"
    elif entry.kept is not None:
        status = "shortened"
    else:
        status = "valid"
    grey = cards.setup.sheet.grey(rnd)
    hits = tuple(GreyHit(i, ch) for i, ch in enumerate(word, start=1) if grey.get(i) == ch)
    return RowScore(
        round=rnd,
        letter=cards.letter(rnd),
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
