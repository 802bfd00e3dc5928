"""Quiddler, revealed: the best lay-down a hand allowed, from a word list (and the solitaire hint).

A hand is card faces as printed (`QU`, `TH`, `ER`, `IN`, `CL` are one card of two letters). A word of the
list can be laid when its letters can be cut into cards of the hand, at least two cards (ruling Q4: QUIT
may be QU·I·T or Q·U·I·T, which are different lays). The best lay-down of a hand is the one with the most
**round points** as the rules count them (RULES.md §2): the card result — the laid words' values minus
the unused cards' — floored at 0 (Q1), plus the +10 bonuses it takes against what the other players laid
that round (`Rivals`: most words, longest word in letters; a tie takes nothing; with two players only the
table's bonus; alone, any word takes both, Q6). Of equal points the one of the higher card result, then
the one that goes out, then the one with the longest word. With `discard` the hand is the one after
drawing (hand size + 1): exactly one card is discarded and counts neither way; going out means every
other card is in a word. The points shown come from `scoring.score_round` itself (`lay_points`).

Search: the candidate words are found per (first letter, length) group of the list with one regular
expression of the hand's letters, then cut into cards; the lay-down is a memoised search over the
remaining hand (a multiset, at most 2**cards states) that always places the hand's first remaining card:
unused, discarded, or in a word holding it. The bonuses are not additive, so the search is run under
each set of bonuses the unrestricted best does not take, as a constraint (at least so many words, a word
longer than the others' longest), and the lay of the most round points among those answers is the best.
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
from .scoring import BONUS_POINTS, Bonus, Lay, bonuses_in_play, letter_count, score_round
from .text import t

MIN_CARDS = 2


@dataclass(frozen=True, slots=True)
class Candidate:
    """A word of the list that the hand can lay: its cards in word order and their value."""

    word: str
    cards: tuple[str, ...]
    value: int


@dataclass(frozen=True, slots=True)
class Rivals:
    """What a lay-down's bonuses are measured against: the bonuses the round plays and the most words
    and the longest word (in letters) among the other players' counted words. `Rivals()`: no bonus."""

    bonuses: frozenset[Bonus] = frozenset()
    most_words: int = 0
    longest: int = 0

    @classmethod
    def of(cls, player: str, lays: Sequence[Lay], two_player_bonus: Bonus = Bonus.LONGEST) -> Rivals:
        """Against the lays of the round's other players (`lays`: every player's, or only the others')."""
        others = [lay for lay in lays if lay.player != player]
        return cls(
            bonuses_in_play(len(others) + 1, two_player_bonus),
            max((len(lay.words) for lay in others), default=0),
            max((letter_count(word) for lay in others for word in lay.words), default=0),
        )

    def won(self, words: Sequence[Sequence[str]]) -> tuple[Bonus, ...]:
        """The bonuses a lay-down of `words` takes (in `Bonus` order): more than every other, at least one."""
        longest = max((letter_count(word) for word in words), default=0)
        amounts = {Bonus.LONGEST: (longest, self.longest), Bonus.MOST: (len(words), self.most_words)}
        return tuple(b for b in Bonus if b in self.bonuses and amounts[b][0] >= 1 and amounts[b][0] > amounts[b][1])


@dataclass(frozen=True, slots=True)
class BestLay:
    """The best lay-down: words as cards, the unused cards, the discard (None without), its card result
    `value` (words minus unused, not floored), whether it goes out and the bonuses it takes."""

    words: tuple[tuple[str, ...], ...]
    unused: tuple[str, ...]
    discard: str | None
    value: int
    went_out: bool
    bonuses: tuple[Bonus, ...] = ()

    @property
    def points(self) -> int:
        """The round points: the card result floored at 0 (Q1) plus the bonuses."""
        return max(0, self.value) + BONUS_POINTS * len(self.bonuses)

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
    most_of = Counter(ch for face in hand for ch in face)  # a letter at most this often in a word
    doubles = [face for face in counts if len(face) > 1]
    singles = {face for face in counts if len(face) == 1}
    value = {face: deck.value(face) for face in counts}
    pattern = re.compile(f"^[{re.escape(letters)}]+$", re.MULTILINE)
    most = sum(len(face) for face in hand)
    firsts = sorted({face[0] for face in counts})
    found: list[Candidate] = []
    for first in firsts:
        for length in range(MIN_CARDS, most + 1):
            text = words.group(first, length)
            for word in pattern.findall(text) if text else ():
                repeats = len(set(word)) < len(word)
                if repeats and any(word.count(ch) > most_of[ch] for ch in set(word)):
                    continue
                if not any(face in word for face in doubles):  # single-letter cards only: one cut at most
                    if singles.issuperset(word) and (not repeats or all(word.count(ch) <= counts[ch] for ch in word)):
                        found.append(Candidate(word, tuple(word), sum(value[ch] for ch in word)))
                    continue
                seen: set[tuple[str, ...]] = set()
                for cards in _cuts(word, counts):
                    key = tuple(sorted(cards))
                    if len(cards) >= MIN_CARDS and key not in seen:
                        seen.add(key)
                        found.append(Candidate(word, cards, sum(value[face] for face in cards)))
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
IMPOSSIBLE = -(10**9)  # the card result of a search branch that meets no constraint
_Key = tuple[int, bool, int]  # card result, goes out, longest word
_Choice = tuple[str, tuple[str, ...], int]  # what, its cards, the memo key after it
# What a search branch still needs, as the low bits of its memo key (above them: the hand's state):
PENDING, LONG, MORE, WANT_BITS = 1, 2, 4, 8  # a discard; a word longer than the rivals'; per word wanted (< 64)


