"""The menu as a tree: the main menu (`MENUS[""]`) holds a few groups and the settings used most; each group
is a submenu of `MENUS`; each setting of `core.settings.SETTINGS` opens its options; the shelved games' menu,
the custom length edit and the question before a game begun is left for another (`ConfirmLeave`) hang off
it. In the menu NEXT moves down (a long NEXT up, both round the ends), START chooses, BACK goes up a level
(from the main menu out). The tree is laid out so that every setting is at most 3 presses from the top
(`tests/test_menu_reach.py` walks it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from firmware_host.core import settings as table
from firmware_host.core.app.actions import clamp_duration, refuse, set_duration, typed_duration, with_settings
from firmware_host.core.app.host import default_names_in, game_title, go_home, new_game, resume
from firmware_host.core.app.owner_pin import REMOVE, SET, open_pin, remove_pin
from firmware_host.core.app.state import (
    HOME_MODES,
    AppState,
    ConfirmLeave,
    ConfirmPowerOff,
    DurationEdit,
    InGame,
    MenuView,
    Shelved,
    Step,
    picked,
    t,
)
from firmware_host.core.app.text_edge import field_below
from firmware_host.core.effects import Beep
from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Turn
from firmware_host.core.games import registry
from firmware_host.core.page_table import PageShow
from firmware_host.core.page_table import t as page_text
from firmware_host.core.scoreboard import player_names
from firmware_host.core.screens import ListItem, ListScreen, MessageScreen
from firmware_host.core.settings import Settings, setting
from firmware_host.core.text_picker import Picker
from firmware_host.core.timer import format_seconds
from firmware_host.core.wifi_table import WifiShow
from firmware_host.core.wifi_table import t as wifi_text

# The menus and their entries in order. An entry is a group (a key of this table), a setting (its row's key in
# `SETTINGS`) or what `_open` does. Some show only when they apply (`_shown`); "games" stands for the games of
# the registry but the one being played, which is "continue" and "restart" (a new game of it). A setting of
# `SETTINGS` placed in no menu goes into the main menu before "power_off". Positions matter: NEXT and a long
# NEXT go round the ends, so the main menu's first and last entries and each group's first and last are the
# ones nearest the top (what a table does most: a game, the time, the players, the language).
MENUS: dict[str, tuple[str, ...]] = {
    "": ("play", "time", "players", "language", "page", "wifi", "owner", "power_off", "volume", "screen"),
    "play": ("continue", "letters", *HOME_MODES, "games", "shelf", "restart", "game_turn", "reveal"),
    "time": ("duration", "warn", "alarm"),
    "screen": ("contrast", "dim", "blank"),
    "owner": ("owner_pin", "owner_pin_off"),  # the owner PIN (`owner_pin`)
}
MORE = "›"  # beside a group's entry: it opens a menu


def _shown(state: AppState, key: str) -> bool:
    """Whether the entry `key` shows now: the letters while a line is wanted below, the game being played,
    the shelf while it holds games, the table page while it is served, a setting with `menu` set."""
    if key == "letters":
        field = field_below(state)
        return field is not None and not field.only
    if key == "continue":
        return state.flow is not None
    if key == "shelf":
        return bool(state.shelf)
    if key in ("page", "wifi"):
        return bool(state.page.address)
    row = setting(key)
    return row.menu if row is not None else True


def _placed() -> frozenset[str]:
    return frozenset(key for keys in MENUS.values() for key in keys)


def group_keys(state: AppState, path: str) -> list[str]:
    """The entries of the group `path` ("" the main menu) shown now, in order."""
    keys: list[str] = []
    playing = state.flow.game if state.flow is not None else None
    for key in MENUS[path]:
        if key == "games":
            keys += [f"game:{g.id}" for g in registry.GAMES if g.id != playing]
            continue
        if key == "restart":
            keys += [f"game:{playing}"] if playing is not None else []
            continue
        if path == "" and key == "power_off":
            placed = _placed()
            keys += [row.key for row in table.SETTINGS if row.menu and row.key not in placed]
        if _shown(state, key):
            keys.append(key)
    return keys


def main_keys(state: AppState) -> list[str]:
    """The main menu's entries shown now, in order (`MENUS[""]`)."""
    return group_keys(state, "")


def menu_keys(state: AppState) -> list[str]:
    """Every entry of the menu shown now: the main menu's, then each group's (in the order `route_to` looks)."""
    keys: list[str] = []
    paths = [""]
    while paths:
        entries = [key for key, _, _ in menu_entries(state, paths.pop(0))]
        keys += entries
        paths += [key for key in entries if key in MENUS]
    return keys


def parent(path: str) -> str:
    """The menu the submenu `path` is an entry of (the main menu for one placed nowhere)."""
    return next((group for group, keys in MENUS.items() if path in keys), "")


