"""Perfect Words: properties of normalisation (P1) and of scoring over random games."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.games.perfect_words.rules import (
    Choose,
    Game,
    Merge,
    Reveal,
    Setup,
    WriteTerm,
    apply,
    new_game,
    normalise,
)
from firmware_host.core.games.perfect_words.scoring import score

pytestmark = pytest.mark.slow  # hypothesis

GERMAN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ -", max_size=20)
SPACE = st.text(alphabet=" \t\u00a0\u2003", max_size=3)


@given(st.text())
def test_normalise_is_idempotent(text: str) -> None:
    assert normalise(normalise(text)) == normalise(text)


@given(GERMAN, SPACE, SPACE)
def test_normalise_ignores_case_and_outer_space(text: str, before: str, after: str) -> None:
    assert normalise(before + text.upper() + after) == normalise(text.lower())


@given(st.lists(st.text(alphabet="abcxyz", min_size=1, max_size=5), min_size=1, max_size=4), SPACE)
def test_normalise_collapses_inner_space(words: list[str], gap: str) -> None:
    assert normalise((" " + gap).join(words)) == " ".join(words)


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A random revealed game: each player writes, per arrow, one of three candidate terms (or nothing)."""
    count = draw(st.integers(2, 6))
    players = tuple(f"P{i}" for i in range(count))
    game = new_game(Setup(players))
    for arrow in range(1, 11):
        for player in players:
            choice = draw(st.integers(0, 3))
            if choice:
                game = apply(game, WriteTerm(player, arrow, f"term {arrow}-{choice}"))
    double, ignore = draw(st.lists(st.integers(1, 10), min_size=2, max_size=2, unique=True))
    return apply(apply(game, Choose(double, ignore)), Reveal())


@given(games())
def test_totals_are_bounded(game: Game) -> None:
    standing = score(game)
    assert 0 <= standing.total <= 2 * 8 + 4
    assert standing.total == sum(a.points for a in standing.arrows)
    ignored = [a for a in standing.arrows if a.role == "ignore"]
    assert len(ignored) == 1 and ignored[0].points == 0


@given(games())
def test_points_follow_the_largest_group(game: Game) -> None:
    for arrow in score(game).arrows:
        sizes = [len(g.players) for g in arrow.groups]
        assert arrow.same == max(sizes, default=0)
        assert sum(sizes) == sum(1 for t in game.terms if t.arrow == arrow.arrow)
        factor = {"double": 2, "ignore": 0}.get(arrow.role, 1)
        assert arrow.points == arrow.base * factor
        assert arrow.base in (0, 1, 2)


@given(games(), st.integers(1, 10))
def test_merging_never_lowers_the_total(game: Game, arrow: int) -> None:
    keys = list(dict.fromkeys(t.key for t in game.terms if t.arrow == arrow))
    if len(keys) >= 2:
        merged = apply(game, Merge(arrow, tuple(keys[:2])))
        assert score(merged).total >= score(game).total
