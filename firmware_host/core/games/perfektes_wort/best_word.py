"""Das perfekte Wort, revealed: the highest-scoring word a word list holds for one round of one player.

A round's word is worth to its player what it adds to their total: valid 5, exact maximum length 5, grey
hits and Profi-arrow hits 5 each (an arrow counts when its other cell is in this row or in an earlier row
of the player's sheet; one into a later row is not known yet), its vowels at the points card's values,
and 5 for each bonus field it holds that the player still had open after the round before. `gain` is that
number computed by `scoring.score` itself (the total with the word minus the total without it), on the
game as it stood when the round was revealed; `best_words` finds the best word of each player with a fast
evaluation of the same sum and then takes its points from `gain`, so the points shown are the scoring's.

Legal words: start with the round's letter, 2 to `max_length` letters (a longer one would be shortened).
A word the table accepted that the list lacks is never judged by this: the reveal only says what the list
offers (`BestWord.written` is what the player's own word was worth).
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, replace

from firmware_host.core.games.word_groups import WordGroups

from .data import Cell
from .fields import Mark, resolve_fields
from .rules import Entry, Game, final_word
from .scoring import POINTS_HIT, POINTS_LENGTH, POINTS_VALID, score
from .words import LETTERS

MIN_LENGTH = 2
NATIVE_LITTLE = array("H", [1]).tobytes() == b"\x01\x00"  # the machine's byte order (the Pi's: little)
CIRCLE_POINTS = 5


@dataclass(frozen=True, slots=True)
class BestWord:
    """The best word of the list for `player` in `round` and what it was worth; `written` is what the
    player's own (final) word was worth ("" and 0 for none). `word` is "" when the list has none."""

    round: int
    player: str
    word: str
    points: int
    written_word: str
    written: int


def as_of(game: Game, rnd: int) -> Game:
    """The game as it stood at the end of round `rnd`, before any solo strike of it: entries reduced to
    their final words (a struck or unresolved word is no word), nothing of later rounds."""
    entries = tuple(
        Entry(e.round, e.player, word, ref=e.ref)
        for e in game.entries
        if e.round <= rnd and (word := final_word(game, e))
    )
    strikes = tuple(s for s in game.strikes if s.round < rnd)
    return replace(game, revealed=rnd, entries=entries, strikes=strikes)


def gain(game: Game, player: str, rnd: int, word: str) -> int:
    """What `word` in row `rnd` adds to `player`'s total, by `scoring.score`, on `as_of(game, rnd)`
    with the player's own word of that round taken away ("" adds 0)."""
    return _gains(_without(as_of(game, rnd), player, rnd), player, rnd, (word,))[0]


def _gains(base: Game, player: str, rnd: int, words: tuple[str, ...]) -> list[int]:
    """`gain` of each of `words` on `base` (the game without the player's word of round `rnd`)."""
    if not any(words):
        return [0] * len(words)
    before = _total(base, player)
    return [
        _total(replace(base, entries=(*base.entries, Entry(rnd, player, word))), player) - before if word else 0
        for word in words
    ]


def best_words(game: Game, rnd: int, words: WordGroups) -> tuple[BestWord, ...]:
    """Each player's best word for round `rnd` (which must be revealed), in seating order."""
    state = as_of(game, rnd)
    letter, limit = state.letter(rnd), state.max_length(rnd)
    groups = [
        _Group(state, rnd, length, text)
        for length in range(limit, MIN_LENGTH - 1, -1)
        if (text := words.group(letter, length))
    ]
    found = []
    for player in game.setup.players:
        base = _without(state, player, rnd)
        word = _best(groups, _fixed_letters(base, player, rnd, grey=False), _open_fields(base, player, rnd))
        own = next((e.written for e in state.entries if (e.round, e.player) == (rnd, player)), "")
        points, written = _gains(base, player, rnd, (word, own))
        found.append(BestWord(rnd, player, word, points, own, written))
    return tuple(found)


def group_points(game: Game, player: str, rnd: int, text: str, length: int) -> list[int]:
    """What each word of one group (`text`: words of `length` letters, newline-joined) adds to `player`'s
    total in row `rnd`: the solver's evaluation of `gain`, equal to it for every legal word (the tests
    check that). `game` is `as_of` the round without the player's word."""
    group = _Group(game, rnd, length, text)
    fixed = _fixed_letters(game, player, rnd, grey=False)
    return list(group.points(fixed, _open_fields(game, player, rnd)))


