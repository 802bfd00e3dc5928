"""Quiddler, revealed: the best lay-down of a hand against hand-known hands and against a brute force
over a small list (every permutation of every part of the hand that spells a word)."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core.games.quiddler.best_lay import best_lay, candidates, hint, lay_points
from firmware_host.core.games.quiddler.deck import STANDARD_DECK as DECK
from firmware_host.core.games.quiddler.notation import format_cards
from firmware_host.core.games.quiddler.scoring import Lay
from firmware_host.core.games.word_groups import GroupedWords
from firmware_host.word_index import read_list

WORDS = sorted(read_list(Path(__file__).parent / "wordlists" / "en_small.txt", "en"))  # a fixed order
LIST = GroupedWords.of("tests", WORDS)


def value(cards: tuple[str, ...] | list[str]) -> int:
    return sum(DECK.value(face) for face in cards)


def test_the_list_keeps_no_proper_names() -> None:
    assert "BOSTON" not in WORDS and "QUIT" in WORDS


def test_qu_card_quit_and_quite_go_out_where_quit_leaves_the_e() -> None:
    # (QU)IT: the card QU is the two letters of QUIT: 9 + 2 + 3 = 14, every card laid.
    quit_ = best_lay(["QU", "I", "T"], LIST, DECK)
    assert (quit_.words, quit_.value, quit_.went_out) == ((("QU", "I", "T"),), 14, True)
    # (QU)ITE or (QU)IET: 9 + 2 + 3 + 2 = 16, every card laid; (QU)IT leaves E: 14 - 2 = 12.
    best = best_lay(["QU", "I", "T", "E"], LIST, DECK)
    assert [format_cards(w) for w in best.words] in (["(QU)ITE"], ["(QU)IET"]) and best.went_out
    assert best.value == 16 and lay_points(best, "Ann", (), DECK) == (16, True)


def test_qu_card_is_no_q_and_u_and_a_single_card_is_no_word() -> None:
    # Q, U, I, T: Q·U·I·T = 15 + 4 + 2 + 3 = 24. The card IN alone is no word (one card).
    assert best_lay(["Q", "U", "I", "T"], LIST, DECK).words == (("Q", "U", "I", "T"),)
    alone = best_lay(["IN", "Z"], LIST, DECK)
    assert (alone.words, alone.value, alone.went_out) == ((), -(7 + 14), False)
    # I·N is a word of two cards.
    assert best_lay(["I", "N"], LIST, DECK).words == (("I", "N"),)


def test_going_out_with_a_discard_beats_keeping_the_longer_word() -> None:
    # After drawing: I N E R T S O. INERT (17) keeps O or S unused: at best 17 - 2 = 15 with S
    # discarded. REIN + TO (14 + 5) discarding S, or REIN + SO (14 + 5) discarding T, go out: 19.
    best = best_lay(["I", "N", "E", "R", "T", "S", "O"], LIST, DECK, discard=True)
    assert (best.value, best.went_out, best.unused) == (19, True, ())
    assert ("R", "E", "I", "N") in best.words and best.discard in ("S", "T")
    inert = Lay("Ann", (("I", "N", "E", "R", "T"),), ("O",))
    ben = Lay("Ben", (("T", "H", "E", "N"),), ())
    assert lay_points(best, "Ann", (inert, ben), DECK) == (19, False)  # THEN (4) ties REIN: no bonus
    assert lay_points(best, "Ann", (Lay("Ben", (("A", "T"),), ()),), DECK) == (19, True)


def test_a_word_holding_two_of_the_hands_first_face_is_laid() -> None:
    # (QU)EEN: both E (the hand's lowest face, twice) in one word: 9 + 2 + 2 + 5 = 18, every card laid.
    best = best_lay(["E", "E", "N", "QU"], LIST, DECK)
    assert (best.words, best.value, best.went_out) == ((("QU", "E", "E", "N"),), 18, True)


def test_solitaire_hint_is_the_word_of_most_cards() -> None:
    found = hint(["Q", "U", "I", "T", "E", "Z", "X", "C"], LIST, DECK)
    assert found is not None and found.word == "QUIET"  # QUITE has the same cards: alphabetically after
    assert hint(["X", "Z", "J"], LIST, DECK) is None


def brute_words(hand: list[str]) -> set[tuple[str, ...]]:
    words = set(WORDS)
    found = set()
    for size in range(2, len(hand) + 1):
        for cards in permutations(hand, size):
            if "".join(cards) in words:
                found.add(cards)
    return found


def brute(hand: list[str], discard: bool) -> tuple[int, bool]:
    """The best (value, went out) over every set of disjoint words and every discard."""
    words = sorted(brute_words(hand))
    best = (-(10**9), False)

    def walk(left: Counter[str], start: int, laid: int) -> None:
        nonlocal best
        rest = list(left.elements())
        if discard:
            for drop in set(rest):
                unused = list(rest)
                unused.remove(drop)
                best = max(best, (laid - value(unused), not unused))
        else:
            best = max(best, (laid - value(rest), not rest))
        for i in range(start, len(words)):
            need = Counter(words[i])
            if all(left[face] >= n for face, n in need.items()):
                walk(left - need, i, laid + value(words[i]))

    walk(Counter(hand), 0, 0)
    return best


FACES = ["A", "E", "I", "O", "U", "T", "N", "S", "R", "H", "Q", "Z", "QU", "IN", "ER", "TH", "CL"]


@pytest.mark.slow  # hypothesis
@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FACES), min_size=1, max_size=6), st.booleans())
def test_no_lay_down_scores_more_than_the_best(hand: list[str], discard: bool) -> None:
    best = best_lay(hand, LIST, DECK, discard=discard)
    assert (best.value, best.went_out) == brute(hand, discard)
    laid = [face for word in best.words for face in word]
    rest = [*best.unused, *([best.discard] if best.discard else [])]
    assert Counter(laid + rest) == Counter(hand)
    assert all("".join(word) in WORDS and len(word) >= 2 for word in best.words)
    assert best.value == value(laid) - value(list(best.unused))
    assert (best.discard is not None) == discard


@pytest.mark.slow  # hypothesis
@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(FACES), min_size=1, max_size=6))
def test_candidates_are_exactly_the_words_the_hand_spells(hand: list[str]) -> None:
    found = {tuple(sorted(c.cards)) for c in candidates(hand, LIST, DECK)}
    assert found == {tuple(sorted(cards)) for cards in brute_words(hand)}
