"""Quiddler, revealed: the best lay-down a hand allowed, from a word list (and the solitaire hint).

A hand is card faces as printed (`QU`, `TH`, `ER`, `IN`, `CL` are one card of two letters). A word of the
list can be laid when its letters can be cut into cards of the hand, at least two cards (ruling Q4: QUIT
may be QU·I·T or Q·U·I·T, which are different lays). The best lay-down of a hand maximises the round's
card result — the laid words' values minus the unused cards' (RULES.md §2, Q1) — and of equal ones the
one that goes out, then the one with the longest word (in letters). With `discard` the hand is the one
after drawing (hand size + 1): exactly one card is discarded and counts neither way; going out means every
other card is in a word. The points shown come from `scoring.score_round` itself (`lay_points`).

Search: the candidate words are found per (first letter, length) group of the list with one regular
expression of the hand's letters, then cut into cards; the lay-down is a memoised search over the
remaining hand (a multiset, at most 2**cards states) that always places the hand's first remaining card:
unused, discarded, or in a word holding it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from firmware_host.core.games.word_groups import WordGroups

from .deck import Deck
from .notation import format_cards
from .rules import Game
from .scoring import Bonus, Lay, letter_count, score_round

MIN_CARDS = 2


@dataclass(frozen=True, slots=True)
class Candidate:
    """A word of the list that the hand can lay: its cards in word order and their value."""

    word: str
    cards: tuple[str, ...]
    value: int


@dataclass(frozen=True, slots=True)
class BestLay:
    """The best lay-down: words as cards, the unused cards, the discard (None without), its card result
    `value` (words minus unused, not floored) and whether it goes out."""

    words: tuple[tuple[str, ...], ...]
    unused: tuple[str, ...]
    discard: str | None
    value: int
    went_out: bool

    @property
    def longest(self) -> int:
        """The longest word in letters (0: no word)."""
        return max((letter_count(word) for word in self.words), default=0)

    def lay(self, player: str) -> Lay:
        return Lay(player, self.words, self.unused, self.went_out)


def candidates(hand: Sequence[str], words: WordGroups, deck: Deck) -> list[Candidate]:
    """Every way the hand can lay a word of the list (one per distinct multiset of cards)."""
    counts = Counter(hand)
    letters = "".join(sorted({ch for face in counts for ch in face}))
    if not letters:
        return []
    pattern = re.compile(f"^[{re.escape(letters)}]+$", re.MULTILINE)
    most = sum(len(face) for face in hand)
    firsts = sorted({face[0] for face in counts})
    found: list[Candidate] = []
    for first in firsts:
        for length in range(MIN_CARDS, most + 1):
            text = words.group(first, length)
            for word in pattern.findall(text) if text else ():
                seen: set[tuple[str, ...]] = set()
                for cards in _cuts(word, counts):
                    key = tuple(sorted(cards))
                    if len(cards) >= MIN_CARDS and key not in seen:
                        seen.add(key)
                        found.append(Candidate(word, cards, sum(deck.value(face) for face in cards)))
    return found


def _cuts(word: str, counts: Mapping[str, int]) -> list[tuple[str, ...]]:
    """The ways to cut `word` into cards of a hand with `counts` of each face."""
    out: list[tuple[str, ...]] = []
    left = dict(counts)
    cards: list[str] = []
    end = len(word)

    def walk(at: int) -> None:
        if at == end:
            out.append(tuple(cards))
            return
        for face in (word[at], word[at : at + 2]):
            if left.get(face, 0) and (len(face) == 1 or at + 1 < end):
                left[face] -= 1
                cards.append(face)
                walk(at + len(face))
                cards.pop()
                left[face] += 1

    walk(0)
    return out


FIELD = 5  # bits per face in a hand as an integer: a count (0–15) below a guard bit
_Key = tuple[int, bool, int]
_Choice = tuple[str, tuple[str, ...], int, bool]  # what, its cards, the state after it, discard pending


def best_lay(hand: Sequence[str], words: WordGroups, deck: Deck, *, discard: bool = False) -> BestLay:
    """The best lay-down of `hand` (see the module's doc). With `discard` the hand must hold a card.

    A multiset of the hand's faces is an integer, FIELD bits per face (count below a guard bit), so
    that "fits into the rest of the hand" and "take it out" are one subtraction each."""
    counts = Counter(hand)
    faces = sorted(counts)
    if discard and not faces:
        raise ValueError("a hand to discard from needs at least one card")
    shift = {face: FIELD * i for i, face in enumerate(faces)}
    guards = sum(1 << (FIELD * i + FIELD - 1) for i in range(len(faces)))
    by_first: dict[int, list[tuple[int, int, int, tuple[str, ...]]]] = {}
    for cand in candidates(hand, words, deck):
        need = sum(1 << shift[face] for face in cand.cards)
        first = min(shift[face] for face in cand.cards)  # the field of its lowest face, whatever its count
        by_first.setdefault(first, []).append((need, cand.value, letter_count(cand.cards), cand.cards))
    values = {shift[face]: deck.value(face) for face in faces}
    memo: dict[tuple[int, bool], tuple[_Key, _Choice | None]] = {}
    impossible: _Key = (-(10**9), False, 0)

    def solve(state: int, pending: bool) -> _Key:
        known = memo.get((state, pending))
        if known is not None:
            return known[0]
        if not state:
            result: tuple[_Key, _Choice | None] = ((0, True, 0), None) if not pending else (impossible, None)
            memo[(state, pending)] = result
            return result[0]
        low = (state & -state).bit_length() - 1
        at = low - low % FIELD
        face = faces[at // FIELD]
        rest = state - (1 << at)
        v, _, longest = solve(rest, pending)
        best: tuple[_Key, _Choice | None] = ((v - values[at], False, longest), ("unused", (face,), rest, pending))
        if pending:
            key = solve(rest, False)
            if key > best[0]:
                best = (key, ("discard", (face,), rest, False))
        fits = state | guards
        for need, value, letters, cards in by_first.get(at, ()):
            if (fits - need) & guards == guards:
                left = state - need
                v, out, longest = solve(left, pending)
                key = (v + value, out, max(longest, letters))
                if key > best[0]:
                    best = (key, ("word", cards, left, pending))
        memo[(state, pending)] = best
        return best[0]

    start = sum(count << shift[face] for face, count in counts.items())
    value, went_out, _ = solve(start, discard)
    laid: list[tuple[str, ...]] = []
    unused: list[str] = []
    dropped: str | None = None
    state, pending = start, discard
    while (choice := memo[(state, pending)][1]) is not None:
        what, cards, state, pending = choice
        if what == "word":
            laid.append(cards)
        elif what == "unused":
            unused.append(cards[0])
        else:
            dropped = cards[0]
    return BestLay(tuple(laid), tuple(unused), dropped, value, went_out)


def lay_points(
    best: BestLay,
    player: str,
    others: Sequence[Lay],
    deck: Deck,
    two_player_bonus: Bonus = Bonus.LONGEST,
) -> tuple[int, bool]:
    """The lay-down's card score and whether it would have taken the longest-word bonus, by
    `scoring.score_round` with the other players' lays of the round as they were."""
    lays = [best.lay(player), *(lay for lay in others if lay.player != player)]
    scored = score_round(
        number=1,
        hand_size=0,
        dealer=player,
        starter=player,
        lays=lays,
        challenges=(),
        totals_before={},
        deck=deck,
        two_player_bonus=two_player_bonus,
    )
    row = scored.rows[0]
    return row.card_score, row.longest_word_bonus > 0


def hint(visible: Sequence[str], words: WordGroups, deck: Deck) -> Candidate | None:
    """Solitaire: the word of the most cards the visible cards can make (of equal ones the most
    valuable, then the alphabetically first); None when there is none."""
    found = candidates(visible, words, deck)
    return max(found, key=lambda c: (len(c.cards), c.value, [-ord(ch) for ch in c.word]), default=None)


LONGEST_MARK = " +L"  # a revealed lay-down that would have taken the longest-word bonus


def reveal_round(game: Game, number: int, words: WordGroups) -> tuple[tuple[str, str, int, str, int], ...]:
    """The best lay-down of every player's hand in the scored round `number` (their words and unused
    cards: the hand after the last discard), as the lines of an `events.BestRevealed`: (player, best
    words in card notation — with `LONGEST_MARK` when it would have taken the longest-word bonus against
    what the others laid —, its card score, the words laid, their card score)."""
    scored = game.rounds[number - 1]
    deck = game.setup.deck
    lays = [
        Lay(row.player, tuple(w.cards for w in row.words), row.unused, row.went_out) for row in scored.rows
    ]
    lines = []
    for lay, row in zip(lays, scored.rows, strict=True):
        hand = [face for word in lay.words for face in word] + list(lay.unused)
        best = best_lay(hand, words, deck)
        points, longest = lay_points(best, lay.player, lays, deck, game.setup.two_player_bonus)
        text = " ".join(format_cards(word) for word in best.words) + (LONGEST_MARK if longest else "")
        own = " ".join(format_cards(word) for word in lay.words)
        lines.append((lay.player, text, points, own, row.card_score))
    return tuple(lines)
