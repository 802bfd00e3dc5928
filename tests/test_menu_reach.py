"""The menu a player can find things in (issue 38), walked by key events through the pure core: from the top
of the menu (as MENU opens it) every setting is at most 3 presses away, the game being played is listed once,
every menu and every entry has its way back; and every page of every menu, in German and English, at 128×64
and 256×64, shows each entry whole (the real renderer: nothing paged into fragments, nothing cut with "…")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from firmware_host import render
from firmware_host.core import app
from firmware_host.core import settings as table
from firmware_host.core.app.menu import MENUS
from firmware_host.core.events import Button, Event, LongPress, Press
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings
from firmware_host.script import parse_script, run_script
from tests.game_scripts import PureApp

KEYS: tuple[Event, ...] = (
    Press(Button.NEXT, 0.0), LongPress(Button.NEXT, 0.0), Press(Button.START, 0.0), Press(Button.BACK, 0.0),
    LongPress(Button.START, 0.0), LongPress(Button.BACK, 0.0),
)
SIZES = ((128, 64), (256, 64))
QUIDDLER_BEGUN = """
choose Quiddler
type 2
press start
type Ann
type Bob
press start
press start
press start
press start
press start
press start
"""  # Quiddler begun with Ann and Bob, its first round waiting for a word (a line is wanted: the letters)


def _table(lang: str, script: str) -> app.AppState:
    table = PureApp()
    table.state = replace(table.state, settings=Settings(lang=lang))
    run_script(parse_script(script), table.hooks(), lambda line: None)
    table.state = replace(table.state, overlay=None, notice="")
    return table.state


def contexts(lang: str) -> dict[str, app.AppState]:
    """The tables the menu opens over: the timer, the free scoreboard (its letters), a game begun (its letters,
    the game to continue), a game being set up with one on the shelf and the table page served."""
    shelved = _table(lang, QUIDDLER_BEGUN + "choose Knack\npress start\nwait 120\n")
    served = replace(shelved, page=replace(shelved.page, address="http://192.168.1.20:8080"))
    return {
        "timer": _table(lang, ""),
        "scoreboard": _table(lang, "choose " + {"de": "Punktetafel", "en": "Scoreboard"}[lang]),
        "game": _table(lang, QUIDDLER_BEGUN),
        "shelf and page": served,
    }


def opened(state: app.AppState) -> app.AppState:
    after, _ = app.step(state, Press(Button.MENU, 0.0))
    assert after.overlay == app.MenuView(), describe(app.screen(after))
    return after


def under_cursor(state: app.AppState) -> str | None:
    """The menu entry under the cursor, or the setting whose options are open (None outside the menu)."""
    menu = state.overlay
    if not isinstance(menu, app.MenuView):
        return None
    if table.setting(menu.path) is not None:
        return menu.path
    return app.menu_entries(state, menu.path)[menu.cursor][0]


def presses_to_each_entry(top: app.AppState, most: int) -> dict[str, int]:
    """Breadth first over the keys from the top of the menu: the fewest presses that put each entry under the
    cursor (or open its options), up to `most` presses."""
    reached: dict[str, int] = {}
    frontier, seen = [top], {top.overlay}
    for presses in range(most + 1):
        following = []
        for state in frontier:
            key = under_cursor(state)
            if key is not None:
                reached.setdefault(key, presses)
            if not isinstance(state.overlay, app.MenuView):
                continue
            for event in KEYS:
                after, _ = app.step(state, event)
                if after.overlay not in seen:
                    seen.add(after.overlay)
                    following.append(after)
        frontier = following
    return reached


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_setting_is_at_most_three_presses_from_the_top(lang: str) -> None:
    for name, state in contexts(lang).items():
        reached = presses_to_each_entry(opened(state), 3)
        far = [row.key for row in table.SETTINGS if row.menu and row.key not in reached]
        assert not far, (name, far)


def test_the_main_menu_opens_on_what_a_table_does_most() -> None:
    top = opened(contexts("de")["timer"])
    assert [label for _, label, _ in app.menu_entries(top, "")][:4] == ["Spielen", "Zeit", "Spieler", "Sprache"]
    assert app.menu_entries(top, "play")[0][1:] == ("Timer", True)  # what is shown is marked
    assert app.current_value(top, "players") == "4" and app.current_value(top, "language") == "DE"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_game_being_played_is_listed_once_and_continues(lang: str) -> None:
    state = contexts(lang)["game"]
    title = "Quiddler"
    top = opened(state)
    labels = [label for path in MENUS for _, label, _ in app.menu_entries(top, path)]
    assert title not in labels  # not among the games to start: it is being played
    assert app.screen(app.step(top, Press(Button.START, 0.0))[0]).title == title  # over its play menu, once
    entries = {key: label for key, label, _ in app.menu_entries(top, "play")}
    assert entries["game:quiddler"] == {"de": "Neu beginnen", "en": "Start over"}[lang]  # a new game of it
    events = app.events_to_choose(state, {"de": "Weiterspielen", "en": "Keep playing"}[lang], 0.0)
    assert events is not None
    for event in events:
        state = app.step(state, event)[0]
    assert state.overlay is None and state.home == "game" and state.flow is not None


def every_menu(top: app.AppState) -> Iterator[tuple[app.AppState, int]]:
    """Each menu reachable from the top with each of its entries under the cursor, and how deep it is."""
    frontier = [(top, 0)]
    seen = {top.overlay}
    while frontier:
        state, depth = frontier.pop(0)
        menu = state.overlay
        assert isinstance(menu, app.MenuView)
        for cursor in range(len(app.menu_entries(state, menu.path))):
            on = replace(state, overlay=replace(menu, cursor=cursor))
            yield on, depth
            after, _ = app.step(on, Press(Button.START, 0.0))
            if isinstance(after.overlay, app.MenuView) and after.overlay.path != menu.path:
                opened_menu = replace(after.overlay, cursor=0)
                if opened_menu not in seen:
                    seen.add(opened_menu)
                    frontier.append((replace(after, overlay=opened_menu, notice=""), depth + 1))


def test_every_menu_goes_back_up_and_out_and_every_entry_can_be_left() -> None:
    for name, state in contexts("de").items():
        for on, depth in every_menu(opened(state)):
            up = on
            for _ in range(depth + 1):
                up = app.step(up, Press(Button.BACK, 0.0))[0]
            assert up.overlay is None, (name, describe(app.screen(on)))
            after, _ = app.step(on, Press(Button.START, 0.0))
            for _ in range(depth + 3):  # what the entry opened, then the menus above it
                if after.overlay is None:
                    break
                after = app.step(after, Press(Button.BACK, 0.0))[0]
            assert after.overlay is None, (name, under_cursor(on), describe(app.screen(after)))


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", SIZES, ids=["128x64", "256x64"])
def test_no_menu_page_cuts_a_word(lang: str, size: tuple[int, int]) -> None:
    cut = []
    for name, state in contexts(lang).items():
        for on, _ in every_menu(opened(state)):
            if isinstance(on.overlay, app.MenuView) and on.overlay.path == "shelf":  # players' names: paged by phrase
                continue
            shown = app.screen(on)
            if render.pages(shown, size) != 1 or render.lost(shown, size):
                cut.append((name, describe(shown)))
    assert not cut, "\n".join(f"{name}: {text}" for name, text in sorted(set(cut)))


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", SIZES, ids=["128x64", "256x64"])
def test_the_turn_timers_times_keep_every_row_whole_in_each_timing(lang: str, size: tuple[int, int]) -> None:
    """Zugzeit's own menu of times (its setup's second screen), each timing in turn: every row and the title
    whole (the footer's hint is the layout's to page)."""
    state = _table(lang, "choose " + {"de": "Zugzeit", "en": "Turn timer"}[lang] + "\npress start")
    timings = set()
    for _ in range(len(table.TURN_MODES)):
        shown = replace(app.screen(state), footer="")
        timings.add(describe(shown))
        assert render.pages(shown, size) == 1 and not render.lost(shown, size), describe(shown)
        state = app.step(state, Press(Button.START, 0.0))[0]  # the next timing
    assert len(timings) == len(table.TURN_MODES)
