"""The game host: what a flow may know of the appliance (`ctx`), carrying a flow's `Outcome` into the
state (`apply`), a new game, leaving it for a home mode and coming back, leaving it for good or for the
shelf and resuming it from there, and the sand timer given back."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from firmware_host.core.app.actions import refuse, with_settings
from firmware_host.core.app.state import (
    SHELF_SIZE,
    AppState,
    Free,
    HomeMode,
    InGame,
    MenuView,
    OnBoard,
    OnGame,
    Shelved,
    Step,
    home_shown,
    next_flow,
    showing,
    t,
)
from firmware_host.core.app_text import TEXT
from firmware_host.core.effects import Beep, BeginGame, Effect, EndGame, Keep, Refused
from firmware_host.core.events import canonical_json
from firmware_host.core.flow import Ctx, KeepsTime, Outcome, PauseTimer, ResetTimer, SetTimer, StartTimer
from firmware_host.core.games import registry
from firmware_host.core.games.kit import GameKit
from firmware_host.core.i18n import LANGUAGES, pick
from firmware_host.core.scoreboard import Board
from firmware_host.core.settings import MAX_PLAYERS
from firmware_host.core.timer import Timer


def ctx(state: AppState) -> Ctx:
    """What a game flow may know of the appliance."""
    timer = state.timer
    return Ctx(
        lang=state.settings.lang,
        volume=state.settings.volume,
        now=state.now,
        timer_running=timer.running,
        timer_over=timer.alarmed,
        timer_left=timer.left(state.now),
        timer_duration=timer.countdown.duration,
        kept=kept_items(state.kept),
        turns=state.settings.turns,
        reveal=state.settings.reveal,
        people=tuple(person.name for person in state.roster.people),
    )


@lru_cache(maxsize=4)
def kept_items(kept: tuple[tuple[str, str], ...]) -> Mapping[str, Any]:
    """The kept items as name -> JSON data (read-only; parsed once per distinct `kept`)."""
    return MappingProxyType({name: json.loads(text) for name, text in kept})


def table_players(state: AppState) -> tuple[str, ...]:
    """The players at the table, in seat order: the game's (its setup's while it is set up), else the free
    scoreboard's. A phone's seat is an index into these."""
    players = getattr(state.flow, "players", None)
    if isinstance(players, tuple) and all(isinstance(p, str) for p in players):
        return players
    return state.board.players


def apply(state: AppState, outcome: Outcome) -> Step:
    """Carry a flow's outcome into the app: its next flow, its timer action and its effects (and a
    `Refused` after them when the flow refused the input)."""
    effects: list[Effect] = []
    timer, previous = state.timer, state.flow
    action = outcome.timer
    if isinstance(action, StartTimer):
        timer = Timer.of(action.seconds, state.settings.warn_s).start(state.now)
        effects.append(Beep("start", state.settings.volume))
    elif isinstance(action, PauseTimer):
        timer = timer.pause(state.now) if timer.running else timer.start(state.now)
    elif isinstance(action, ResetTimer):
        timer = timer.reset()
    elif isinstance(action, SetTimer):
        timer = Timer.counting_on(action.duration, action.left, state.settings.warn_s, action.since, state.now)
    state = replace(state, timer=timer, mode=next_flow(state.mode, outcome.flow))
    for effect in outcome.effects:
        if isinstance(effect, Keep):  # what is kept is in use at once, not only after a restart
            others = tuple(item for item in state.kept if item[0] != effect.name)
            state = replace(state, kept=tuple(sorted((*others, (effect.name, canonical_json(effect.data))))))
    effects.extend(outcome.effects)
    if outcome.refused is not None:
        effects.append(Refused(outcome.refused))
    begun = next((effect for effect in outcome.effects if isinstance(effect, BeginGame)), None)
    if begun is not None and isinstance(state.mode, InGame):  # from now on leaving it asks and shelves it
        state = replace(state, mode=replace(state.mode, begun=True))
    if begun is not None and _named(begun.players):  # the same players again next time
        state = replace(state, roster=state.roster.played(begun.players))  # they played: first in the roster
        board = board_after_game(state.board, begun.players)
        settings = replace(state.settings, player_names=begun.players)
        if board is not state.board:
            settings = replace(settings, player_count=len(board.players))
        state, saved = with_settings(replace(state, board=board), settings)
        effects.extend(saved)
    if outcome.flow is None:
        state = replace(state, overlay=MenuView())
        if isinstance(previous, KeepsTime):  # the sand timer again, not the last turn's clock
            state = sand_timer(state)
    return state, effects


def board_after_game(board: Board, players: tuple[str, ...]) -> Board:
    """The free scoreboard once a game of `players` began: those people, in the game's order, on a board
    without points (a board of the same people stays as it is); a board with points keeps its tally."""
    if any(board.totals) or set(board.players) == set(players):
        return board
    return Board.of(players[:MAX_PLAYERS])


def default_names_in(names: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    """`names` with each seat's default name in language `old` ("Spieler 3") put in language `new`."""
    return tuple(pick(TEXT, new, "player_n", n=i + 1) if name == pick(TEXT, old, "player_n", n=i + 1) else name
                 for i, name in enumerate(names))


