"""The button deck and the Das perfekte Wort round call."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core.deck import Deck, DeckRefusal, Pile, RefusalReason, TablePiles
from firmware_host.core.games.perfektes_wort.data import LetterCard
from firmware_host.core.games.perfektes_wort.round_call import RoundCall, perfektes_wort_call, round_call

FACES = [LetterCard(letter, 5 + i % 5) for i, letter in enumerate("BDFGHKLMNPRSTW")]


def turned(deck: Deck[LetterCard], times: int) -> Deck[LetterCard]:
    for _ in range(times):
        result = deck.next()
        assert isinstance(result, Deck)
        deck = result
    return deck


@pytest.mark.slow
@settings(deadline=None)  # no timing assertions: a loaded CI machine must not fail these
@given(st.integers())
def test_same_seed_same_order(seed: int) -> None:
    assert Deck.shuffled(FACES, seed) == Deck.shuffled(list(FACES), seed)


def test_shuffle_is_a_permutation_and_seeds_differ() -> None:
    orders = {Deck.shuffled(FACES, seed).draw for seed in range(20)}
    assert len(orders) > 1
    for order in orders:
        assert sorted(order, key=str) == sorted(FACES, key=str)


def test_next_moves_the_top_card_and_counts() -> None:
    deck = Deck(seed=0, draw=tuple(FACES[:3]))
    assert deck.draw_top == FACES[0] and deck.discard_top is None
    deck = turned(deck, 2)
    assert deck.draw_top == FACES[2] and deck.discard_top == FACES[1]
    assert (deck.left, deck.turned) == (1, 2)
    deck = turned(deck, 1)
    assert deck.next() == DeckRefusal(RefusalReason.EMPTY)
    assert deck.left == 0 and deck.draw_top is None


def test_undo_puts_the_card_back() -> None:
    start = Deck.shuffled(FACES, 7)
    assert start.undo() == DeckRefusal(RefusalReason.NOTHING_TO_UNDO)
    later = turned(start, 3)
    back = later.undo()
    assert back == turned(start, 2)
    assert isinstance(back, Deck) and back.draw_top == later.discard_top


@pytest.mark.slow
@settings(deadline=None)
@given(st.integers(), st.lists(st.booleans(), max_size=40))
def test_cards_are_never_lost(seed: int, moves: list[bool]) -> None:
    deck = Deck.shuffled(FACES, seed)
    for forward in moves:
        result = deck.next() if forward else deck.undo()
        if isinstance(result, Deck):
            deck = result
        assert deck.left + deck.turned == len(FACES)
        assert sorted((*deck.discard, *deck.draw), key=str) == sorted(FACES, key=str)


def test_refusal_text_in_both_languages() -> None:
    refusal = DeckRefusal(RefusalReason.EMPTY)
    assert refusal.text("de") == "Der Nachziehstapel ist leer."
    assert refusal.text("en") == "The draw pile is empty."


def test_perfektes_wort_call_follows_the_rulebook() -> None:
    # Cards in pile order: the rulebook's round r uses the letter of card r+1 and the number of card r.
    cards = (LetterCard("F", 8), LetterCard("B", 6), LetterCard("T", 9), LetterCard("K", 5))
    deck = Deck(seed=1, draw=cards)
    assert perfektes_wort_call(deck) == DeckRefusal(RefusalReason.NO_ROUND)
    assert perfektes_wort_call(turned(deck, 1)) == RoundCall(round=1, letter="B", max_length=8)
    assert perfektes_wort_call(turned(deck, 2)) == RoundCall(round=2, letter="T", max_length=6)
    assert perfektes_wort_call(turned(deck, 3)) == RoundCall(round=3, letter="K", max_length=9)
    assert perfektes_wort_call(turned(deck, 4)) == DeckRefusal(RefusalReason.LAST_CARD)


def test_nine_rounds_from_24_cards() -> None:
    deck = Deck.shuffled([LetterCard(chr(65 + i), 5 + i % 5) for i in range(24)], seed=2026)
    calls = [perfektes_wort_call(turned(deck, r)) for r in range(1, 10)]
    for r, call in enumerate(calls, start=1):
        assert call == RoundCall(r, deck.draw[r].letter, deck.draw[r - 1].length)


def test_round_call_from_two_readers() -> None:
    # With physical cards: the draw reader sees card r+1's letter side, the discard reader card r's number.
    assert round_call(LetterCard("S", 9), LetterCard("M", 5), 4) == RoundCall(4, "S", 5)


def test_table_piles_from_two_readers() -> None:
    piles: TablePiles[LetterCard] = TablePiles()
    b7, k5, s9 = LetterCard("B", 7), LetterCard("K", 5), LetterCard("S", 9)
    piles = piles.show(Pile.DRAW, b7)
    piles = piles.show(Pile.DISCARD, b7).show(Pile.DRAW, k5)
    assert (piles.draw_top, piles.discard_top, piles.turned) == (k5, b7, 1)
    piles = piles.show(Pile.DISCARD, b7)  # the fixed scanner reads the same top again
    assert piles.turned == 1
    piles = piles.show(Pile.DISCARD, k5).show(Pile.DRAW, s9)
    assert piles.turned == 2
    assert piles.draw_top is not None and piles.discard_top is not None
    assert round_call(piles.draw_top, piles.discard_top, piles.turned) == RoundCall(2, "S", 5)


def test_table_piles_with_one_tap_reader_and_a_button() -> None:
    piles: TablePiles[str] = TablePiles()
    assert piles.chosen is Pile.DRAW
    piles = piles.show(piles.chosen, "B/7").toggle()
    assert piles.chosen is Pile.DISCARD
    piles = piles.show(piles.chosen, "K/5").toggle()
    assert (piles.draw_top, piles.discard_top, piles.chosen) == ("B/7", "K/5", Pile.DRAW)
