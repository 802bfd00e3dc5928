"""What each seat's table page shows: a pure function of the appliance's state.

`page_views(state)` is what the shell publishes after every step for the page server: one JSON text per
seat (index = seat, in `app.table_players` order) and one for a page without a seat, plus what the table
asks of the server (`PageState`). The page adds no game logic: it shows these views and sends entries.

The texts are made when first asked for, each at most once per step: publishing costs the shell's step
nothing, and a seat no page shows is never built. What all seats share (the timer, the board, what the box
is busy with, the controls) is built and serialised once; each seat adds its own part (the flow's page for
it). The page never shows the OLED's text: where the box is busy with something the phone has no part in
(its menu, a game being set up, the QR code), `at_table` says so in the players' words.
Parts whose text is known (`core.view_json`: the names, the board, a game's remembered parts such as its
sheet) are not written again. Views that show what the views before them showed take their texts over
(`PageViews.follow`): a flow's page is a function of the flow and of what it may know (`Ctx`) but the clock.

A running timer is given by its monotonic `deadline` (stable while it runs, so a tick changes no view);
the server sends its own monotonic time with every view and the page counts down locally from
`deadline - now`. A stopped timer gives its time `left`. Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeGuard

from firmware_host.core import app
from firmware_host.core.app.state import ConfirmLeave, ConfirmPowerOff, DurationEdit, MenuView
from firmware_host.core.flow import Ctx, ShowsPage
from firmware_host.core.games import registry
from firmware_host.core.i18n import texts
from firmware_host.core.memo import remembers
from firmware_host.core.page_table import ConfirmSeat, PageShow, PageState, claimed_name
from firmware_host.core.scoreboard import Board
from firmware_host.core.settings import Settings
from firmware_host.core.table.page_parts import spoken
from firmware_host.core.view_json import KnownDict, KnownList, known_dict, known_list
from firmware_host.core.view_json import dumps as _dumps

TEXT = {
    "de": {
        "menu": "Am Tisch ist gerade das Menü offen.",
        "page": "Am Tisch wird der QR-Code zum Mitspielen gezeigt.",
        "claim": "Am Tisch wird gefragt, ob ein Handy den Platz von {name} übernimmt.",
        "power": "Am Tisch wird gefragt, ob die Box ausgeschaltet wird.",
        "leave": "Am Tisch wird gefragt, ob das Spiel verlassen wird.",
        "duration": "Am Tisch wird die Zeit der Sanduhr eingestellt.",
        "setup": "{game} wird am Tisch eingerichtet: Spieler, wer beginnt, Optionen.",
        "game": "Am Tisch läuft {game}.",
    },
    "en": {
        "menu": "The box's menu is open at the table.",
        "page": "The box shows the QR code to join.",
        "claim": "The box asks whether a phone takes over {name}'s seat.",
        "power": "The box asks whether to switch off.",
        "leave": "The box asks whether to leave the game.",
        "duration": "The sand timer's time is being set at the box.",
        "setup": "{game} is being set up at the box: players, who starts, options.",
        "game": "{game} is on at the table.",
    },
}

say = texts(TEXT)


class PageViews:
    """The published, read-only view of one state: `seat(i)` is seat i's view as JSON text (`seats` all of
    them), `person(id)` the view of a person's phone (their seat's; `people` is each seat's person),
    `guest` a seatless one; each is made at its first use and kept. Safe to read from any thread
    (the state is immutable; two threads asking at once at worst make the same text twice)."""

    __slots__ = ("_like", "_shared", "_state", "_texts", "game", "lang", "page", "people", "players")

    def __init__(self, state: app.AppState) -> None:
        self._state = state
        self.players: tuple[str, ...] = app.table_players(state)
        self.people: tuple[int, ...] = state.roster.ids_of(self.players)  # per seat its person's id (-1: none)
        self.page: PageState = state.page
        self.lang: str = state.settings.lang
        self.game: str | None = state.flow.game if state.flow is not None else None  # None: no game
        self._shared: tuple[_Fragments, Ctx] | None = None
        self._like: _Fragments | None = None  # the first seat's play, serialised: the others share most of it
        self._texts: dict[int | None, str] = {}

    def seat(self, seat: int | None) -> str:
        """Seat `seat`'s view (None: the guest's)."""
        text = self._texts.get(seat)
        if text is None:
            common, ctx = self._common()
            part = _seat_part(self._state, seat, self.players, ctx)
            play = part["play"]
            if self._like is None and isinstance(play, dict) and all(isinstance(key, str) for key in play):
                self._like = _Fragments(play)
            text = self._texts[seat] = common.merged(part, self._like)
        return text

    def follow(self, before: PageViews) -> None:
        """Take over the texts of `before` (the views published just before these) when they show the same:
        the flow the very same value, what it may know the same but for the clock, the shared part equal.
        So a tick, which changes no view, makes no text again."""
        if self._texts or not before._texts or before._state.flow is not self._state.flow:
            return
        if _unclocked(app.ctx(before._state)) != _unclocked(app.ctx(self._state)):
            return
        if self._common()[0].pairs != before._common()[0].pairs:
            return
        self._like, self._texts = before._like, before._texts

    def person_seat(self, person: int) -> int | None:
        """Person `person`'s seat in the game or mode open (None: the person does not play in it)."""
        return self.people.index(person) if person >= 0 and person in self.people else None

    def person(self, person: int) -> str:
        """The view of person `person`'s phone: their seat's, or — when they do not play in the game open —
        a seatless one that names them ("absent": true, `person_id`, `person_name`)."""
        seat = self.person_seat(person)
        if seat is not None:
            return self.seat(seat)
        found = self._state.roster.person(person)
        common, ctx = self._common()
        part = {**_seat_part(self._state, None, self.players, ctx), "absent": True,
                "person_id": person, "person_name": found.name if found is not None else None}
        return common.merged(part, self._like)

    @property
    def guest(self) -> str:
        return self.seat(None)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.seat(seat) for seat in range(len(self.players)))

    def _common(self) -> tuple[_Fragments, Ctx]:
        if self._shared is None:
            state = self._state
            self._shared = (_Fragments(_common(state, self.players)), app.ctx(state))
        return self._shared


