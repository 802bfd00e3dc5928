"""Full Quiddler games with 2, 4 and 8 players, driven event by event; numbers checked by hand."""

from __future__ import annotations

from collections import Counter

import pytest

from firmware_host.core.games.quiddler.deck import STANDARD_DECK
from firmware_host.core.games.quiddler.notation import parse_cards
from firmware_host.core.games.quiddler.rules import Game, challenge, end_round, lay_down, new_game, start_round
from firmware_host.core.games.quiddler.scoring import Bonus
from tests.quiddler_games import (
    EIGHT_FINAL,
    EIGHT_GAME,
    EIGHT_PLAYERS,
    FOUR_DEALER,
    FOUR_FINAL,
    FOUR_GAME,
    FOUR_PLAYERS,
    TWO_FINAL,
    TWO_GAME,
    TWO_PLAYERS,
    Round,
)


def cards(text: str) -> tuple[str, ...]:
    return parse_cards(text, STANDARD_DECK, allow_empty=True)


def filler_hands(game: Game, spec: Round) -> dict[str, tuple[str, ...]]:
    """Unused-only hands for the players a round does not list, dealt in deck order from what is left."""
    lays, _, _ = spec
    assert game.current is not None
    hand = game.current.plan.hand_size
    left = Counter(STANDARD_DECK.cards())
    for words, unused, _ in lays.values():
        left -= Counter(face for word in words for face in cards(word))
        left -= Counter(cards(unused))
    pool = [face for spec_ in STANDARD_DECK.specs for face in [spec_.face] * left[spec_.face]]
    fillers = [p for p in game.players if p not in lays]
    return {p: tuple(pool[i * hand : (i + 1) * hand]) for i, p in enumerate(fillers)}


def play(game: Game, rounds: list[Round]) -> Game:
    for spec in rounds:
        lays, challenges, expected = spec
        game = start_round(game)
        for player, (words, unused, went_out) in lays.items():
            game = lay_down(game, player, [cards(w) for w in words], cards(unused), went_out)
        for player, hand in filler_hands(game, spec).items():
            game = lay_down(game, player, [], hand)
        for challenger, owner, word, allowed in challenges:
            game = challenge(game, challenger, owner, cards(word), allowed)
        before = game.totals
        game = end_round(game)
        scored = game.rounds[-1]
        for row in scored.rows:
            got = (row.card_score, row.challenges, row.most_words_bonus, row.longest_word_bonus, row.total)
            want = expected.get(row.player, (0, 0, 0, 0, before[row.player]))
            assert got == want, f"round {scored.number}, {row.player}"
        went_out = [p for p, (_, _, out) in lays.items() if out]
        assert scored.went_out == went_out[0]
    return game


def plans(game: Game) -> list[tuple[int, str, str]]:
    return [(r.hand_size, r.dealer, r.starter) for r in game.rounds]


def test_two_players_longest_word_bonus_only() -> None:
    game = play(new_game(TWO_PLAYERS), TWO_GAME)
    assert game.finished
    assert game.totals == TWO_FINAL
    assert game.winners == ("Bob",)
    assert plans(game) == [(3 + i, ("Ann", "Bob")[i % 2], ("Bob", "Ann")[i % 2]) for i in range(8)]


def test_two_players_most_words_bonus_when_chosen() -> None:
    # Round 1 of the two-player game with "most words" chosen: Ann 1 word, Bob 1 word -> tie, nobody;
    # the longest-word bonus Ann had (CAT) is not played. Ann 13; Bob 0 - 13 -> 0.
    game = play(new_game(TWO_PLAYERS, two_player_bonus="most"), [])
    game = start_round(game)
    game = lay_down(game, "Ann", [cards("CAT")], (), True)
    game = lay_down(game, "Bob", [cards("AT")], cards("Z"))
    game = end_round(game)
    assert game.setup.two_player_bonus is Bonus.MOST
    assert game.totals == {"Ann": 13, "Bob": 0}
    # Round 2 (4 cards): Bob two words, Ann one -> Bob +10 for most words; no longest bonus at all.
    game = start_round(game)
    game = lay_down(game, "Bob", [cards("AT"), cards("TO")], (), True)
    game = lay_down(game, "Ann", [cards("NOTE")], ())
    game = end_round(game)
    rows = {r.player: (r.most_words_bonus, r.longest_word_bonus, r.total) for r in game.rounds[-1].rows}
    assert rows == {"Ann": (0, 0, 25), "Bob": (10, 0, 20)}