class _Group:
    """The words of one length for one round, with what all players share precomputed.

    The words of a group are records of equal width, so column i of the text (`text[i::length+1]`)
    holds letter i of every word. Points are kept as 16-bit lanes of one big integer, one lane a word:
    vowels and grey letters score per column through a translation to points, a condition met by some
    words (a letter in a cell, two cells equal, a bonus field in the word) is an indicator of lanes
    multiplied by its points, and all of them add up lane by lane in a few big-integer operations."""

    def __init__(self, game: Game, rnd: int, length: int, text: str) -> None:
        self.text, self.length, self.width = text, length, length + 1
        self.count = (len(text) + 1) // self.width
        self.columns = [text[i :: self.width] for i in range(length)]
        values = game.setup.vowels
        grey = {i - 1: ch for i, ch in game.setup.sheet.grey(rnd).items() if i <= length}
        base = POINTS_VALID + (POINTS_LENGTH if length == game.max_length(rnd) else 0)
        lanes = self._lanes([base] * self.count)
        for i, column in enumerate(self.columns):
            table = {ord(ch): chr(values.get(ch, 0) + (POINTS_HIT if grey.get(i) == ch else 0)) for ch in LETTERS}
            lanes += int.from_bytes(column.translate(table).encode("utf-16-le"), "little")
        for i, j in _row_pairs(game, rnd):
            if i < length and j < length:
                equal = [int(a == b) for a, b in zip(self.columns[i], self.columns[j], strict=True)]
                lanes += POINTS_HIT * self._lanes(equal)
        self.shared = lanes
        self.fields: dict[str, int] = {}

    def _lanes(self, values: list[int]) -> int:
        lanes = array("H", values)
        if not NATIVE_LITTLE:  # pragma: no cover - the Pi and the CI are little-endian
            lanes.byteswap()
        return int.from_bytes(lanes.tobytes(), "little")

    def letter_at(self, i: int, letter: str) -> int:
        """Indicator lanes: the words with `letter` in (0-based) cell i."""
        table = {ord(ch): "\x01" if ch == letter else "\x00" for ch in LETTERS}
        return int.from_bytes(self.columns[i].translate(table).encode("utf-16-le"), "little")

    def holding(self, name: str) -> int:
        """Indicator lanes: the words holding the bonus field `name` (cached: the same for all players)."""
        if name not in self.fields:
            hits = bytearray(2 * self.count)
            for match in re.finditer(re.escape(name), self.text):
                hits[2 * (match.start() // self.width)] = 1
            self.fields[name] = int.from_bytes(hits, "little")
        return self.fields[name]

    def points(self, fixed: list[tuple[int, str]], open_fields: tuple[str, ...]) -> array[int]:
        """Each word's points for a player whose row has the extra hit letters `fixed` (from arrows) and
        who has the bonus fields `open_fields` open."""
        lanes = self.shared
        for i, letter in fixed:
            if i < self.length:
                lanes += POINTS_HIT * self.letter_at(i, letter)
        for name in open_fields:
            if len(name) <= self.length:
                lanes += CIRCLE_POINTS * self.holding(name)
        points = array("H")
        points.frombytes(lanes.to_bytes(2 * self.count, "little"))
        if not NATIVE_LITTLE:  # pragma: no cover
            points.byteswap()
        return points

    def word(self, k: int) -> str:
        return self.text[k * self.width : k * self.width + self.length]


def _best(groups: list[_Group], fixed: list[tuple[int, str]], open_fields: tuple[str, ...]) -> str:
    """The best word: most points; of equal ones the longest, then the alphabetically first."""
    best, best_points = "", 0
    for group in groups:  # longest first
        points = group.points(fixed, open_fields)
        top = max(points)
        if top > best_points:
            best, best_points = group.word(points.index(top)), top
    return best


def _fixed_letters(game: Game, player: str, rnd: int, *, grey: bool = True) -> list[tuple[int, str]]:
    """(0-based cell, letter) of row `rnd` that hit: grey letters (unless not `grey`), and arrows whose
    other end is a letter of the player's earlier rows."""
    sheet = game.setup.sheet
    earlier = {
        Cell(e.round, i): ch
        for e in game.entries
        if e.player == player and e.round < rnd
        for i, ch in enumerate(e.written, start=1)
    }
    fixed = [(i - 1, ch) for i, ch in sheet.grey(rnd).items()] if grey else []
    for arrow in sheet.arrows:
        ends = (arrow.source, arrow.target)
        here = [c for c in ends if c.row == rnd]
        if len(here) == 1:
            other = arrow.target if arrow.source.row == rnd else arrow.source
            if other in earlier:
                fixed.append((here[0].cell - 1, earlier[other]))
    return fixed


def _row_pairs(game: Game, rnd: int) -> list[tuple[int, int]]:
    """Arrows with both cells in row `rnd`, as 0-based cell pairs."""
    return [
        (a.source.cell - 1, a.target.cell - 1)
        for a in game.setup.sheet.arrows
        if a.source.row == rnd and a.target.row == rnd
    ]


def _open_fields(game: Game, player: str, rnd: int) -> tuple[str, ...]:
    """The bonus fields `player` still had open after round rnd-1 (solo strikes included)."""
    finals = {(e.round, e.player): e.written for e in game.entries if e.round < rnd}
    marks = resolve_fields(game.setup.players, game.setup.sheet.bonus_fields, finals, game.strikes, rnd - 1)
    return tuple(name for name, mark in marks[player].items() if mark.mark is Mark.OPEN)


def _without(game: Game, player: str, rnd: int) -> Game:
    return replace(game, entries=tuple(e for e in game.entries if (e.round, e.player) != (rnd, player)))


def _total(game: Game, player: str) -> int:
    return next(p.total for p in score(game).players if p.name == player)


def reveal_lines(game: Game, rnd: int, words: WordGroups) -> tuple[tuple[str, str, int, str, int], ...]:
    """`best_words` as the lines of an `events.BestRevealed`: (player, best, points, own, own points)."""
    return tuple((b.player, b.word, b.points, b.written_word, b.written) for b in best_words(game, rnd, words))


def reveal_text(lines: tuple[tuple[str, str, int, str, int], ...], solo: bool) -> list[tuple[str, str, int]]:
    """What the table is told: one line for all when every player's best is the same, else one per
    player ("für Geli"); solo, the player's own points beside the best. (key, best word, points) with
    key "all", "solo:<own points>" or the player's name. It judges no word the table accepted: it only
    says what the list offers (a word worth more than that is one the list lacks)."""
    if solo:
        _, word, points, _, own = lines[0]
        return [(f"solo:{own}", word, points)]
    shared = {(word, points) for _, word, points, _, _ in lines}
    if len(shared) == 1:
        word, points = shared.pop()
        return [("all", word, points)]
    return [(player, word, points) for player, word, points, _, _ in lines]
