"""Scoring invariants over generated games (hypothesis)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core.games.perfektes_wort.fields import Mark
from firmware_host.core.games.perfektes_wort.record import CODEC, RULES, score_record
from firmware_host.core.games.perfektes_wort.rules import (
    Game,
    Reveal,
    Shorten,
    Strike,
    TableEvent,
    Verdict,
    Word,
    apply,
    new_game,
)
from firmware_host.core.games.perfektes_wort.scoring import Result, score
from firmware_host.core.games.perfektes_wort.words import VOWELS
from firmware_host.core.games.registry import parse_record
from firmware_host.core.record import RecordError, dump_line, header_line
from tests.perfektes_wort_support import BONUS, setup, sheet

pytestmark = pytest.mark.slow  # hypothesis

ALPHABET = "ACEGHIKNOPSTUWZÄÖÜß"
LETTERS = "BDFGHKMSTW"
GREY = {1: ".A..E...N", 2: "..E..T...", 3: ".U...E.E.", 5: ".I..S...E", 8: "...E..L.N"}
ARROWS = [((1, 6), (2, 5)), ((3, 7), (3, 9)), ((4, 4), (5, 4)), ((9, 5), (8, 5))]
NAMES = ("Ada", "Ben", "Cem", "Dora", "Eli", "Fee")


@dataclass(frozen=True)
class Plan:
    players: tuple[str, ...]
    rounds: tuple[tuple[str, int], ...]
    profi: bool
    # per round, per player: the events of that player's entry, in their own order
    entries: tuple[tuple[tuple[TableEvent, ...], ...], ...]


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    players = NAMES[: draw(st.integers(2, 6))]
    rounds = tuple((draw(st.sampled_from(LETTERS)), draw(st.integers(5, 9))) for _ in range(9))
    entries = []
    for r, (letter, limit) in enumerate(rounds, start=1):
        per_round = []
        for player in players:
            kind = draw(
                st.sampled_from(["none", "empty", "word", "word", "word", "invalid", "long", "struck"])
            )
            if kind == "long" and limit == 9:
                kind = "struck"
            size = draw(st.integers(limit + 1, 9)) if kind == "long" else draw(st.integers(1, limit))
            word = letter + draw(st.text(ALPHABET, min_size=size, max_size=size))[: size - 1]
            events: tuple[TableEvent, ...]
            if kind == "none":
                events = ()
            elif kind == "empty":
                events = (Word(r, player, ""),)
            elif kind == "word":
                events = (Word(r, player, word),)
            elif kind == "invalid":
                keep = draw(st.integers(1, max(1, len(word) - 1)))
                fix: TableEvent = Shorten(r, player, word[:keep]) if keep < len(word) else Strike(r, player)
                events = (Word(r, player, word), Verdict(r, player, False), fix)
            elif kind == "long":
                events = (Word(r, player, word), Shorten(r, player, word[: draw(st.integers(1, limit))]))
            else:
                events = (Word(r, player, word), Strike(r, player))
            per_round.append(events)
        entries.append(tuple(per_round))
    return Plan(players, rounds, draw(st.booleans()), tuple(entries))


def start(plan: Plan) -> Game:
    arrows = ARROWS if plan.profi else []
    return new_game(setup(plan.players, plan.rounds, sheet(GREY, arrows)))


def play(plan: Plan, order: list[list[int]] | None = None) -> Game:
    """Play the plan; `order[r]` interleaves the round's per-player event lists (player index per step)."""
    game = start(plan)
    for r, per_round in enumerate(plan.entries, start=1):
        game = apply(game, Reveal(r))
        queues = [list(events) for events in per_round]
        steps = order[r - 1] if order else [i for i, events in enumerate(per_round) for _ in events]
        for index in steps:
            game = apply(game, queues[index].pop(0))
    return game


def interleavings(plan: Plan) -> st.SearchStrategy[list[list[int]]]:
    rounds = []
    for per_round in plan.entries:
        steps = [i for i, events in enumerate(per_round) for _ in events]
        rounds.append(st.permutations(steps))
    return st.tuples(*rounds).map(lambda t: [list(x) for x in t])