def test_four_players_with_both_challenge_outcomes() -> None:
    game = play(new_game(FOUR_PLAYERS, dealer=FOUR_DEALER), FOUR_GAME)
    assert game.totals == FOUR_FINAL
    assert game.ranking() == [(1, "Dora", 165), (2, "Cem", 136), (3, "Ann", 118), (4, "Bob", 101)]
    seats = ["Dora", "Ann", "Bob", "Cem"]
    assert plans(game) == [(3 + i, seats[i % 4], seats[(i + 1) % 4]) for i in range(8)]


def test_eight_players_full_table() -> None:
    game = play(new_game(EIGHT_PLAYERS), EIGHT_GAME)
    assert game.totals == EIGHT_FINAL
    assert game.winners == ("Ann",)
    assert plans(game) == [(3 + i, EIGHT_PLAYERS[i], EIGHT_PLAYERS[(i + 1) % 8]) for i in range(8)]
    # equal totals share a place, listed in seating order; the next place is skipped
    assert [(place, p) for place, p, _ in game.ranking()] == [
        (1, "Ann"), (2, "Hal"), (3, "Bob"), (4, "Cem"), (5, "Finn"), (6, "Eva"), (6, "Gus"), (8, "Dora"),
    ]  # fmt: skip


def test_single_player_takes_both_bonuses_with_a_word() -> None:
    game = start_round(new_game(["Solo"]))
    game = lay_down(game, "Solo", [cards("CAT")], (), True)
    game = end_round(game)
    row = game.rounds[0].rows[0]
    assert (row.card_score, row.most_words_bonus, row.longest_word_bonus, row.total) == (13, 10, 10, 33)


def test_no_bonus_when_nobody_laid_a_word() -> None:
    game = start_round(new_game(["Solo"]))
    game = lay_down(game, "Solo", [], cards("QXJ"))
    game = end_round(game)
    row = game.rounds[0].rows[0]
    assert (row.most_words_bonus, row.longest_word_bonus, row.total) == (0, 0, 0)


def test_going_out_stays_after_a_lost_challenge() -> None:
    # Q5: Ann went out with CAT and it is rejected: 0 words, -13, still the one who went out.
    game = start_round(new_game(["Ann", "Bob", "Cem"]))
    game = lay_down(game, "Ann", [cards("CAT")], (), True)
    game = lay_down(game, "Bob", [cards("AT")], cards("E"))
    game = lay_down(game, "Cem", [], cards("QXJ"))
    game = challenge(game, "Bob", "Ann", cards("CAT"), False)
    game = end_round(game)
    rows = {
        r.player: (r.card_score, r.challenges, r.most_words_bonus, r.longest_word_bonus)
        for r in game.rounds[0].rows
    }
    # Bob alone has a word left: most words and longest word (AT 5 - E 2 = 3, + 20).
    assert rows == {"Ann": (0, -13, 0, 0), "Bob": (3, 0, 10, 10), "Cem": (0, 0, 0, 0)}
    assert game.rounds[0].went_out == "Ann"
    assert game.totals == {"Ann": 0, "Bob": 23, "Cem": 0}


@pytest.mark.parametrize("players", [1, 3, 8])
def test_round_plan_tells_dealer_and_hand_size(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    game = new_game(names, dealer=names[-1])
    plan = game.next_round
    assert plan is not None
    assert (plan.number, plan.hand_size, plan.dealer, plan.starter) == (1, 3, names[-1], names[0])
