"""Quiddler validation: every rule the table can break is answered with its typed, explained error."""

from __future__ import annotations

import pytest

from firmware_host.core.games.quiddler.deck import STANDARD_DECK
from firmware_host.core.games.quiddler.errors import (
    CardCountError,
    ChallengeError,
    GoingOutError,
    HandSizeError,
    SequenceError,
    SetupError,
    ShortWordError,
    UnknownCardError,
    UnknownPlayerError,
)
from firmware_host.core.games.quiddler.notation import parse_cards
from firmware_host.core.games.quiddler.rules import Game, challenge, end_round, lay_down, new_game, start_round


def c(text: str) -> tuple[str, ...]:
    return parse_cards(text, STANDARD_DECK, allow_empty=True)


@pytest.fixture
def round1() -> Game:
    return start_round(new_game(["Ann", "Bob", "Cem"]))


def test_word_of_one_card(round1: Game) -> None:
    with pytest.raises(ShortWordError, match=r"word 2 \(A\) has 1 card.*at least two cards"):
        lay_down(round1, "Ann", [c("AT"), c("A")], ())


def test_double_letter_card_alone_is_still_one_card(round1: Game) -> None:
    with pytest.raises(ShortWordError):
        lay_down(round1, "Ann", [c("(QU)")], c("AT"))


def test_laid_plus_unused_must_be_the_hand_size(round1: Game) -> None:
    with pytest.raises(HandSizeError, match=r"3 card\(s\) in words and 1 unused = 4, but round 1 deals 3"):
        lay_down(round1, "Ann", [c("CAT")], c("E"))
    with pytest.raises(HandSizeError, match="= 2"):
        lay_down(round1, "Ann", [c("AT")], ())
    # (QU)IT is three cards: exactly the hand of round 1
    assert lay_down(round1, "Ann", [c("(QU)IT")], (), True).current is not None


def test_card_not_in_the_deck(round1: Game) -> None:
    with pytest.raises(UnknownCardError, match="no card 'Ä'"):
        lay_down(round1, "Ann", [("Ä", "T")], ("E",))
    with pytest.raises(UnknownCardError, match="no card 'QI'"):
        lay_down(round1, "Ann", [("QI", "T")], ("E",))


def test_more_copies_than_the_deck_across_players(round1: Game) -> None:
    game = lay_down(round1, "Ann", [], c("ZZ(QU)"))
    with pytest.raises(CardCountError, match=r"3 cards Z across the players, but the deck has only 2"):
        lay_down(game, "Bob", [c("ZA")], c("E"))
    with pytest.raises(CardCountError, match=r"3 cards \(QU\)"):
        lay_down(game, "Bob", [c("(QU)(QU)")], c("E"))
    # the next round is a fresh deal: the same cards are fine again
    game = lay_down(lay_down(game, "Bob", [c("AT")], c("E")), "Cem", [c("TO")], c("E"))
    game = start_round(end_round(game))
    assert lay_down(game, "Ann", [], c("ZZ(QU)(QU)")).current is not None


def test_going_out_with_unused_cards(round1: Game) -> None:
    with pytest.raises(GoingOutError, match=r"Ann cannot have gone out with unused cards \(E\)"):
        lay_down(round1, "Ann", [c("AT")], c("E"), went_out=True)


def test_only_one_player_goes_out(round1: Game) -> None:
    game = lay_down(round1, "Ann", [c("CAT")], (), True)
    with pytest.raises(GoingOutError, match="Ann already went out"):
        lay_down(game, "Bob", [c("TEA")], (), True)


def test_unknown_player(round1: Game) -> None:
    with pytest.raises(UnknownPlayerError, match=r"'Zoe' is not a player of this game \(Ann, Bob, Cem\)"):
        lay_down(round1, "Zoe", [c("CAT")], ())
    game = lay_down(round1, "Ann", [c("CAT")], (), True)
    with pytest.raises(UnknownPlayerError):
        challenge(game, "Zoe", "Ann", c("CAT"), True)