def _named(players: tuple[str, ...]) -> bool:
    """Whether a game's players were given names (not only "Spieler 1", "Player 2" …)."""
    defaults = {pick(TEXT, lang, "player_n", n=n) for lang in LANGUAGES for n in range(1, MAX_PLAYERS + 1)}
    return bool(players) and not set(players) <= defaults


def go_home(state: AppState, home: str) -> Step:
    """Show another home mode (the menu closed). A flow that keeps time stops its clock when the table
    leaves it and sets the timer back to its clock when the table returns."""
    moved = replace(state, mode=showing(state.mode, home), overlay=None)
    if (state.home == "game") == (home == "game") or not isinstance(state.flow, KeepsTime):
        return moved, []
    moved, effects = apply(moved, state.flow.pause(ctx(moved)))
    if home != "game":  # the sand timer again while the game's clock waits
        moved = sand_timer(moved)
    return moved, effects


def sand_timer(state: AppState) -> AppState:
    """`state` with the sand timer set to its length again (after a game's clock had the timer)."""
    return replace(state, timer=Timer.of(state.settings.duration_s, state.settings.warn_s))


def new_game(state: AppState, game: str) -> Step:
    """Open game `game`; a game open before is left for it (`leave`: no question asked here, the menu asks)."""
    chosen = registry.kit(game)
    if chosen is None:
        return refuse(state, "")
    left: HomeMode = state.left_home if isinstance(state.mode.shown, OnGame) else (
        "scoreboard" if isinstance(state.mode.shown, OnBoard) else "timer"
    )  # the new game ends where the table is now, or (from a game's screen) where that one would
    state, effects = leave(state)
    flow = chosen.new_flow(ctx(state), state.settings.player_names)
    return replace(state, mode=InGame(flow, left_home=left), overlay=None), effects


def leave(state: AppState) -> Step:
    """The open game left (none: `state` as it is) for the home mode it was started from: a game begun goes
    on the shelf (`Shelved`, the latest first; beyond `SHELF_SIZE` the oldest falls off), its clock stopped
    and the timer as it was kept with it; a game still in its setup is dropped. The journal archives its
    record either way, without a winner (`EndGame`, with the shelf's key for a shelved one)."""
    mode = state.mode
    if not isinstance(mode, InGame):
        return state, []
    effects: list[Effect] = []
    title = game_title(state, registry.kit(mode.flow.game))
    if mode.begun and isinstance(mode.flow, KeepsTime):  # its clock stops: no time passes on it while it waits
        state, effects = apply(state, mode.flow.pause(ctx(state)))
    flow = state.flow
    assert flow is not None
    if mode.begun:
        timer = state.timer.pause(state.now) if state.timer.running else state.timer
        kept = Shelved(state.shelf_key, flow, mode.left_home, timer, table_players(state), state.now)
        effects.append(EndGame(None, shelved=kept.key))
        state = replace(state, shelf=(kept, *state.shelf)[:SHELF_SIZE], shelf_key=kept.key + 1,
                        notice=t(state.settings, "shelved", game=title))
    else:
        effects.append(EndGame(None))
        state = replace(state, notice=t(state.settings, "abandoned", game=title))
    if isinstance(flow, KeepsTime):  # its clock goes with it
        state = sand_timer(state)
    return replace(state, mode=Free(home_shown(mode.left_home))), effects


def resume(state: AppState, key: int) -> Step:
    """The shelved game `key` brought back exactly where it was left, on screen, with its timer (a clock of
    its own set again); a game open before is left for it (`leave`). The journal continues its record."""
    kept = next((game for game in state.shelf if game.key == key), None)
    if kept is None:
        return refuse(state, "")
    state, effects = leave(replace(state, shelf=tuple(game for game in state.shelf if game.key != key)))
    state = replace(state, mode=InGame(kept.flow, kept.left_home, begun=True), overlay=None, timer=kept.timer)
    effects.append(BeginGame(kept.flow.game, kept.players, resumes=key))
    if isinstance(kept.flow, KeepsTime):
        state, more = apply(state, kept.flow.pause(ctx(state)))
        effects.extend(more)
    return state, effects


def game_title(state: AppState, game: GameKit | None) -> str:
    return "?" if game is None else game.name(state.settings.lang)
