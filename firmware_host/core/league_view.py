"""What a table tells its venue's league: a pure function of the appliance's state (docs/league.md).

`league_view(state)` is the table's state message less what only the shell knows (the wall clock, the
venue and table names): the mode, the game, its players and running totals, and the sand timer — a
running timer by its monotonic `deadline`, stable while it runs, so a tick changes no view and the
shell publishes on change only. Running totals of a recorded game are the game in play's report
(`Rules.report`, what `wordtable score` gives for its record so far: a record is the fold of the same
events), read from the game's value as the table page's views score it: once per change (the last one's
totals are kept), nothing written out as text, parsed back or replayed. Pure: no I/O, no clock.
"""

from __future__ import annotations

from typing import Any

from firmware_host.core import app
from firmware_host.core.memo import remembers_last
from firmware_host.core.record import RecordError
from firmware_host.core.table.played import Played


def league_view(state: app.AppState) -> dict[str, Any]:
    """The view (see the module)."""
    timer, flow = state.timer, state.flow
    countdown = timer.countdown
    game = flow.game if flow is not None else None
    totals = running_totals(state)
    if totals is None:
        board = state.board
        totals = dict(zip(app.table_players(state), (0,) * 8, strict=False)) if flow is not None else \
            dict(zip(board.players, board.totals, strict=True))
    players = tuple(totals)
    return {
        "mode": state.home,
        "game": game,
        "players": [{"name": name, "total": totals.get(name, 0)} for name in players],
        "timer": {
            "running": timer.running,
            "alarmed": timer.alarmed,
            "duration": countdown.duration,
            "deadline": countdown.deadline if timer.running else None,
            "left": None if timer.running else countdown.left(state.now),
        },
    }


def running_totals(state: app.AppState) -> dict[str, int] | None:
    """Each player's total of the recorded game in play (in seat order), scored from its record so far;
    None when no recorded game is in play or its record does not score (yet)."""
    played = getattr(state.flow, "played", None)
    if not isinstance(played, Played):
        return None
    totals = _scored(played)
    return None if totals is None else dict(totals)


@remembers_last
def _scored(played: Played[Any, Any, Any]) -> dict[str, int] | None:
    """`played`'s totals (scored once per game value: see the module)."""
    try:
        return played.rules.report(played.game).totals()
    except RecordError:
        return None
