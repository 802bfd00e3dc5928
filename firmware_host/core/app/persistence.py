"""Where a table starts: the state it boots into (`initial`), a snapshot of an idle table that a journal
session starts from (`can_snapshot`, `snapshot`, `restore`), and the table after a restart (`resumed`)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from firmware_host.core.app.host import apply, ctx
from firmware_host.core.app.screens import view
from firmware_host.core.app.state import HOME_MODES, AppState, Free, Step, home_shown, t
from firmware_host.core.effects import Effect, Log
from firmware_host.core.events import Resumed
from firmware_host.core.flow import Asks, ExplainsPause, KeepsTime
from firmware_host.core.page_table import PageState
from firmware_host.core.roster import Roster
from firmware_host.core.scoreboard import Board, player_names
from firmware_host.core.settings import Settings
from firmware_host.core.timer import Timer


def initial(settings: Settings, now: float = 0.0) -> tuple[AppState, list[Effect]]:
    """The state the appliance boots into (timer mode) and the effects that draw it."""
    names = player_names(settings.player_names, settings.player_count, t(settings, "player_n"))
    state = AppState(settings, Timer.of(settings.duration_s, settings.warn_s), Board.of(names), now=now,
                     roster=Roster.of(names))
    return state, view(state)


def can_snapshot(state: AppState) -> bool:
    """Whether `snapshot` holds all of `state` that matters: no game open, no menu, no letter picker open,
    the timer not running and its alarm not ringing (the press that silences it must replay as that), no
    game on the shelf (a flow is not data a snapshot holds: the session's inputs replay it)."""
    return (state.flow is None and state.overlay is None and state.picker is None and not state.timer.running
            and state.ringing is None and not state.shelf)  # a shelved game is kept by its session's inputs


def snapshot(state: AppState) -> dict[str, Any]:
    """What a journal session starts from: the settings, the home mode (timer or scoreboard), a stopped
    timer's time left, the free scoreboard (with its undo history), what the shell keeps (`Kept`: the
    card tables a later scan is read with), the table page's address and code (the menu offers the
    page by them), the next shelved game's key and the roster (`core.roster`: ids, names, marks, who is at
    the table) — all that the events journaled after it are decided on."""
    countdown = state.timer.countdown
    return {
        "kept": [list(item) for item in state.kept],
        "shelf_key": state.shelf_key,
        "page": {"address": state.page.address, "code": state.page.code},
        "settings": state.settings.to_dict(),
        "home": state.home if state.home in HOME_MODES else "timer",
        "timer": {"left": countdown.left(state.now), "alarmed": state.timer.alarmed},
        "board": {
            "players": list(state.board.players),
            "totals": list(state.board.totals),
            "selected": state.board.selected,
            "history": [list(change) for change in state.board.history],
        },
        "roster": state.roster.to_data(),
    }


def restore(data: dict[str, Any]) -> AppState:
    """The state a journaled snapshot stands for (the inverse of `snapshot`): its home mode, a full timer.
    A snapshot written before the roster gets one of its players' names (each a person, at the table).
    Raises KeyError/ValueError/TypeError/AttributeError on data that `snapshot` did not write."""
    settings = Settings.from_dict(data["settings"])
    board = data["board"]
    players = player_names(tuple(str(p) for p in board["players"]), len(board["players"]), t(settings, "player_n"))
    totals = tuple(int(total) for total in board["totals"])
    history = tuple((int(p), int(d)) for p, d in board.get("history", ()))
    board_state = Board.restored(players, totals, int(board.get("selected", 0)), history)
    home = data.get("home", "timer")
    kept = tuple(sorted((str(name), str(text)) for name, text in data.get("kept", ())))
    page = data.get("page", {})
    page_state = PageState(address=str(page.get("address", "")), code=str(page.get("code", "")))
    timer = Timer.of(settings.duration_s, settings.warn_s)
    stopped = data.get("timer")
    if isinstance(stopped, dict):
        left = min(max(0.0, float(stopped["left"])), float(settings.duration_s))
        timer = replace(timer, countdown=replace(timer.countdown, left_when_stopped=left),
                        alarmed=bool(stopped["alarmed"]), warned_down_to=min(timer.warned_down_to, math.ceil(left)))
    roster = Roster.from_data(data["roster"]) if "roster" in data else Roster.of(players)
    return AppState(settings, timer, board_state, mode=Free(home_shown(home)), kept=kept, page=page_state,
                    shelf_key=int(data.get("shelf_key", 0)), roster=roster)


def resumed(state: AppState, event: Resumed) -> Step:
    """After a restart the monotonic clock starts anew at `event.at`. A running timer comes back paused with
    the time it had left at the last journaled event — or run out, when it would have run out while the
    box was off (`event.off_s`): then it is over as if the alarm had sounded (silently), and the table is
    told. A paused timer says so in a notice, unless the game on screen says it itself (`ExplainsPause`:
    a round's minute, which START runs on). A flow that keeps time stops its clock at the last journaled
    event: the time off is nobody's turn. A flow that asked the word list and got no answer before the cut
    asks again (`Asks`). The shelved games were left as long ago as before, and the time off. What was only
    shown, never journaled (`events.DISPLAY_ONLY`), is gone, as a replay of the journal has it: the line
    half typed on a keyboard (`typing`), the page's takeovers waiting (`pending`: the page server tells
    them again), the Wi-Fi's link (its watcher tells it again) — a start from a resume snapshot (which
    holds the whole state) shows what a start from the journal shows."""
    at, off_s = event.at, event.off_s
    state = replace(state, typing="", page=replace(state.page, pending=()),
                    wifi=replace(state.wifi, link="", ssid="", password="", address=""))
    paused: list[Effect] = []
    if isinstance(state.flow, KeepsTime):
        state, paused = apply(state, state.flow.pause(ctx(state)))
    if isinstance(state.flow, Asks):
        paused += state.flow.asks(ctx(state))
    timer, now = state.timer, state.now
    shelf = tuple(replace(game, at=game.at + at - now - off_s) for game in state.shelf)  # as long ago as before
    state = replace(state, ringing=None, shelf=shelf)
    if not timer.running:
        return replace(state, now=at), [*paused, Log("resumed")]
    left = timer.left(now)
    if off_s >= left:
        over = timer.countdown.deadline or now
        stopped, _alarm = timer.tick(over, state.settings.volume)
        state = replace(state, timer=stopped, now=over)
        effects: list[Effect] = []
        if state.flow is not None:
            state, effects = apply(state, state.flow.timer_over(ctx(state)))
        notice = t(state.settings, "resumed_over")
        log = Log(f"resumed; the time ran out while off ({off_s:.0f} s off)")
        return replace(state, notice=notice, now=at), [*paused, *effects, log]
    state = replace(state, timer=timer.pause(now))
    notice = "" if _pause_explained(state) else t(state.settings, "resumed")
    log = Log(f"resumed; timer paused at {left:.1f} s")
    return replace(state, notice=notice, now=at), [*paused, log]


def _pause_explained(state: AppState) -> bool:
    """Whether the game on screen says itself that its timer is paused and how it runs on (`ExplainsPause`)."""
    flow = state.flow
    return (state.home == "game" and state.overlay is None and isinstance(flow, ExplainsPause)
            and flow.explains_pause(ctx(state)))
