"""Statistics per person (`core.history`): invariants over random histories of finished games."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.history import EVENING_GAP_S, PlayedGame, Seat, evenings, highlight, people, person_of
from firmware_host.core.history.evenings import seconds_of

pytestmark = pytest.mark.slow  # hypothesis

NAMES = ["Anna", "Ben", "Cem", "Dörte", "Ede"]
GAMES = ["perfektes-wort", "quiddler", "knack-das-wort", "perfect-words", "zugzeit"]


def label(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    return f"2026-01-{1 + days:02d}T{rest // 3600:02d}:{rest // 60 % 60:02d}:{rest % 60:02d}Z"


@st.composite
def histories(draw: st.DrawFn) -> list[PlayedGame]:
    games, now = [], 0
    for game_id in range(1, draw(st.integers(0, 12)) + 1):
        now += draw(st.sampled_from([0, 60, 3600, EVENING_GAP_S, EVENING_GAP_S + 1, 2 * 86400]))
        length = draw(st.integers(0, 7200))
        kind = draw(st.sampled_from(GAMES))
        players = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
        timed = kind == "zugzeit"
        seats = tuple(Seat(name, None if timed else draw(st.integers(0, 250)),
                           draw(st.integers(0, 10**6)) if timed else None) for name in players)
        winners = () if kind == "perfect-words" else tuple(
            draw(st.lists(st.sampled_from(players), max_size=len(players), unique=True)))
        games.append(PlayedGame(game_id, kind, label(now), label(now + length), seats, winners))
        now += length
    return games


@given(histories())
def test_wins_never_exceed_games_and_every_win_is_a_winners(games):
    everyone = people(games)
    assert {p.name for p in everyone} == {name for g in games for name in g.players}
    for kind in GAMES:
        of_kind = [g for g in games if g.game == kind]
        won = [s.won for p in everyone if (s := p.of(kind)) is not None]
        assert sum(won) == sum(len(g.winners) for g in of_kind)
        assert sum(won) >= sum(1 for g in of_kind if g.winners)
    for person in everyone:
        assert len(person.played) == sum(s.played for s in person.games)
        assert person.streak <= person.won
        for stats in person.games:
            assert 0 <= stats.won <= stats.with_winner <= stats.played
            if stats.average is not None:
                assert stats.best_total is not None and stats.average <= stats.best_total
            assert stats.think_ms == 0 or stats.game == "zugzeit"


@given(histories())
def test_head_to_head_is_symmetric(games):
    for person in people(games):
        for rival in person.rivals:
            other = person_of(games, rival.name)
            assert other is not None
            back = next(r for r in other.rivals if r.name == person.name)
            assert (back.together, back.wins, back.their_wins) == (rival.together, rival.their_wins, rival.wins)
            assert rival.wins + rival.their_wins <= 2 * rival.together


@given(histories())
def test_evenings_keep_every_game_once_in_order_and_split_only_at_long_gaps(games):
    found = evenings(games)
    assert [g.id for e in reversed(found) for g in e.games] == [g.id for g in games]
    for evening in found:
        for before, after in pairwise(evening.games):
            assert seconds_of(after.started) - seconds_of(before.finished) <= EVENING_GAP_S
    for later, earlier in pairwise(found):
        assert seconds_of(later.started) - seconds_of(earlier.finished) > EVENING_GAP_S


@given(histories())
def test_the_end_of_game_line_speaks_of_someone_at_the_table(games):
    if not games:
        return
    line = highlight(games, games[-1].id, 0.0)
    if line is not None:
        assert line.person in games[-1].players
        if line.kind in ("streak", "win"):
            assert line.person in games[-1].winners