def _unclocked(ctx: Ctx) -> Ctx:
    """`ctx` without the clock: a flow's page does not depend on it (the page counts down itself)."""
    return replace(ctx, now=0.0, timer_left=0.0)


def page_views(state: app.AppState) -> PageViews:
    """The views of `state` (made when asked for)."""
    return PageViews(state)


def page_view(state: app.AppState, seat: int | None) -> dict[str, Any]:
    """One seat's view as data (what `page_views` serialises)."""
    players = app.table_players(state)
    return {**_common(state, players), **_seat_part(state, seat, players)}


class _Fragments:
    """A view's values serialised one by one, so that views that share them serialise them once: an object
    written from its fragments (`"key":value`) in key order is the text `_dumps` gives the whole object."""

    __slots__ = ("_orders", "data", "pairs")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.pairs = {key: _pair(key, value) for key, value in data.items()}
        self._orders: dict[tuple[str, ...], list[str]] = {}  # per keys of a part: the keys of the merged

    def merged(self, part: dict[str, Any], like: _Fragments | None) -> str:
        """The text of this object updated with `part`; `part`'s "play" reuses the texts of `like`'s values
        it equals (a game's sheet is the same on every seat)."""
        texts = {key: f"{_dumps(key)}:{_object(value, like)}" if key == "play" and isinstance(value, dict)
                 else _pair(key, value) for key, value in part.items()}
        keys = tuple(texts)
        order = self._orders.get(keys)
        if order is None:
            order = self._orders[keys] = sorted({*self.pairs, *keys})
        pairs = self.pairs
        return "{" + ",".join([texts[key] if key in texts else pairs[key] for key in order]) + "}"


def _pair(key: str, value: Any) -> str:
    return f"{_dumps(key)}:{_dumps(value)}"


def _object(data: dict[str, Any], like: _Fragments | None) -> str:
    """`data`'s text, with the texts of `like`'s values it equals (`like`'s keys are all texts)."""
    if like is None:
        return _dumps(data)
    same, pairs = like.data, like.pairs
    texts = {}
    for key, value in data.items():
        if key in same and (same[key] is value or same[key] == value):
            texts[key] = pairs[key]
        elif isinstance(key, str):
            texts[key] = _pair(key, value)
        else:
            return _dumps(data)
    return _join(texts)