@settings(max_examples=60, deadline=None)
@given(plans())
def test_totals_are_the_sum_of_their_parts(plan: Plan) -> None:
    result = score(play(plan))
    game = start(plan)
    for player in result.players:
        for row in player.rows:
            grey = game.setup.sheet.grey(row.round)
            hits = sum(1 for i, ch in enumerate(row.word, start=1) if grey.get(i) == ch)
            assert len(row.grey_hits) == hits
            assert row.points == (5 if row.word else 0) + (
                5 if row.word and len(row.word) == row.max_length else 0
            ) + 5 * (hits + len(row.arrow_hits))
        for vowel in VOWELS:
            assert player.vowels.counts[vowel] == sum(row.word.count(vowel) for row in player.rows)
        vowel_points = sum(player.vowels.counts[v] * player.vowels.values[v] for v in VOWELS)
        circled = sum(1 for f in player.fields if f.mark is Mark.CIRCLED)
        assert player.total == sum(row.points for row in player.rows) + vowel_points + 5 * circled
    best = max((p.total, p.vowels.points) for p in result.players)
    assert {p.name for p in result.players if (p.total, p.vowels.points) == best} == set(result.winners)


@settings(max_examples=60, deadline=None)
@given(plans())
def test_a_circled_field_belongs_to_those_who_used_it_first(plan: Plan) -> None:
    result = score(play(plan))
    for field in BONUS:
        users = {
            rnd: {p.name for p in result.players if field in p.rows[rnd - 1].word} for rnd in range(1, 10)
        }
        first = next((rnd for rnd in range(1, 10) if users[rnd]), None)
        for player in result.players:
            mark = next(f for f in player.fields if f.field == field)
            if first is None:
                assert mark.mark is Mark.OPEN
            elif player.name in users[first]:
                assert (mark.mark, mark.round) == (Mark.CIRCLED, first)
                assert set(mark.by) == users[first]
            else:
                assert (mark.mark, mark.round) == (Mark.STRUCK, first)


@settings(max_examples=60, deadline=None)
@given(plans())
def test_a_struck_word_contributes_nothing(plan: Plan) -> None:
    # the same game with every struck entry replaced by "no word" scores the same
    def without_struck(events: tuple[TableEvent, ...]) -> tuple[TableEvent, ...]:
        return () if any(isinstance(e, Strike) for e in events) else events

    bare = Plan(
        plan.players,
        plan.rounds,
        plan.profi,
        tuple(tuple(without_struck(e) for e in per_round) for per_round in plan.entries),
    )
    assert _numbers(score(play(plan))) == _numbers(score(play(bare)))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_scoring_is_deterministic_and_independent_of_entry_order(data: st.DataObject) -> None:
    plan = data.draw(plans())
    order = data.draw(interleavings(plan))
    assert score(play(plan)) == score(play(plan)) == score(play(plan, order))


def _numbers(result: Result) -> list[object]:
    return [
        (
            p.name,
            [r.points for r in p.rows],
            dict(p.vowels.counts),
            [(f.field, f.mark, f.round) for f in p.fields],
            p.total,
            p.rank,
        )
        for p in result.players
    ]


@settings(max_examples=40, deadline=None)
@given(plans())
def test_record_lines_round_trip_and_replay_to_the_same_score(plan: Plan) -> None:
    game = play(plan)
    lines = [header_line("perfektes-wort"), CODEC.encode(game.setup)]
    for r, per_round in enumerate(plan.entries, start=1):
        lines.append(CODEC.encode(Reveal(r)))
        lines += [CODEC.encode(event) for events in per_round for event in events]
    record = parse_record("\n".join(dump_line(line) for line in lines))
    assert RULES.replay(record) == game
    assert score_record(record).to_json() == score_record(record).to_json()
    assert score_record(record).result == score(game)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-3, 12),
            st.text(max_size=12),
            st.lists(st.integers(0, 10), max_size=3),
        ),
        min_size=4,
        max_size=4,
    ),
    st.sampled_from(["reveal", "word", "verdict", "shorten", "correct", "strike", "solo_strike", "x"]),
)
def test_any_malformed_event_line_is_a_record_error_with_its_line(values: list[object], event: str) -> None:
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "perfektes-wort.jsonl"
    head = example.read_text(encoding="utf-8").splitlines()[:3]
    line = {
        "event": event,
        "round": values[0],
        "player": values[1],
        "word": values[2],
        "to": values[3],
        "valid": values[1],
        "field": values[2],
    }
    text = "\n".join([*head, json.dumps(line)])
    try:
        score_record(parse_record(text))
    except RecordError as exc:
        assert exc.line == 4