def menu_entries(state: AppState, path: str) -> list[tuple[str, str, bool]]:
    """(key, label, marked) of each entry of a (sub)menu; the marked entry is the current choice (in a group,
    the home mode shown)."""
    s = state.settings
    if path in MENUS:
        home = "continue" if state.home == "game" else state.home
        return [(key, main_label(state, key), key == home) for key in group_keys(state, path)]
    if path == "shelf":
        return [(f"resume:{game.key}", shelf_label(state, game), False) for game in state.shelf]
    row = setting(path)
    if row is None:
        raise ValueError(f"no menu {path!r}")
    say = partial(t, s)
    now = row.value(s)
    entries = [(str(value), row.option(say, value), value == now) for value in row.options(s)]
    if path == "duration":  # and a length of one's own
        custom = s.duration_s not in s.presets
        label = t(s, "custom_now", time=format_seconds(s.duration_s)) if custom else t(s, "custom")
        entries.append(("custom", label, custom))
    return entries


def current_value(state: AppState, key: str) -> str:
    """What a menu shows beside an entry: a setting's value now, `MORE` beside a group's ("" beside others)."""
    if key in MENUS or key == "shelf":
        return MORE
    row = setting(key)
    if row is None:
        return ""
    value = row.value(state.settings)
    return (row.current or row.option)(partial(t, state.settings), value)


def menu_title(state: AppState, path: str) -> str:
    """A menu's title: the group's or the setting's name; the game's name over the play menu of a game."""
    if path == "play" and state.flow is not None:
        return game_title(state, registry.kit(state.flow.game))
    return t(state.settings, path) if path else t(state.settings, "menu")


def menu_screen(state: AppState, menu: MenuView) -> ListScreen:
    """The screen of the open menu `menu`: its entries, the value beside each in a group."""
    grouped = menu.path in MENUS
    items = tuple(
        ListItem(label, current_value(state, key) if grouped else "", marked)
        for key, label, marked in menu_entries(state, menu.path)
    )
    return ListScreen(menu_title(state, menu.path), items, menu.cursor, state.notice)


