"""Scoring one Quiddler round from what the players laid down and how the challenges went.

Rulings (RULES.md §2): Q1 card score = max(0, words − unused); challenge results and bonuses are added
afterwards and only the running total is floored at 0. Q2 a word lost on a challenge counts for nothing:
not in the words, not for most words, not for longest word; its owner subtracts its value. A word that
survives a challenge costs the challenger its value. Bonuses: +10 most words, +10 longest word in
letters (a QU card is two letters); a tie between players gives nobody the bonus; Q6 a bonus needs at
least one word. Two players: only the bonus chosen at setup (Q3). Q5 going out is kept whatever happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .deck import Deck

BONUS_POINTS = 10


class Bonus(StrEnum):
    """The two round bonuses; with two players the table plays only one of them (Q3)."""

    LONGEST = "longest"
    MOST = "most"


@dataclass(frozen=True, slots=True)
class Lay:
    """What one player put down at the end of a round: words as card sequences, the unused cards."""

    player: str
    words: tuple[tuple[str, ...], ...]
    unused: tuple[str, ...]
    went_out: bool = False


@dataclass(frozen=True, slots=True)
class Challenge:
    """`challenger` challenged word number `word` (0-based) of `owner`; `allowed` is the table's verdict."""

    challenger: str
    owner: str
    word: int
    allowed: bool


@dataclass(frozen=True, slots=True)
class ScoredWord:
    cards: tuple[str, ...]
    value: int
    letters: int
    challenger: str | None = None
    allowed: bool | None = None  # None: not challenged

    @property
    def counts(self) -> bool:
        """False only for a word lost on a challenge (Q2)."""
        return self.allowed is not False


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's line of a round: the breakdown from cards to the new running total."""

    player: str
    went_out: bool
    words: tuple[ScoredWord, ...]
    unused: tuple[str, ...]
    words_value: int
    unused_value: int
    card_score: int
    challenges: int
    most_words_bonus: int
    longest_word_bonus: int
    result: int
    total: int

    @property
    def counted_words(self) -> tuple[ScoredWord, ...]:
        return tuple(word for word in self.words if word.counts)


@dataclass(frozen=True, slots=True)
class RoundScore:
    number: int
    hand_size: int
    dealer: str
    starter: str
    rows: tuple[PlayerRound, ...]

    @property
    def went_out(self) -> str | None:
        return next((row.player for row in self.rows if row.went_out), None)


def card_values(cards: Sequence[str], deck: Deck) -> int:
    return sum(deck.value(face) for face in cards)


def letter_count(cards: Sequence[str]) -> int:
    """Letters, not cards: a double-letter card counts two."""
    return sum(len(face) for face in cards)


def bonus_winner(amounts: Mapping[str, int]) -> str | None:
    """The single player with the highest amount, if it is at least 1 and nobody ties it."""
    if not amounts:
        return None
    best = max(amounts.values())
    holders = [player for player, amount in amounts.items() if amount == best]
    return holders[0] if best >= 1 and len(holders) == 1 else None


def bonuses_in_play(players: int, two_player_bonus: Bonus) -> frozenset[Bonus]:
    """The bonuses a round of `players` players plays: both, or with two players the one chosen (Q3)."""
    return frozenset(Bonus) if players != 2 else frozenset({two_player_bonus})


def score_round(
    *,
    number: int,
    hand_size: int,
    dealer: str,
    starter: str,
    lays: Sequence[Lay],
    challenges: Sequence[Challenge],
    totals_before: Mapping[str, int],
    deck: Deck,
    two_player_bonus: Bonus,
) -> RoundScore:
    """Score a complete round. `lays` holds one entry per player in seating order (already validated)."""
    verdicts = {(c.owner, c.word): c for c in challenges}
    scored: dict[str, tuple[ScoredWord, ...]] = {}
    for lay in lays:
        words: list[ScoredWord] = []
        for index, cards in enumerate(lay.words):
            verdict = verdicts.get((lay.player, index))
            words.append(
                ScoredWord(
                    cards,
                    card_values(cards, deck),
                    letter_count(cards),
                    verdict.challenger if verdict else None,
                    verdict.allowed if verdict else None,
                )
            )
        scored[lay.player] = tuple(words)

    penalty = {lay.player: 0 for lay in lays}
    for c in challenges:
        value = scored[c.owner][c.word].value
        penalty[c.challenger if c.allowed else c.owner] -= value

    most_words = {p: sum(1 for w in words if w.counts) for p, words in scored.items()}
    longest = {p: max((w.letters for w in words if w.counts), default=0) for p, words in scored.items()}
    bonuses = bonuses_in_play(len(lays), two_player_bonus)
    most_winner = bonus_winner(most_words) if Bonus.MOST in bonuses else None
    longest_winner = bonus_winner(longest) if Bonus.LONGEST in bonuses else None

    rows = []
    for lay in lays:
        laid = scored[lay.player]
        words_value = sum(w.value for w in laid if w.counts)
        unused_value = card_values(lay.unused, deck)
        card_score = max(0, words_value - unused_value)
        most_bonus = BONUS_POINTS if most_winner == lay.player else 0
        longest_bonus = BONUS_POINTS if longest_winner == lay.player else 0
        result = card_score + penalty[lay.player] + most_bonus + longest_bonus
        total = max(0, totals_before.get(lay.player, 0) + result)
        rows.append(
            PlayerRound(
                lay.player,
                lay.went_out,
                laid,
                lay.unused,
                words_value,
                unused_value,
                card_score,
                penalty[lay.player],
                most_bonus,
                longest_bonus,
                result,
                total,
            )
        )
    return RoundScore(number, hand_size, dealer, starter, tuple(rows))
