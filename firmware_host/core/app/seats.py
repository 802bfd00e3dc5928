"""The phones at the table (the table page): a seat's entry for the game (`SeatEntry`), a phone's control
(`SeatCommand`: the timer, the free scoreboard, the settings a phone may set), a new player joining
(`SeatJoin`) and a phone taking over a seat another phone holds (`SeatClaim`, confirmed with START)."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core import settings as table
from firmware_host.core.app.actions import (
    add_points,
    parse_points,
    refuse,
    set_duration,
    start_pause,
    typed_duration,
    with_settings,
)
from firmware_host.core.app.host import apply, ctx, table_players
from firmware_host.core.app.menu import choose, main_label, menu_entries
from firmware_host.core.app.scoreboard_mode import rename
from firmware_host.core.app.state import AppState, MenuView, Step, t
from firmware_host.core.effects import Beep, Log, Refused
from firmware_host.core.events import SeatClaim, SeatCommand, SeatEntry, SeatJoin
from firmware_host.core.flow import TakesSeats
from firmware_host.core.page_table import JOINS_KEPT, ConfirmSeat
from firmware_host.core.settings import MAX_PLAYERS, phone_setting
from firmware_host.core.text_input import NAME, refusal


def seat_entry(state: AppState, event: SeatEntry) -> Step:
    """A phone's entry for its seat, whatever the box shows; refused (and logged) when the game takes none."""
    flow = state.flow
    if not isinstance(flow, TakesSeats):
        players = table_players(state)
        name = players[event.seat] if 0 <= event.seat < len(players) else str(event.seat + 1)
        return refuse(state, t(state.settings, "page_not_now", name=name))
    after, effects = apply(replace(state, notice=""), flow.seat_entry(event.seat, event.text, ctx(state)))
    refused = next((effect for effect in effects if isinstance(effect, Refused)), None)
    if refused is not None:
        effects.append(Log(f"phone of seat {event.seat + 1} refused: {refused.reason or event.text!r}", "INFO"))
    return after, effects


def page_controls(state: AppState) -> dict[str, object]:
    """What a phone may set (`SeatCommand`), with the menu's own labels: per setting its title and options
    (key, label, chosen); without a game also the timer's lengths (the presets)."""
    settings: dict[str, object] = {row.phone: {"title": main_label(state, row.key),
                                               "options": menu_entries(state, row.key)}
                                   for row in table.SETTINGS if row.phone}
    if state.flow is None:
        settings["length"] = {"title": main_label(state, "duration"),
                              "options": [e for e in menu_entries(state, "duration") if e[0] != "custom"]}
    return settings


def seat_command(state: AppState, event: SeatCommand) -> Step:
    """A phone's control (`events.SeatCommand`), done as the box's own button or menu entry does it."""
    s, command, value = state.settings, event.command, event.value
    players = table_players(state)
    who = players[event.seat] if 0 <= event.seat < len(players) else str(event.seat + 1)
    bad = t(s, "page_bad_value", name=who, value=value)
    cleared = replace(state, notice="")
    row = phone_setting(command)
    if row is not None:
        if value not in [key for key, _, _ in menu_entries(state, row.key)]:
            return refuse(state, bad)
        after, effects = choose(cleared, MenuView(row.key), value)
        return replace(after, overlay=state.overlay), effects
    if state.flow is not None:
        return refuse(state, t(s, "page_game_on", name=who))
    timer, board = state.timer, state.board
    if command == "timer" and value in ("start", "flip", "reset"):
        if value == "start":
            return start_pause(cleared)
        if value == "flip":
            return replace(cleared, timer=timer.flip(state.now), notice=t(s, "flipped")), []
        return replace(cleared, timer=timer.reset()), []
    if command == "length":
        if timer.running:
            return refuse(state, t(s, "timer_running"))
        seconds = typed_duration(state, value, value)
        return seconds if isinstance(seconds, tuple) else set_duration(cleared, seconds)
    if command == "join":
        name = value if refusal(value, NAME) is None else ""
        if event.seat != len(board.players) or not name:
            return refuse(state, bad)
        if len(board.players) >= MAX_PLAYERS:
            return refuse(state, t(s, "page_full", n=MAX_PLAYERS))
        if name in board.players:
            return refuse(state, t(s, "name_taken", name=name))
        names = (*board.players, name)
        settings = replace(s, player_count=len(names), player_names=names)
        joined = replace(cleared, board=board.resized(names), notice=t(s, "page_joined", name=name))
        return with_settings(joined, settings)
    if not 0 <= event.seat < len(board.players):
        return refuse(state, bad)
    mine = replace(cleared, board=replace(board, selected=event.seat))
    if command == "points":
        points = parse_points(value)
        if points is None:
            return refuse(state, t(s, "page_bad_points", name=who, value=value))
        return add_points(mine, points)
    if command == "name":
        refused = refusal(value, NAME)
        if refused is not None or not value.strip():
            return refuse(state, refused.text(s.lang) if refused is not None else t(s, "page_no_name", name=who))
        return rename(mine, value)
    return refuse(state, bad)


def seat_join(state: AppState, event: SeatJoin) -> Step:
    """A new player from a phone at the next free seat, as a "join" `SeatCommand` for that seat; which seat
    (-1: refused, the notice says why) goes out in `page.joined` for the page server."""
    seat = len(state.board.players)
    after, effects = seat_command(state, SeatCommand(seat, "join", event.name, event.at))
    players = after.board.players
    got = seat if len(players) == seat + 1 and players[seat] == event.name else -1
    joined = (*after.page.joined, (event.claim, got))[-JOINS_KEPT:]
    return replace(after, page=replace(after.page, joined=joined)), effects


def seat_claim(state: AppState, event: SeatClaim) -> Step:
    players = table_players(state)
    if not 0 <= event.seat < len(players):
        return replace(state, page=replace(state.page, answered=(event.claim, False))), []
    confirm = ConfirmSeat(event.seat, players[event.seat], event.claim)
    return replace(state, overlay=confirm, notice=""), [Beep("key", state.settings.volume)]
