"""Scoreboard mode: the free scoreboard for any game. START books a point (long: takes one off), NEXT
selects the next player, BACK undoes the last change, a long NEXT starts/pauses the timer, the encoder
books its steps, a typed line books points ("+5", "-3") or names the selected player."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.app.actions import add_points, parse_points, refuse, start_pause, with_settings
from firmware_host.core.app.host import table_players
from firmware_host.core.app.state import AppState, MenuView, Step, t
from firmware_host.core.app.timer_mode import timer_text
from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Turn
from firmware_host.core.i18n import signed, texts
from firmware_host.core.roster import is_placeholder
from firmware_host.core.screens import ListItem, ListScreen
from firmware_host.core.text_input import NAME, refusal

TEXT = {
    "de": {"plays_now": "{name} spielt gerade: nach dem Spiel umbenennen"},
    "en": {"plays_now": "{name} is playing: rename after the game"},
}

say = texts(TEXT)


def scoreboard_event(state: AppState, event: Event) -> Step:
    s, board = state.settings, state.board
    cleared = replace(state, notice="")
    if isinstance(event, Press):
        if event.button is Button.START:
            return add_points(cleared, 1)
        if event.button in (Button.NEXT, Button.ENCODER):
            return replace(cleared, board=board.select_next()), []
        if event.button is Button.BACK:
            last, undone = board.last_change, board.undo()
            if undone is None or last is None:
                return replace(cleared, overlay=MenuView(), notice=t(s, "nothing_to_undo")), []
            player, points = last
            notice = t(s, "undone", name=board.players[player], points=signed(points))
            return replace(cleared, board=undone, notice=notice), []
        if event.button is Button.MENU:
            return replace(cleared, overlay=MenuView()), []
    if isinstance(event, LongPress):
        if event.button is Button.START:
            return add_points(cleared, -1)
        if event.button is Button.NEXT:
            return start_pause(cleared)
        if event.button is Button.BACK:
            return replace(cleared, timer=state.timer.reset()), []
        return refuse(state, "")
    if isinstance(event, Turn):
        return add_points(cleared, event.steps)
    if isinstance(event, TextEntry):
        typed_points = parse_points(event.text)
        if typed_points is not None:
            return add_points(cleared, typed_points)
        name = " ".join(event.text.split())
        if not any(ch.isalpha() for ch in name):
            return refuse(state, t(s, "not_a_number", text=event.text.strip()))
        refused = refusal(name, NAME)
        if refused is not None:  # a name the next start would not take back (`Settings.from_dict`)
            return refuse(state, refused.text(s.lang))
        return rename(cleared, name)
    return state, []


def rename(state: AppState, name: str) -> Step:
    """The selected player of the free scoreboard named `name`; the names are remembered. A person is
    renamed in the roster (so everywhere; refused when another person has the name); a default seat
    ("Spieler 2") becomes the person called `name` — one of the roster, as spelt there, or a new one."""
    board, s, roster = state.board, state.settings, state.roster
    old = board.players[board.selected]
    person = None if is_placeholder(old) else roster.named(old)
    if person is not None and state.flow is not None and old in table_players(state):
        return refuse(state, say(s.lang, "plays_now", name=old))  # the game open knows them by this name
    if person is not None:
        renamed_roster = roster.renamed(person.id, name)
        if renamed_roster is None:
            return refuse(state, t(s, "name_taken", name=name))
        roster = renamed_roster
    else:
        name = known.name if (known := roster.named(name)) is not None else name
    if name in board.players and name != old:
        return refuse(state, t(s, "name_taken", name=name))
    players = tuple(name if i == board.selected else p for i, p in enumerate(board.players))
    renamed = replace(state, board=replace(board, players=players), notice=t(s, "renamed", old=old, name=name),
                      roster=roster.seated(players))
    return with_settings(renamed, replace(s, player_names=players))


def scoreboard_screen(state: AppState) -> ListScreen:
    s, board = state.settings, state.board
    items = tuple(ListItem(name, str(total)) for name, total in zip(board.players, board.totals, strict=True))
    title = t(s, "scoreboard")
    if state.timer.running or not state.timer.countdown.is_full():
        title += f"  {timer_text(state)}"
    return ListScreen(title, items, board.selected, state.notice or t(s, "hint_board"))
