"""Quiddler solitaire: seeded layout, taking words, turning up, refilling, winning."""

from __future__ import annotations

from collections import Counter

import pytest

from firmware_host.core.games.quiddler.deck import STANDARD_DECK
from firmware_host.core.games.quiddler.errors import ShortWordError, SolitaireError
from firmware_host.core.games.quiddler.solitaire import Solitaire, new_solitaire, take_word


def test_layout_from_a_seed_is_eight_piles_of_six() -> None:
    game = new_solitaire(42)
    assert [len(pile) for pile in game.piles] == [6] * 8
    assert game.cards_left == 48 and not game.won
    assert game.visible == tuple(pile[-1] for pile in game.piles)
    dealt = Counter(card for pile in game.piles for card in pile)
    assert not dealt - Counter(STANDARD_DECK.cards())  # only cards the deck has, never too many copies
    assert new_solitaire(42) == game
    assert new_solitaire(43) != game


def test_taking_a_word_turns_up_the_next_card_of_each_pile() -> None:
    game = new_solitaire(7)
    after = take_word(game, [3, 0])
    assert after.words == ((game.piles[3][-1], game.piles[0][-1]),)
    assert after.piles[3] == game.piles[3][:-1] and after.piles[0] == game.piles[0][:-1]
    assert after.visible[3] == game.piles[3][-2]
    assert after.piles[1:3] == game.piles[1:3]


def test_an_empty_pile_is_refilled_from_the_fullest_pile() -> None:
    game = Solitaire((("X", "Y", "C"), ("A",), ("T",), ("O",), ("N",), ("E",), ("S",), ("I",)))
    after = take_word(game, [0, 1, 2])
    assert after.words == (("C", "A", "T"),)
    # pile 0 turns up Y; pile 1 (first empty) gets pile 0's face-down X; nothing is face down any more
    assert after.piles == (("Y",), ("X",), (), ("O",), ("N",), ("E",), ("S",), ("I",))
    assert after.visible == ("Y", "X", None, "O", "N", "E", "S", "I")


def test_refill_takes_the_lowest_numbered_of_equally_full_piles() -> None:
    game = Solitaire((("A", "B"), ("C", "D"), ("E",), ("F",), ("G",), ("H",), ("I",), ("J",)))
    after = take_word(game, [2, 3])
    # pile 2 gets A from pile 0 (tie with pile 1: lower number), then pile 3 gets C from pile 1
    assert after.piles == (("B",), ("D",), ("A",), ("C",), ("G",), ("H",), ("I",), ("J",))
    assert sum(card is not None for card in after.visible) == 8


def test_playing_every_card_wins() -> None:
    game = new_solitaire("table-7")
    dealt = Counter(card for pile in game.piles for card in pile)
    while not game.won:
        shown = [p for p, card in enumerate(game.visible) if card is not None]
        assert len(shown) == min(8, game.cards_left)  # refilled: 8 visible while cards are face down
        game = take_word(game, shown[:2])
    assert Counter(card for word in game.words for card in word) == dealt
    assert sum(len(word) for word in game.words) == 48


@pytest.mark.parametrize(
    ("piles", "error", "message"),
    [
        ([0], ShortWordError, "at least two cards"),
        ([0, 8], SolitaireError, "no pile 8"),
        ([0, 0], SolitaireError, "pile 0 is used twice"),
        ([2, 1], SolitaireError, "pile 2 is empty"),
    ],
)
def test_moves_that_cannot_be_made(piles: list[int], error: type[Exception], message: str) -> None:
    game = Solitaire((("A",), ("B",), (), (), (), (), (), ()))
    with pytest.raises(error, match=message):
        take_word(game, piles)
