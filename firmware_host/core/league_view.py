"""What a table tells its venue's league: a pure function of the appliance's state (docs/league.md).

`league_view(state)` is the table's state message less what only the shell knows (the wall clock, the
venue and table names): the mode, the game, its players and running totals, and the sand timer — a
running timer by its monotonic `deadline`, stable while it runs, so a tick changes no view and the
shell publishes on change only. Running totals of a recorded game are its record so far scored by the
game's own `score_record`, the code path of `wordtable score`: the record's lines are taken from the game
in play as values (never written out as text and parsed back), and a game is scored once per change (the
last one's totals are kept). Pure: no I/O, no clock.
"""

from __future__ import annotations

from typing import Any

from firmware_host.core import app
from firmware_host.core.games import registry
from firmware_host.core.memo import remembers_last
from firmware_host.core.record import GameRecord, RecordError, RecordLine
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
    codec = played.rules.codec
    lines = (codec.encode(played.setup), *(codec.encode(e) for e in played.events))
    record = GameRecord(played.rules.game, tuple(RecordLine(number, line["event"], line)
                                                 for number, line in enumerate(lines, start=2)))
    try:
        report = registry.score(record)
    except RecordError:
        return None
    totals: dict[str, int] = {}
    for row in report.rows():
        totals[row.player] = row.total
    return totals