def best_lay(
    hand: Sequence[str], words: WordGroups, deck: Deck, *, discard: bool = False, rivals: Rivals = Rivals()
) -> BestLay:
    """The best lay-down of `hand` against `rivals` (see the module's doc). With `discard` the hand must
    hold a card.

    A multiset of the hand's faces is an integer, FIELD bits per face (count below a guard bit), so
    that "fits into the rest of the hand" and "take it out" are one subtraction each; what a branch still
    needs is the low WANT_BITS bits of its memo key."""
    counts = Counter(hand)
    faces = sorted(counts)
    if discard and not faces:
        raise ValueError("a hand to discard from needs at least one card")
    shift = {face: FIELD * i + WANT_BITS for i, face in enumerate(faces)}
    guards = sum(1 << (FIELD * i + FIELD - 1 + WANT_BITS) for i in range(len(faces)))
    by_first: dict[int, list[tuple[int, int, int, int, tuple[str, ...]]]] = {}
    for cand in candidates(hand, words, deck):
        need = sum(1 << shift[face] for face in cand.cards)
        first = min(shift[face] for face in cand.cards)  # the field of its lowest face, whatever its count
        by_first.setdefault(first, []).append((need, cand.value, letter_count(cand.cards), len(cand.cards), cand.cards))
    values = {shift[face]: deck.value(face) for face in faces}
    longer = rivals.longest + 1  # the letters a word needs for the longest-word bonus
    wants = (1 << WANT_BITS) - 1
    memo: dict[int, tuple[_Key, _Choice | None]] = {}

    def solve(key: int, cards: int) -> _Key:
        """The best of memo key `key` (the hand's state holding `cards` cards, and what it needs)."""
        known = memo.get(key)
        if known is not None:
            return known[0]
        want = key & wants
        pending = want & PENDING
        if key == want or 2 * (want // MORE) > cards - pending:  # no card left, or too few for the words
            result: tuple[_Key, _Choice | None] = ((0 if not want else IMPOSSIBLE, True, 0), None)
            memo[key] = result
            return result[0]
        low = ((key >> WANT_BITS) & -(key >> WANT_BITS)).bit_length() - 1 + WANT_BITS
        at = low - (low - WANT_BITS) % FIELD
        face = faces[(at - WANT_BITS) // FIELD]
        rest = key - (1 << at)
        v, _, longest = solve(rest, cards - 1)
        best: tuple[_Key, _Choice | None] = ((v - values[at], False, longest), ("unused", (face,), rest))
        if pending:
            got = solve(rest - PENDING, cards - 1)
            if got > best[0]:
                best = (got, ("discard", (face,), rest - PENDING))
        fits = key | guards
        fewer = MORE if want >= MORE else 0
        for need, value, letters, size, laid in by_first.get(at, ()):
            if (fits - need) & guards == guards:
                left = key - need - fewer - (LONG if want & LONG and letters >= longer else 0)
                v, out, longest = solve(left, cards - size)
                got = (v + value, out, longest if longest > letters else letters)
                if got > best[0]:
                    best = (got, ("word", laid, left))
        memo[key] = best
        return best[0]

    def lay_down(want: int) -> BestLay | None:
        """The best lay-down meeting `want` (None: none does), its bonuses as they fall."""
        key = start | want
        value, went_out, _ = solve(key, len(hand))
        if value <= IMPOSSIBLE // 2:
            return None
        laid: list[tuple[str, ...]] = []
        unused: list[str] = []
        dropped: str | None = None
        while (choice := memo[key][1]) is not None:
            what, cards, key = choice
            if what == "word":
                laid.append(cards)
            elif what == "unused":
                unused.append(cards[0])
            else:
                dropped = cards[0]
        return BestLay(tuple(laid), tuple(unused), dropped, value, went_out, rivals.won(laid))

    start = sum(count << shift[face] for face, count in counts.items())
    pending = PENDING if discard else 0
    free = lay_down(pending)
    assert free is not None  # every card unused (one discarded) always meets no constraint
    found = [free]
    can_be_longest = any(letters >= longer for group in by_first.values() for _, _, letters, _, _ in group)
    for wanted in _subsets(rivals.bonuses if can_be_longest else rivals.bonuses - {Bonus.LONGEST}):
        # The unrestricted best has the highest card result: a lay-down restricted to take `wanted` can
        # only score more with more bonuses than it takes.
        if max(0, free.value) + BONUS_POINTS * len(wanted) > free.points:
            more = MORE * (rivals.most_words + 1) if Bonus.MOST in wanted else 0
            if (bound := lay_down(pending | more | (LONG if Bonus.LONGEST in wanted else 0))) is not None:
                found.append(bound)
    return max(found, key=lambda lay: (lay.points, lay.value, lay.went_out, lay.longest))


def _subsets(bonuses: frozenset[Bonus]) -> list[frozenset[Bonus]]:
    """The non-empty subsets of `bonuses`."""
    items = sorted(bonuses)
    return [frozenset(b for i, b in enumerate(items) if mask >> i & 1) for mask in range(1, 1 << len(items))]


def lay_points(
    best: BestLay,
    player: str,
    others: Sequence[Lay],
    deck: Deck,
    two_player_bonus: Bonus = Bonus.LONGEST,
) -> tuple[int, tuple[Bonus, ...]]:
    """The lay-down's round points (card score and bonuses) and the bonuses it would have taken, by
    `scoring.score_round` with the other players' counted words of the round as they were."""
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
    won = tuple(b for b, amount in ((Bonus.LONGEST, row.longest_word_bonus), (Bonus.MOST, row.most_words_bonus))
                if amount)
    return row.card_score + row.most_words_bonus + row.longest_word_bonus, won


def hint(visible: Sequence[str], words: WordGroups, deck: Deck) -> Candidate | None:
    """Solitaire: the word of the most cards the visible cards can make (of equal ones the most
    valuable, then the alphabetically first); None when there is none."""
    found = candidates(visible, words, deck)
    return max(found, key=lambda c: (len(c.cards), c.value, [-ord(ch) for ch in c.word]), default=None)


MARKS = {Bonus.LONGEST: " +L", Bonus.MOST: " +M"}  # after a revealed lay-down: the bonuses it would take


def marked(words: str, bonuses: Sequence[Bonus]) -> str:
    """A revealed lay-down's text: its words in card notation, then the mark of each bonus it takes."""
    return words + "".join(MARKS[b] for b in Bonus if b in bonuses)


def split_marks(text: str) -> tuple[str, tuple[Bonus, ...]]:
    """`marked`'s words and bonuses back (a journaled answer of any version: older ones mark only +L)."""
    won: list[Bonus] = []
    for bonus in reversed(Bonus):
        if text.endswith(MARKS[bonus]):
            text = text.removesuffix(MARKS[bonus])
            won.insert(0, bonus)
    return text, tuple(won)


def best_label(lang: str, player: str, text: str) -> str:
    """A revealed line as the round's table shows it: "Ann möglich: OA(TH) (+10 längstes Wort)"."""
    words, won = split_marks(text)
    label = t(lang, "best_lay", player=player, words=words or t(lang, "best_nothing"))
    why = ", ".join(t(lang, f"why_{bonus.value}", points=BONUS_POINTS) for bonus in won)
    return label + (t(lang, "best_why", why=why) if why else "")


def reveal_round(game: Game, number: int, words: WordGroups) -> tuple[tuple[str, str, int, str, int], ...]:
    """The best lay-down of every player's hand in the scored round `number` (their words and unused
    cards: the hand after the last discard) against the other players' counted words, as the lines of
    an `events.BestRevealed`: (player, best words in card notation `marked` with the bonuses they would
    take, their round points, the words laid, their round points — card score and bonuses)."""
    scored = game.rounds[number - 1]
    deck, bonus = game.setup.deck, game.setup.two_player_bonus
    counted = [
        Lay(row.player, tuple(w.cards for w in row.counted_words), row.unused, row.went_out) for row in scored.rows
    ]
    lines = []
    for row in scored.rows:
        hand = [face for word in row.words for face in word.cards] + list(row.unused)
        best = best_lay(hand, words, deck, rivals=Rivals.of(row.player, counted, bonus))
        points, won = lay_points(best, row.player, counted, deck, bonus)
        text = marked(" ".join(format_cards(word) for word in best.words), won)
        own = " ".join(format_cards(word.cards) for word in row.words)
        lines.append((row.player, text, points, own, row.card_score + row.most_words_bonus + row.longest_word_bonus))
    return tuple(lines)