def test_laying_twice(round1: Game) -> None:
    game = lay_down(round1, "Ann", [c("CAT")], (), True)
    with pytest.raises(SequenceError, match="already laid down in round 1"):
        lay_down(game, "Ann", [c("CAT")], ())


def test_round_ends_only_when_everyone_laid(round1: Game) -> None:
    game = lay_down(round1, "Ann", [c("CAT")], (), True)
    with pytest.raises(SequenceError, match="Bob, Cem has not laid down"):
        end_round(game)
    assert game.waiting_for == ("Bob", "Cem")


def test_challenges_that_cannot_be_made(round1: Game) -> None:
    with pytest.raises(ChallengeError, match="has not laid down"):
        challenge(round1, "Bob", "Ann", c("CAT"), True)
    game = lay_down(round1, "Ann", [c("CAT")], (), True)
    with pytest.raises(ChallengeError, match="own word"):
        challenge(game, "Ann", "Ann", c("CAT"), True)
    with pytest.raises(ChallengeError, match=r"laid no word ACT \(their words: CAT\)"):
        challenge(game, "Bob", "Ann", c("ACT"), True)
    game = challenge(game, "Bob", "Ann", c("CAT"), False)
    with pytest.raises(ChallengeError, match="already been challenged; its cards are locked"):
        challenge(game, "Cem", "Ann", c("CAT"), True)


def test_the_same_word_twice_can_be_challenged_twice() -> None:
    game = start_round(_round(4))
    game = lay_down(game, "Ann", [c("AT"), c("AT")], (), True)
    game = challenge(game, "Bob", "Ann", c("AT"), False)
    game = challenge(game, "Cem", "Ann", c("AT"), True)
    assert [(ch.word, ch.allowed) for ch in game.current.challenges] == [(0, False), (1, True)]  # type: ignore[union-attr]


def _round(hand: int) -> Game:
    """A game of Ann, Bob, Cem at the round that deals `hand` cards (earlier rounds: nobody scores)."""
    game = new_game(["Ann", "Bob", "Cem"])
    while game.next_round is not None and game.next_round.hand_size < hand:
        game = start_round(game)
        size = game.current.plan.hand_size  # type: ignore[union-attr]
        for player, face in (("Ann", "A"), ("Bob", "E"), ("Cem", "O")):
            game = lay_down(game, player, [], (face,) * size)
        game = end_round(game)
    return game


def test_event_order() -> None:
    game = new_game(["Ann"])
    with pytest.raises(SequenceError, match="no round is open"):
        lay_down(game, "Ann", [c("CAT")], ())
    game = start_round(game)
    with pytest.raises(SequenceError, match="round 1 is still open"):
        start_round(game)
    for size in range(3, 10):
        game = start_round(end_round(lay_down(game, "Ann", [], ("E",) * size)))
    game = end_round(lay_down(game, "Ann", [], ("E",) * 10))
    assert game.finished and game.next_round is None
    with pytest.raises(SequenceError, match="all 8 rounds are played"):
        start_round(game)
    with pytest.raises(SequenceError, match="the game is over"):
        end_round(game)


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        ([], {}, "1 to 8 players, not 0"),
        ([f"P{i}" for i in range(9)], {}, "1 to 8 players, not 9"),
        (["Ann", "Ann"], {}, "may not share a name: Ann"),
        (["Ann", " "], {}, "every player needs a name"),
        (["Ann", "Bob"], {"two_player_bonus": "both"}, "'longest' or 'most', not 'both'"),
    ],
)
def test_setup_errors(players: list[str], kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        new_game(players, **kwargs)  # type: ignore[arg-type]


def test_dealer_must_be_a_player() -> None:
    with pytest.raises(UnknownPlayerError, match="dealer 'Zoe'"):
        new_game(["Ann", "Bob"], dealer="Zoe")


def test_a_rule_error_leaves_the_game_unchanged(round1: Game) -> None:
    with pytest.raises(HandSizeError):
        lay_down(round1, "Ann", [c("CAT")], c("E"))
    assert round1.current is not None and round1.current.lays == ()