def shelf_label(state: AppState, game: Shelved) -> str:
    """A shelved game in the menu: its title, its players and how long ago it was left."""
    s = state.settings
    minutes = int(max(0.0, state.now - game.at) // 60)
    when = t(s, "ago_now") if minutes < 1 else t(s, "ago_min", n=minutes) if minutes < 60 else (
        t(s, "ago_h", n=minutes // 60))
    title = game_title(state, registry.kit(game.flow.game))
    return t(s, "shelf_entry", game=title, players=", ".join(game.players), when=when)


def _index_in(state: AppState, path: str, key: str) -> int:
    keys = [entry for entry, _, _ in menu_entries(state, path)]
    return keys.index(key) if key in keys else 0


def _up(state: AppState, path: str) -> MenuView:
    """The menu above the submenu `path`, its cursor on `path`."""
    above = parent(path)
    return MenuView(above, _index_in(state, above, path))


def main_label(state: AppState, key: str) -> str:
    """The label of the entry `key` of a group (`MENUS`): the game being played's own is "Neu beginnen"."""
    if state.flow is not None and key == f"game:{state.flow.game}":
        return t(state.settings, "restart")
    if key.startswith("game:"):
        return game_title(state, registry.kit(key.removeprefix("game:")))
    if key == "page":
        return page_text(state.settings.lang, "page")
    if key == "wifi":
        return wifi_text(state.settings.lang, "wifi")
    return t(state.settings, key)


def route_to(state: AppState, wanted: Callable[[str, str], bool]) -> list[tuple[str, int]]:
    """The way from the main menu to the first entry for which `wanted(key, label)` holds, the main menu's
    entries first, then each group's in turn: (menu, index) of each entry chosen on the way; [] for none."""
    paths: list[tuple[str, list[tuple[str, int]]]] = [("", [])]
    while paths:
        path, way = paths.pop(0)
        entries = menu_entries(state, path)
        for index, (key, label, _) in enumerate(entries):
            if wanted(key, label):
                return [*way, (path, index)]
        paths += [(key, [*way, (path, index)]) for index, (key, _, _) in enumerate(entries) if key in MENUS]
    return []


def events_to_choose(state: AppState, text: str, at: float) -> list[Press] | None:
    """The presses that open the main menu and choose the entry whose label contains `text` (case folded),
    through the groups it is in; None when no entry does. Scripts use it so they do not depend on the
    menu's order."""
    wanted = text.casefold()
    return _presses_to(state, lambda key, label: wanted in label.casefold(), at)


def events_to_open(state: AppState, entry: str, at: float) -> list[Press] | None:
    """The presses that open the main menu and choose the entry `entry` (a key: "game:quiddler", "warn"),
    through the groups it is in; None when it is not in the menu now."""
    return _presses_to(state, lambda key, label: key == entry, at)


def _presses_to(state: AppState, wanted: Callable[[str, str], bool], at: float) -> list[Press] | None:
    opened = state if isinstance(state.overlay, MenuView) and not state.overlay.path else None
    events = [] if opened else [Press(Button.MENU, at)]
    if opened is None:
        opened = replace(state, overlay=MenuView())
    menu = opened.overlay
    assert isinstance(menu, MenuView)
    way = route_to(opened, wanted)
    if not way:
        return None
    cursor = menu.cursor
    for path, index in way:
        steps = (index - cursor) % len(menu_entries(opened, path))
        events += [*[Press(Button.NEXT, at)] * steps, Press(Button.START, at)]
        cursor = 0
    return events


def menu_event(state: AppState, event: Event) -> Step:
    menu = state.overlay
    assert isinstance(menu, MenuView)
    items = menu_entries(state, menu.path)
    cleared = replace(state, notice="")
    if isinstance(event, Turn):
        return replace(cleared, overlay=replace(menu, cursor=(menu.cursor + event.steps) % len(items))), []
    if isinstance(event, Press):
        if event.button is Button.NEXT:
            return replace(cleared, overlay=replace(menu, cursor=(menu.cursor + 1) % len(items))), []
        if event.button in (Button.START, Button.ENCODER):
            return choose(cleared, menu, items[menu.cursor][0])
        if event.button is Button.BACK:
            if menu.path:
                return replace(cleared, overlay=_up(state, menu.path)), []
            return replace(cleared, overlay=None), []
        if event.button is Button.MENU:
            return replace(cleared, overlay=None), []
    if isinstance(event, LongPress) and event.button is Button.NEXT:
        return replace(cleared, overlay=replace(menu, cursor=(menu.cursor - 1) % len(items))), []
    if isinstance(event, LongPress) and event.button is Button.START and menu.path == "shelf":
        return _drop_shelved(cleared, state.shelf[menu.cursor])
    if isinstance(event, TextEntry):
        if not event.text:  # a keyboard's Enter on an empty line: the entry under the cursor, as START
            return choose(cleared, menu, items[menu.cursor][0])
        return refuse(state, t(state.settings, "no_text_here"))
    return refuse(state, "")


def choose(state: AppState, menu: MenuView, key: str) -> Step:
    """The entry `key` of `menu` chosen: a group's entry opens what it names; a setting's option is set
    (with what it changes beside: `_CHOSEN`) and the menu goes back to the group on that setting."""
    if menu.path in MENUS:
        return _open(state, key)
    if menu.path == "shelf":
        return _leave_first(state, key) or _chosen_game(state, key)
    row = setting(menu.path)
    if row is None:
        raise ValueError(f"no menu {menu.path!r}")
    back = replace(state, overlay=_up(state, menu.path))
    if menu.path == "duration" and key == "custom":
        return replace(state, overlay=DurationEdit(state.settings.duration_s)), []
    value = int(key) if isinstance(row.value(state.settings), int) else key
    settings = row.chosen(state.settings, value)
    return _CHOSEN.get(row.key, with_settings)(back, settings)


def _open(state: AppState, key: str) -> Step:
    if key in HOME_MODES:
        return go_home(state, key)
    if key == "continue":
        return go_home(state, "game")
    if key == "letters" and (field := field_below(state)) is not None:
        return picked(replace(state, overlay=None), Picker(field)), []
    if key.startswith("game:"):
        return _leave_first(state, key) or _chosen_game(state, key)
    if key in MENUS:
        return replace(state, overlay=MenuView(key)), []
    if key == "shelf":
        return replace(state, overlay=MenuView("shelf"), notice=t(state.settings, "shelf_hint")), []
    if key == "power_off":
        return replace(state, overlay=ConfirmPowerOff()), []
    if key == "page":
        return replace(state, overlay=PageShow()), []
    if key == SET:
        return open_pin(state)
    if key == REMOVE:
        return remove_pin(state)
    if key == "wifi":
        return replace(state, overlay=WifiShow()), []
    if setting(key) is None:
        return state, []
    entries = menu_entries(state, key)
    cursor = next((i for i, (_, _, marked) in enumerate(entries) if marked), 0)
    return replace(state, overlay=MenuView(key, cursor)), []


def _drop_shelved(state: AppState, game: Shelved) -> Step:
    """A shelved game given up (a long START in the shelf's menu): it leaves the shelf, its record stays
    archived without a winner; the main menu when the shelf is empty."""
    shelf = tuple(kept for kept in state.shelf if kept.key != game.key)
    menu = MenuView("shelf", 0) if shelf else MenuView(parent("shelf"), 0)
    title = game_title(state, registry.kit(game.flow.game))
    return replace(state, shelf=shelf, overlay=menu, notice=t(state.settings, "shelf_dropped", game=title)), []


def _chosen_game(state: AppState, key: str) -> Step:
    """The entry `key` done: a new game ("game:ID") or a shelved one resumed ("resume:KEY")."""
    if key.startswith("resume:"):
        return resume(state, int(key.removeprefix("resume:")))
    return new_game(state, key.removeprefix("game:"))


def _leave_first(state: AppState, key: str) -> Step | None:
    """The question before the entry `key` leaves a game begun (`ConfirmLeave`); None when none is open."""
    mode = state.mode
    if isinstance(mode, InGame) and mode.begun:
        return replace(state, overlay=ConfirmLeave(key)), []
    return None


def leave_event(state: AppState, event: Event) -> Step:
    """The question before a game is left: START (or the encoder's push) leaves it for the entry chosen,
    BACK (or MENU) keeps playing — the table as it was, the question closed."""
    question = state.overlay
    assert isinstance(question, ConfirmLeave)
    if isinstance(event, Press) and event.button in (Button.START, Button.ENCODER):
        return _chosen_game(state, question.then)
    if isinstance(event, Press) and event.button in (Button.BACK, Button.MENU):
        return replace(state, overlay=None), []
    return refuse(state, "")


def leave_screen(state: AppState) -> MessageScreen:
    """The question before the open game is left (`ConfirmLeave`)."""
    s = state.settings
    playing = registry.kit(state.flow.game) if state.flow else None
    return MessageScreen(t(s, "leave_q", game=game_title(state, playing)), (t(s, "leave_yes"), t(s, "leave_no")))


def _duration_chosen(state: AppState, settings: Settings) -> Step:
    return set_duration(state, settings.duration_s)


def _warn_chosen(state: AppState, settings: Settings) -> Step:
    return with_settings(replace(state, timer=state.timer.with_warning(settings.warn_s, state.now)), settings)


def _volume_chosen(state: AppState, settings: Settings) -> Step:
    state, effects = with_settings(state, settings)
    return state, [*effects, *([Beep("key", settings.volume)] if settings.volume != "off" else [])]


def _language_chosen(state: AppState, settings: Settings) -> Step:
    """A seat's default name ("Spieler 3") is said in the new language too."""
    old, new = state.settings.lang, settings.lang
    board = replace(state.board, players=default_names_in(state.board.players, old, new))
    settings = replace(settings, player_names=default_names_in(state.settings.player_names, old, new))
    return with_settings(replace(state, board=board), settings)


def _players_chosen(state: AppState, settings: Settings) -> Step:
    names = player_names(settings.player_names, settings.player_count, t(settings, "player_n"))
    return with_settings(replace(state, board=state.board.resized(names)), settings)


# What a setting's choice changes beside the settings (the others only change the settings; the reveal,
# for one, from the next game on: a game keeps the choice it began with).
_CHOSEN: dict[str, Callable[[AppState, Settings], Step]] = {
    "duration": _duration_chosen,
    "warn": _warn_chosen,
    "volume": _volume_chosen,
    "language": _language_chosen,
    "players": _players_chosen,
}


def duration_edit_event(state: AppState, event: Event) -> Step:
    """The custom length edit: the encoder and NEXT (long: back) change it by 5 and 15 s, START sets it,
    a typed length is taken as it is, BACK goes back to the length's submenu."""
    edit = state.overlay
    assert isinstance(edit, DurationEdit)
    if isinstance(event, Turn):
        return replace(state, overlay=DurationEdit(clamp_duration(edit.seconds + 5 * event.steps)), notice=""), []
    if isinstance(event, Press):
        if event.button is Button.NEXT:
            return replace(state, overlay=DurationEdit(clamp_duration(edit.seconds + 15)), notice=""), []
        if event.button in (Button.START, Button.ENCODER):
            state, effects = set_duration(replace(state, notice=""), edit.seconds)
            return replace(state, overlay=_up(state, "duration")), effects
        if event.button in (Button.BACK, Button.MENU):
            return replace(state, overlay=MenuView("duration", 0), notice=""), []
    if isinstance(event, LongPress) and event.button is Button.NEXT:
        return replace(state, overlay=DurationEdit(clamp_duration(edit.seconds - 15)), notice=""), []
    if isinstance(event, TextEntry):
        seconds = typed_duration(state, event.text, event.text.strip())
        if isinstance(seconds, tuple):
            return seconds
        return replace(state, overlay=DurationEdit(seconds), notice=""), []
    return refuse(state, "")
