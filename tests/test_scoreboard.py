"""The free scoreboard's undo history: the last UNDO_LIMIT changes can be taken back in a row, in order,
exactly as with an unbounded list; a change copies nothing; the chain in memory stays bounded."""

from __future__ import annotations

from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core import app, scoreboard
from firmware_host.core.events import Button, Press
from firmware_host.core.scoreboard import UNDO_LIMIT, Board
from firmware_host.core.settings import Settings


class Reference:
    """The board as an unbounded list of changes, undo limited to UNDO_LIMIT in a row."""

    def __init__(self, players: int, limit: int) -> None:
        self.totals = [0] * players
        self.selected = 0
        self.changes: list[tuple[int, int]] = []
        self.undoable = 0
        self.limit = limit

    def add(self, points: int) -> None:
        self.totals[self.selected] += points
        self.changes.append((self.selected, points))
        self.undoable = min(self.limit, self.undoable + 1)

    def undo(self) -> bool:
        if self.undoable == 0:
            return False
        player, points = self.changes.pop()
        self.totals[player] -= points
        self.selected = player
        self.undoable -= 1
        return True


OPS = st.lists(st.one_of(st.tuples(st.just("add"), st.integers(-5, 5)), st.just(("undo", 0)),
                         st.just(("next", 0))), max_size=200)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(OPS, st.integers(1, 4))
def test_undo_behaves_like_an_unbounded_list_limited_to_the_last_changes(ops, limit):
    with mock.patch.object(scoreboard, "UNDO_LIMIT", limit):
        board, model = Board.of(("A", "B", "C")), Reference(3, limit)
        for op, points in ops:
            if op == "add":
                board = board.add(points)
                model.add(points)
            elif op == "next":
                board = board.select_next()
                model.selected = (model.selected + 1) % 3
            else:
                undone = board.undo()
                assert (undone is not None) == model.undo()
                board = undone or board
            assert list(board.totals) == model.totals and board.selected == model.selected
            assert board.history == tuple(model.changes[len(model.changes) - model.undoable:])
            assert len(board.changes) <= 2 * limit  # the chain stays bounded


def test_a_long_game_keeps_a_bounded_chain_and_undoes_the_last_hundred():
    board = Board.of(("A", "B"))
    for n in range(2_000):
        board = board.add(n % 7 + 1).select_next()
    assert len(board.changes) <= 2 * UNDO_LIMIT
    totals = board.totals
    for _ in range(UNDO_LIMIT):
        board = board.undo()
        assert board is not None
    assert board.undo() is None
    undone = sum(n % 7 + 1 for n in range(2_000 - UNDO_LIMIT, 2_000))
    assert sum(board.totals) == sum(totals) - undone


def test_the_history_survives_a_snapshot():
    state, _ = app.initial(Settings(player_count=2))
    board = state.board
    for points in (3, -1, 5):
        board = board.add(points).select_next()
    restored = app.restore(app.snapshot(replace(state, board=board))).board
    assert restored.history == board.history == ((0, 3), (1, -1), (0, 5))
    assert restored.undo() == board.undo()


def test_the_scoreboard_says_nothing_to_undo_after_the_last_hundred():
    state, _ = app.initial(Settings(player_count=2))
    state, _ = app.step(state, Press(Button.MENU, 0))
    for event in (Press(Button.START, 0), Press(Button.NEXT, 0), Press(Button.START, 0)):  # Spielen, Punktetafel
        state, _ = app.step(state, event)
    for _ in range(UNDO_LIMIT + 5):
        state, _ = app.step(state, Press(Button.START, 0))
    for _ in range(UNDO_LIMIT):
        state, _ = app.step(state, Press(Button.BACK, 0))
        assert "Rückgängig" in state.notice
    assert state.board.totals == (5, 0)
    state, _ = app.step(state, Press(Button.BACK, 0))
    assert isinstance(state.overlay, app.MenuView)