def _join(pairs: dict[str, str]) -> str:
    return "{" + ",".join([pairs[key] for key in sorted(pairs)]) + "}"


def _common(state: app.AppState, players: tuple[str, ...]) -> dict[str, Any]:
    timer, flow = state.timer, state.flow
    countdown = timer.countdown
    kit = registry.kit(flow.game) if flow is not None else None
    board = state.board
    return {
        "lang": state.settings.lang,
        "players": _names(players),
        "at_table": _at_table(state, players),
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
        "board": _board(board),
        "controls": _controls(state),
        "notice": spoken(state.notice),
    }


_CONTROLS: list[tuple[Settings, bool, KnownDict]] = []  # the last controls made, and of what


def _controls(state: app.AppState) -> KnownDict:
    """`app.page_controls(state)`, remembered for what they are made of: the settings (their labels and
    choices) and whether a game is on (without one, the timer's lengths)."""
    settings, playing = state.settings, state.flow is not None
    last = _CONTROLS[0] if _CONTROLS else None
    if last is not None and last[0] is settings and last[1] == playing:
        return last[2]
    controls = known_dict(app.page_controls(state))
    _CONTROLS[:] = [(settings, playing, controls)]
    return controls


@remembers(4)
def _names(players: tuple[str, ...]) -> KnownList:
    return known_list(players)


@remembers(4)
def _board(board: Board) -> KnownList:
    return known_list([{"name": n, "total": t} for n, t in zip(board.players, board.totals, strict=True)])


def _title(game: str, lang: str) -> str:
    kit = registry.kit(game)
    return kit.name(lang) if kit is not None else game


def _at_table(state: app.AppState, players: tuple[str, ...]) -> str:
    """What the box is busy with that the phone has no part in, in the players' words ("": nothing — the
    phone shows the timer, the scoreboard or the game's own view)."""
    lang, overlay, flow = state.settings.lang, state.overlay, state.flow
    if isinstance(overlay, ConfirmSeat):
        return say(lang, "claim", name=overlay.name)
    if isinstance(overlay, PageShow):
        pending = state.page.pending
        return say(lang, "claim", name=claimed_name(pending[0][0], players)) if pending else say(lang, "page")
    if flow is not None and _shows_page(flow) and state.home == "game":
        return ""  # the game's own view, also below the menu
    words = {MenuView: "menu", ConfirmPowerOff: "power", ConfirmLeave: "leave", DurationEdit: "duration"}
    key = words.get(type(overlay)) if overlay is not None else None
    if key is not None:
        return say(lang, key)
    if flow is not None and not _shows_page(flow):
        return say(lang, "game", game=_title(flow.game, lang))
    return ""


def _seat_part(state: app.AppState, seat: int | None, players: tuple[str, ...],
               ctx: Ctx | None = None) -> dict[str, Any]:
    flow = state.flow
    play = flow.page(seat, ctx or app.ctx(state)) if _shows_page(flow) else None
    message = play.get("message") if play is not None else None
    if play is not None and isinstance(message, str) and spoken(message) != message:
        play = {**play, "message": spoken(message)}  # the page never names the box's keys
    name = players[seat] if seat is not None and 0 <= seat < len(players) else None
    person = state.roster.named(name) if name is not None else None
    person = person if person is not None and person.name == name else None
    part = {
        "seat": seat,
        "name": name,
        "person_id": person.id if person is not None else None,  # the person the phone belongs to
        "person_name": person.name if person is not None else None,
        "play": play,
    }
    if flow is not None and play is not None and play.get("stage") == "setup" and state.overlay is None:
        part["at_table"] = say(state.settings.lang, "setup", game=_title(flow.game, state.settings.lang))
    return part


_PAGED: dict[type, bool] = {}  # per flow type (a handful): whether it is a `ShowsPage`


def _shows_page(flow: object) -> TypeGuard[ShowsPage]:
    """`isinstance(flow, ShowsPage)`, asked once per type of flow (a protocol's check is slow)."""
    kind = type(flow)
    paged = _PAGED.get(kind)
    if paged is None:
        paged = _PAGED[kind] = isinstance(flow, ShowsPage)
    return paged
