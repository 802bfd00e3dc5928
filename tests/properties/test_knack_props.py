"""Knack das Wort: scoring invariants over random games."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.games.knack_das_wort.rules import (
    TARGET,
    CardsLeft,
    Draw,
    GoOut,
    PlayAction,
    ReportEnd,
    Setup,
    WriteWord,
    apply,
    new_game,
    score,
)

pytestmark = pytest.mark.slow  # hypothesis

# one turn: (letters written or 0 for a draw, plays a Stop, reports going out afterwards)
TURNS = st.lists(st.tuples(st.integers(0, 14), st.booleans(), st.booleans()), max_size=60)


@given(st.integers(2, 5), TURNS, st.sampled_from(["discard", "grid"]), st.data())
def test_points_are_letters_plus_bonus_minus_cards_left(
    count: int, turns: list[tuple[int, bool, bool]], reason: str, data: st.DataObject
) -> None:
    players = tuple(f"P{i}" for i in range(count))
    game = new_game(Setup(players))
    letters = dict.fromkeys(players, 0)
    bonus = dict.fromkeys(players, 0)
    out: set[str] = set()
    for written, stop, goes_out in turns:
        player = game.current
        if stop:
            game = apply(game, PlayAction(player, "Stop"))
        game = apply(game, WriteWord(player, letters=written) if written else Draw(player))
        letters[player] += written
        if goes_out and player not in out and game.end is None:
            bonus[player] = 10 if not out else 0
            out.add(player)
            game = apply(game, GoOut(player))
        reached = any(letters[p] + bonus[p] >= TARGET for p in players)
        assert (game.end == "target") == reached
        if reached:
            break
    if game.end is None:
        game = apply(game, ReportEnd(reason))
    left = {p: data.draw(st.integers(0, 15)) for p in players}
    for player in players:
        game = apply(game, CardsLeft(player, left[player]))
    standings = score(game)
    assert standings.final
    for s in standings.players:
        assert s.points == letters[s.player] + bonus[s.player] - left[s.player]
    ranks = [s.rank for s in standings.players]
    assert ranks == sorted(ranks)
    best = max(s.points for s in standings.players)
    assert set(standings.winners) == {s.player for s in standings.players if s.points == best}
