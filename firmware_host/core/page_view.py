"""What each seat's table page shows: a pure function of the appliance's state.

`page_views(state)` is what the shell publishes after every step for the page server: one JSON text per
seat (index = seat, in `app.table_players` order) and one for a page without a seat, plus what the table
asks of the server (`PageState`). The page adds no game logic: it shows these views and sends entries.

A running timer is given by its monotonic `deadline` (stable while it runs, so a tick changes no view);
the server sends its own monotonic time with every view and the page counts down locally from
`deadline - now`. A stopped timer gives its time `left`. Pure: no I/O, no clock.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from firmware_host.core import app
from firmware_host.core.flow import ShowsPage
from firmware_host.core.games import registry
from firmware_host.core.page_table import PageState
from firmware_host.core.screens import BigScreen, Screen, TurnScreen, describe


@dataclass(frozen=True, slots=True)
class PageViews:
    """The published, read-only view: `seats[i]` is seat i's view as JSON text, `guest` a seatless one."""

    seats: tuple[str, ...]
    guest: str
    players: tuple[str, ...]
    page: PageState
    lang: str
    game: str | None = None  # the game in play (None: the table without a game)


def page_views(state: app.AppState) -> PageViews:
    players = app.table_players(state)
    common = _common(state, players)
    seats = tuple(_text({**common, **_seat_part(state, seat, players)}) for seat in range(len(players)))
    guest = _text({**common, **_seat_part(state, None, players)})
    game = state.flow.game if state.flow is not None else None
    return PageViews(seats, guest, players, state.page, state.settings.lang, game)


def page_view(state: app.AppState, seat: int | None) -> dict[str, Any]:
    """One seat's view as data (what `page_views` serialises)."""
    players = app.table_players(state)
    return {**_common(state, players), **_seat_part(state, seat, players)}


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _common(state: app.AppState, players: tuple[str, ...]) -> dict[str, Any]:
    timer, flow = state.timer, state.flow
    countdown = timer.countdown
    kit = registry.kit(flow.game) if flow is not None else None
    board = state.board
    return {
        "lang": state.settings.lang,
        "players": list(players),
        "screen": _screen_text(app.screen(state)) if not isinstance(flow, ShowsPage) else None,
        "home": state.home,
        "game": flow.game if flow is not None else None,
        "game_title": kit.name(state.settings.lang) if kit is not None else None,
        "timer": {
            "running": timer.running,
            "alarmed": timer.alarmed,
            "duration": countdown.duration,
            "deadline": countdown.deadline,
            "left": None if timer.running else countdown.left(state.now),
        },
        "board": [{"name": n, "total": t} for n, t in zip(board.players, board.totals, strict=True)],
        "controls": app.page_controls(state),
        "notice": state.notice,
    }


def _screen_text(screen: Screen) -> str:
    """The OLED's screen as text for a game the page knows no more of; without a clock's value, which the
    page shows itself (so a tick changes no view)."""
    if isinstance(screen, BigScreen):
        return " | ".join(part for part in (screen.title, screen.footer) if part)
    if isinstance(screen, TurnScreen):
        return " | ".join(part for part in (screen.title, screen.status, screen.footer) if part)
    return describe(screen)


def _seat_part(state: app.AppState, seat: int | None, players: tuple[str, ...]) -> dict[str, Any]:
    flow = state.flow
    play = flow.page(seat, app.ctx(state)) if isinstance(flow, ShowsPage) else None
    part = {
        "seat": seat,
        "name": players[seat] if seat is not None and 0 <= seat < len(players) else None,
        "play": play,
    }
    if play is not None and play.get("stage") == "setup":  # nothing of the game yet: what the OLED asks
        part["screen"] = describe(app.screen(state))
    return part
