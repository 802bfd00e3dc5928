"""The phones at the table (the table page): a seat's entry for the game (`SeatEntry`), a phone's control
(`SeatCommand`: the timer, the free scoreboard, the settings a phone may set), a new player joining
(`SeatJoin`) and a phone taking over a seat another phone holds (`SeatClaim`, confirmed with START).

A phone belongs to a person of the roster (its events carry `person`): each event is for that person's
seat in the game or mode open (`phone_seat`), refused with a notice when the person does not play there.
A phone of a seat (`person` -1: journals written before people, a placeholder seat) is for its seat."""

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
from firmware_host.core.i18n import texts
from firmware_host.core.page_table import JOINS_KEPT, ConfirmSeat
from firmware_host.core.roster import is_placeholder
from firmware_host.core.scoreboard import Board
from firmware_host.core.settings import MAX_PLAYERS, phone_setting
from firmware_host.core.text_input import NAME, refusal

TEXT = {
    "de": {"not_playing": "{name} spielt hier nicht mit", "nobody": "Dieses Handy gehört niemandem am Tisch"},
    "en": {"not_playing": "{name} does not play here", "nobody": "This phone belongs to nobody at the table"},
}

say = texts(TEXT)


def phone_seat(state: AppState, seat: int, person: int) -> int | str:
    """The seat a phone's event is for: person `person`'s seat among the table's players (`table_players`:
    the open game's, else the free scoreboard's), or — for a seat's phone (`person` -1) — `seat`. A str is
    the notice why there is none ("Anna spielt hier nicht mit")."""
    if person < 0:
        return seat
    found, lang = state.roster.person(person), state.settings.lang
    if found is None:
        return say(lang, "nobody")
    placed = state.roster.seat_of(person, table_players(state))
    return say(lang, "not_playing", name=found.name) if placed is None else placed


def fresh_board(board: Board) -> bool:
    """Whether the free scoreboard holds only the default seats ("Spieler N", no points): a phone joining
    takes their place instead of a seat after them."""
    return all(is_placeholder(name) for name in board.players) and not any(board.totals)


def join_seat(state: AppState, in_place: bool) -> int:
    """The seat a new player joins at: the first of a fresh board when they take its default seats' place
    (`SeatJoin.in_place`), else the next free one."""
    return 0 if in_place and fresh_board(state.board) else len(state.board.players)


def seat_entry(state: AppState, event: SeatEntry) -> Step:
    """A phone's entry for its seat, whatever the box shows; refused (and logged) when the game takes none."""
    flow, seat = state.flow, phone_seat(state, event.seat, event.person)
    if isinstance(seat, str):
        return refuse(state, seat)
    if not isinstance(flow, TakesSeats):
        players = table_players(state)
        name = players[seat] if 0 <= seat < len(players) else str(seat + 1)
        return refuse(state, t(state.settings, "page_not_now", name=name))
    after, effects = apply(replace(state, notice=""), flow.seat_entry(seat, event.text, ctx(state)))
    refused = next((effect for effect in effects if isinstance(effect, Refused)), None)
    if refused is not None:
        effects.append(Log(f"phone of seat {seat + 1} refused: {refused.reason or event.text!r}", "INFO"))
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
    players, person = table_players(state), state.roster.person(event.person)
    seat = phone_seat(state, event.seat, event.person) if command != "join" else event.seat
    who = person.name if person is not None else (
        players[event.seat] if 0 <= event.seat < len(players) else str(event.seat + 1))
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
        return _join(cleared, event.seat, value, in_place=False)  # journals written before `SeatJoin`
    if isinstance(seat, str):
        return refuse(state, seat)
    if not 0 <= seat < len(board.players):
        return refuse(state, bad)
    mine = replace(cleared, board=replace(board, selected=seat))
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


def _join(state: AppState, seat: int, value: str, in_place: bool) -> Step:
    """Player `value` (a person of the roster, as spelt there, or a new one) joins the free scoreboard at
    `seat` — which must be `join_seat`: in place of a fresh board's default seats, or the next free one."""
    s, board = state.settings, state.board
    name = value if refusal(value, NAME) is None and not is_placeholder(value.strip()) else ""
    if seat != join_seat(state, in_place) or not name:
        return refuse(state, t(s, "page_bad_value", name=str(seat + 1), value=value))
    fresh = in_place and fresh_board(board)
    if not fresh and len(board.players) >= MAX_PLAYERS:
        return refuse(state, t(s, "page_full", n=MAX_PLAYERS))
    roster, person = state.roster.with_person(name)
    name = person.name
    if name in board.players:
        return refuse(state, t(s, "name_taken", name=name))
    names = (name,) if fresh else (*board.players, name)
    settings = replace(s, player_count=len(names), player_names=names)
    joined = replace(state, notice=t(s, "page_joined", name=name), roster=roster.seated(names),
                     board=Board.of(names) if fresh else board.resized(names))
    return with_settings(joined, settings)


def seat_join(state: AppState, event: SeatJoin) -> Step:
    """A new player from a phone at `join_seat`; which seat and person (-1, -1: refused, the notice says
    why) go out in `page.joined` for the page server."""
    seat = join_seat(state, event.in_place)
    after, effects = (refuse(state, t(state.settings, "page_game_on", name=event.name)) if state.flow is not None
                      else _join(replace(state, notice=""), seat, event.name, event.in_place))
    players = after.board.players
    person = after.roster.named(event.name) if after.board is not state.board else None
    got = (seat, person.id) if person is not None and seat < len(players) and players[seat] == person.name \
        else (-1, -1)
    joined = (*after.page.joined, (event.claim, *got))[-JOINS_KEPT:]
    return replace(after, page=replace(after.page, joined=joined)), effects


def seat_claim(state: AppState, event: SeatClaim) -> Step:
    players = table_players(state)
    seat = phone_seat(state, event.seat, event.person)
    if isinstance(seat, str) or not 0 <= seat < len(players):
        return replace(state, page=replace(state.page, answered=(event.claim, False))), []
    confirm = ConfirmSeat(seat, players[seat], event.claim)
    return replace(state, overlay=confirm, notice=""), [Beep("key", state.settings.volume)]
