"""Das perfekte Wort scored from the last game value scored is scored afresh (hypothesis): whatever game
value was scored before — the one before it, the one after it, one of another game — a game's score is
the same, and it refuses exactly while an entry still needs the table."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core.games.perfektes_wort.errors import RuleError
from firmware_host.core.games.perfektes_wort.rules import Correct, Game, Reveal, apply, pending
from firmware_host.core.games.perfektes_wort.scoring import Result, score
from tests.properties.test_perfektes_wort_properties import Plan, plans, start

pytestmark = pytest.mark.slow  # hypothesis


def steps(plan: Plan) -> list[Game]:
    """Every game value on the way through the plan, each made from the one before it (as a table's steps),
    then with round 1's words corrected in their sixth letter (a Profi arrow's cell: round 2's fifth is its
    other, so round 2's arrow hit comes and goes while its entry stays)."""
    game = start(plan)
    games = [game]
    for r, per_round in enumerate(plan.entries, start=1):
        game = apply(game, Reveal(r))
        games.append(game)
        for events in per_round:
            for event in events:
                game = apply(game, event)
                games.append(game)
    for entry in [e for e in game.entries if e.round == 1 and len(e.written) >= 6]:
        below = game.entry(2, entry.player)
        target = below.current[4:5] if below is not None and not below.struck else ""
        for letter in {target or "E", "A" if target != "A" else "E"}:  # onto the arrow's other cell, then off
            try:
                game = apply(game, Correct(1, entry.player, entry.written[:5] + letter + entry.written[6:]))
            except RuleError:
                continue
            games.append(game)
    return games


def scored(game: Game) -> Result | str:
    try:
        return score(game)
    except RuleError as exc:
        return f"{type(exc).__name__}: {exc}"


@settings(max_examples=30, deadline=None)
@given(plans(), st.randoms(use_true_random=False))
def test_a_game_scores_the_same_whatever_was_scored_before_it(plan: Plan, rng: object) -> None:
    games = steps(plan)
    afresh = [scored(replace(game, setup=replace(game.setup))) for game in games]  # a setup of its own each
    forward = [scored(game) for game in games]
    backward = [scored(game) for game in reversed(games)][::-1]
    order = list(range(len(games)))
    rng.shuffle(order)  # type: ignore[attr-defined]
    shuffled = {i: scored(games[i]) for i in order}
    assert forward == afresh == backward == [shuffled[i] for i in range(len(games))]
    assert [isinstance(result, str) for result in afresh] == [bool(pending(game)) for game in games]
