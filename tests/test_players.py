"""The players' checks every turn game shares (core/games/players.py): each refusal is its game's error with
the code its texts explain, and names are the same by the game's own sameness."""

from __future__ import annotations

import pytest

from firmware_host.core.games.players import check_players, folded, on_turn, player_index
from firmware_host.core.games.rule_error import RuleError


class GameError(RuleError):
    """A game's own error."""


class NotYours(GameError):
    """Its error for a play out of turn."""


@pytest.mark.parametrize(("players", "code"), [
    (("Anna",), "players_count"),
    (("Anna", "Ben", "Cem", "Dana"), "players_count"),
    (("Anna", " "), "player_blank"),
    (("Anna", " anna "), "player_twice"),
])
def test_a_setup_the_game_cannot_seat_is_refused_with_its_code(players, code):
    with pytest.raises(GameError) as refused:
        check_players(players, GameError, least=2, most=3)
    assert refused.value.code == code


def test_without_an_upper_bound_any_number_of_named_players_sits():
    check_players(tuple(f"P{n}" for n in range(20)), GameError, least=2)


def test_names_are_the_same_by_the_games_key():
    check_players(("Anna", "ANNA"), GameError, least=2, key=str)  # a key that keeps case: two players
    assert player_index(("Anna", "Ben"), "  ben ", GameError) == 1
    assert folded("  Jan   Ole ") == "jan ole"
    with pytest.raises(GameError) as refused:
        player_index(("Anna", "Ben"), "Cem", GameError)
    assert refused.value.code == "unknown_player" and refused.value.fields["players"] == "Anna, Ben"


def test_a_play_out_of_turn_names_whose_turn_it_is():
    assert on_turn(("Anna", "Ben"), 1, "ben", GameError, NotYours) == 1
    with pytest.raises(NotYours) as refused:
        on_turn(("Anna", "Ben"), 1, "anna", GameError, NotYours)
    assert refused.value.fields == {"current": "Ben", "player": "Anna"}
    with pytest.raises(GameError) as plain:
        on_turn(("Anna", "Ben"), 0, "Ben", GameError)
    assert type(plain.value) is GameError
