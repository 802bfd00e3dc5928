"""The appliance's state machine: modes, menu, timer and scoreboard.

`step(state, event) -> (state, effects)` is pure. Every event ends with the current view: the screen,
the LED bar level and the next time the core wants a `Tick` (None: nothing runs, sleep until input).
Buttons: START starts/pauses/resumes the timer (long: flip), NEXT moves on, BACK resets/undoes/leads
out, MENU opens the menu (long: power off); a fitted TURN button starts/pauses the timer like START. In
the menu NEXT moves, START chooses, BACK goes up a level. A game that keeps time (the turn timer) owns the
timer while it is on screen: leaving it pauses its clock and gives the sand timer back.

Typed lines: a screen waiting for one (`entry_field`) gets the letter picker (`core.text_picker`): by
itself where text is the only input, else from the menu's first entries ("Buchstaben: …"); while it is
open the buttons pick letters and a long START hands the line to the screen. A keyboard's line in the
making (`Typing`) is shown in the footer (or the picker) as it is typed; it decides nothing.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from firmware_host.core.alarm import ALARM_CHOICES, Ringing
from firmware_host.core.app_text import TEXT
from firmware_host.core.effects import (
    Beep,
    BeginGame,
    Effect,
    EndGame,
    Keep,
    Log,
    PowerOff,
    SaveSettings,
    SetBar,
    Show,
    WakeAt,
)
from firmware_host.core.events import (
    TROUBLES,
    BestRevealed,
    Button,
    CardRemoved,
    CardScan,
    Event,
    Kept,
    LongPress,
    Notice,
    PageInfo,
    Press,
    ReaderStatus,
    Resumed,
    SeatClaim,
    SeatCommand,
    SeatEntry,
    SeatJoin,
    TextEntry,
    Tick,
    Trouble,
    Turn,
    Typing,
    WordsChecked,
    canonical_json,
    event_time,
)
from firmware_host.core.flow import (
    Asks,
    Ctx,
    Flow,
    KeepsTime,
    Outcome,
    PauseTimer,
    ResetTimer,
    SetTimer,
    StartTimer,
    TakesSeats,
)
from firmware_host.core.games import registry
from firmware_host.core.games.kit import GameKit
from firmware_host.core.i18n import LANGUAGES, pick, signed
from firmware_host.core.page_table import JOINS_KEPT, ConfirmSeat, PageShow, PageState, page_event, page_screen
from firmware_host.core.page_table import t as page_text
from firmware_host.core.scoreboard import Board, player_names
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.settings import (
    BLANK_CHOICES,
    CONTRAST_CHOICES,
    DIM_CHOICES,
    GAME_TURN_CHOICES,
    MAX_DURATION_S,
    MAX_PLAYERS,
    MIN_DURATION_S,
    MIN_PLAYERS,
    REVEAL_CHOICES,
    WARN_CHOICES,
    Settings,
)
from firmware_host.core.sounds import VOLUMES
from firmware_host.core.text_field import TextField, too_long, typed
from firmware_host.core.text_input import CODE, LINE, NAME, TextRefused, clean, refusal
from firmware_host.core.text_picker import Picker
from firmware_host.core.timer import Timer, format_seconds, parse_duration

HOME_MODES = ("timer", "scoreboard")
TYPING_SHOWN = 200  # the most of a keyboard's line in the making that the state holds
ENTRY_SHOWN = 18  # the last characters of a typed line that the footer shows
UNSAVED_MARK = "!"
UNSAVED_REASONS = ("full", "readonly", "error")  # the shell's words for why the journal failed
MAIN_MENU = (
    "timer", "scoreboard", "players", "duration", "game_turn", "reveal", "warn", "alarm", "volume", "contrast", "dim",
    "blank", "language", "power_off",
)


@dataclass(frozen=True, slots=True)
class MenuView:
    """The menu, open over the home mode: `path` is the submenu ("" for the main menu)."""

    path: str = ""
    cursor: int = 0


@dataclass(frozen=True, slots=True)
class DurationEdit:
    """Setting a custom timer length."""

    seconds: int


@dataclass(frozen=True, slots=True)
class ConfirmPowerOff:
    pass


Overlay = MenuView | DurationEdit | ConfirmPowerOff | PageShow | ConfirmSeat


@dataclass(frozen=True, slots=True)
class AppState:
    settings: Settings
    timer: Timer
    board: Board
    home: str = "timer"  # timer | scoreboard | game
    left_home: str = "timer"  # the home mode the open game was started from: where its end returns
    overlay: Overlay | None = None
    flow: Flow | None = None
    kept: tuple[tuple[str, str], ...] = ()  # what the shell keeps: (name, canonical JSON), sorted (`Kept`)
    notice: str = ""
    now: float = 0.0
    unsaved: bool = False  # the journal cannot be written: every screen's title is marked (`UNSAVED_MARK`)
    page: PageState = field(default_factory=PageState)  # the table page (`core.page_table`)
    ringing: Ringing | None = None  # the end alarm rings on (until a button or `Settings.alarm_s`)
    picker: Picker | None = None  # the letter picker, open for the field on screen (`entry_field`)
    typing: str = ""  # the keyboard's line in the making (`Typing`): shown, never decided on


def initial(settings: Settings, now: float = 0.0) -> tuple[AppState, list[Effect]]:
    """The state the appliance boots into (timer mode) and the effects that draw it."""
    names = player_names(settings.player_names, settings.player_count, _t(settings, "player_n"))
    state = AppState(settings, Timer.of(settings.duration_s, settings.warn_s), Board.of(names), now=now)
    return state, view(state)


def step(state: AppState, event: Event) -> tuple[AppState, list[Effect]]:
    """Apply one event; return the new state and the effects to carry out, ending with the view."""
    state, effects = _advance(state, event)
    return state, effects + view(state)


def fold(state: AppState, event: Event) -> AppState:
    """The state `step` returns, without computing the view or anything else only a live table needs
    (what a resume replays)."""
    return _advance(state, event)[0]


def _advance(state: AppState, event: Event) -> tuple[AppState, list[Effect]]:
    """Apply one event: the new state and the effects it causes, without the view."""
    if isinstance(event, Resumed):
        state, effects = _resumed(state, event.at, event.off_s)
        return state, effects
    if isinstance(event, Typing):  # shown only: neither the clock nor anything else moves on it
        state = replace(state, typing=event.text[:TYPING_SHOWN])
        return state, []
    before = state
    now = max(state.now, event_time(event))
    state = replace(state, now=now, typing="" if isinstance(event, TextEntry) else state.typing)
    timer, effects = state.timer.tick(now, state.settings.volume)
    alarm = timer.alarmed and not state.timer.alarmed
    was_ringing = state.ringing is not None
    state = replace(state, timer=timer)
    if alarm:  # a stale notice ("Umgedreht") must not stand beside "Zeit!"
        state = replace(state, notice="")
        if not timer.count_on:  # a turn clock runs on past zero: its alarm sounds once, no press is lost
            state = replace(state, ringing=Ringing.of(now, state.settings.alarm_s))
    if alarm and state.flow is not None:
        state, more = _apply(state, state.flow.timer_over(ctx(state)))
        effects += more
    state, more, silenced = _ring(state, event, was_ringing)
    effects += more
    if silenced:
        return state, effects
    checked = edge_checked(event)
    if isinstance(checked, TextRefused):
        state, more = _refuse(state, checked.text(state.settings.lang))
        return state, effects + more
    event = checked
    if isinstance(event, Tick):
        pass
    elif isinstance(event, LongPress) and event.button is Button.MENU:
        state = replace(state, overlay=ConfirmPowerOff(), notice="")
    elif isinstance(event, ReaderStatus):
        key = "reader_back" if event.present else "reader_missing"
        state = replace(state, notice=_t(state.settings, key, reader=event.reader))
        effects.append(Log(state.notice, "INFO" if event.present else "WARNING"))
    elif isinstance(event, Notice):
        state = replace(state, notice=event.text)
    elif isinstance(event, Trouble):
        state = _trouble(state, event)
        effects.append(Log(state.notice, "WARNING"))
    elif isinstance(event, Kept):
        state = replace(state, kept=event.items)
    elif isinstance(event, PageInfo):
        state = replace(state, page=replace(state.page, address=event.address, code=event.code))
    elif isinstance(event, SeatClaim):
        state, more = _seat_claim(state, event)
        effects += more
    elif isinstance(event, SeatJoin):
        state, more = _seat_join(state, event)
        effects += more
    elif isinstance(event, SeatCommand):  # a phone's control: the timer, the free scoreboard, the settings
        state, more = _seat_command(state, event)
        effects += more
    elif isinstance(event, SeatEntry):  # a phone: its seat's entry, whatever the box shows
        state, more = _seat_entry(state, event)
        effects += more
    elif isinstance(event, WordsChecked | BestRevealed):  # an answer for the game, wherever the table is looking
        if state.flow is not None:
            state, more = _apply(state, state.flow.handle(event, ctx(state)))
            effects += more
    elif isinstance(event, CardRemoved):
        pass
    elif isinstance(event, CardScan) and not (state.home == "game" and state.flow and state.overlay is None):
        state, more = _refuse(state, _t(state.settings, "card_not_expected", code=event.code))
        effects += more
    elif isinstance(event, LongPress) and event.button is Button.BACK and state.overlay is None and (
        state.home == "game" or (state.home == "timer" and state.flow is not None)
    ):
        state, more = _go_home(replace(state, notice=""), "timer" if state.home == "game" else "game")
        effects += more
    elif state.overlay is not None:
        state, more = _overlay_event(state, state.overlay, event)
        effects += more
    else:
        state, more = _home_event(state, event)
        effects += more
    state = _settled(before, state)
    return state, effects


def _ring(state: AppState, event: Event, was_ringing: bool) -> tuple[AppState, list[Effect], bool]:
    """The ringing alarm, in every mode and game: ends when its time is over or the timer is started
    again; any button (a press, a long press, a turn) that comes while it rang only silences it (True: the
    event is used up); a typed line or a scanned card silences it and counts as well (it is not lost);
    otherwise the alarm sounds again when due. "Zeit!" stays on screen either way."""
    ringing, now = state.ringing, state.now
    if ringing is None:
        return state, [], False
    if ringing.over(now) or not state.timer.alarmed:
        return replace(state, ringing=None), [], False
    if was_ringing and isinstance(event, (Press, LongPress, Turn)):
        return replace(state, ringing=None), [Log("alarm silenced at the table")], True
    if was_ringing and isinstance(event, (TextEntry, CardScan)):
        return replace(state, ringing=None), [Log("alarm silenced at the table")], False
    if ringing.due(now):
        return replace(state, ringing=ringing.rang(now)), [Beep("alarm", state.settings.volume)], False
    return state, [], False


def _home_event(state: AppState, event: Event) -> tuple[AppState, list[Effect]]:
    """An event for the screen below the menu: the letter picker when it is open, else the game, the
    scoreboard or the timer."""
    picker = active_picker(state)
    if picker is not None and _picks(event):
        return _picker_event(state, picker, event)
    if isinstance(event, TextEntry):
        state = replace(state, picker=None)  # a line came from elsewhere: the picker is done
    if state.home == "game" and (flow := state.flow) is not None:
        if isinstance(event, Press) and event.button is Button.MENU:
            return replace(state, overlay=MenuView(), notice=""), []
        return _apply(replace(state, notice=""), flow.handle(event, ctx(state)))
    if state.home == "scoreboard":
        return _scoreboard_event(state, event)
    return _timer_event(state, event)


# --- typed lines and the letter picker ---------------------------------------------------------------


def field_below(state: AppState) -> TextField | None:
    """The typed line the screen below the menu waits for: the game's field, or on the free scoreboard a
    name or points for the selected player; None elsewhere (the timer takes its length by the buttons)."""
    if state.home == "game" and state.flow is not None:
        return state.flow.text_field(ctx(state))
    if state.home == "scoreboard":
        name = state.board.players[state.board.selected]
        return TextField(_t(state.settings, "board_field", name=name), "name", NAME.limit)
    return None


def entry_field(state: AppState) -> TextField | None:
    """The typed line the screen on display waits for (None while the menu is open or none is wanted)."""
    return field_below(state) if state.overlay is None else None


def active_picker(state: AppState) -> Picker | None:
    """The letter picker taking the buttons now: the one opened for the field on display, or a fresh one
    where text is the field's only input."""
    field = entry_field(state)
    if field is None:
        return None
    if state.picker is not None:
        return state.picker
    return Picker(field) if field.only else None


def _settled(before: AppState, state: AppState) -> AppState:
    """A picker whose field has gone (another screen, another player's word) is closed; the alarm stops
    ringing when the event started the timer again (a game's next turn); an open menu that the event
    left alone stays on its entry when entries came or went beside it (the table page's, as the page
    starts or stops; the letters', as a game's field comes or goes)."""
    if state.ringing is not None and not state.timer.alarmed:
        state = replace(state, ringing=None)
    menu = state.overlay
    if isinstance(menu, MenuView) and menu is before.overlay:
        keys = [key for key, _, _ in menu_entries(state, menu.path)]
        was = [key for key, _, _ in menu_entries(before, menu.path)]
        on = was[menu.cursor] if menu.cursor < len(was) else None
        cursor = keys.index(on) if on in keys else min(menu.cursor, len(keys) - 1)
        if cursor != menu.cursor:
            state = replace(state, overlay=replace(menu, cursor=cursor))
    if state.picker is not None and state.picker.field != field_below(state):
        return replace(state, picker=None)
    return state


def _picks(event: Event) -> bool:
    """Whether the open picker takes `event` (MENU and the app's long presses stay the app's)."""
    if isinstance(event, Turn):
        return True
    if isinstance(event, Press):
        return event.button is not Button.MENU
    if isinstance(event, LongPress):
        return event.button in (Button.NEXT, Button.START, Button.ENCODER)
    return False


def _picker_event(state: AppState, picker: Picker, event: Event) -> tuple[AppState, list[Effect]]:
    cleared = replace(state, notice="")
    if isinstance(event, Turn):
        return replace(cleared, picker=picker.moved(event.steps)), []
    if isinstance(event, LongPress) and event.button is Button.NEXT:
        return replace(cleared, picker=picker.moved(-1)), []
    if isinstance(event, LongPress):  # START or the encoder's push: the line is done
        return _submit(cleared, picker, event.at)
    assert isinstance(event, Press)
    if event.button is Button.NEXT:
        return replace(cleared, picker=picker.moved(1)), []
    if event.button in (Button.START, Button.ENCODER):
        added = picker.added()
        return replace(cleared, picker=added), [Beep("error", state.settings.volume)] if added.full else []
    if picker.text:  # BACK takes the last letter off
        return replace(cleared, picker=picker.deleted()), []
    if picker.field.only:  # BACK on an empty line is the screen's BACK (undo)
        closed = replace(state, picker=None)
        if state.home == "game" and state.flow is not None:
            return _apply(replace(closed, notice=""), state.flow.handle(event, ctx(state)))
        return closed, []
    return replace(cleared, picker=None), []  # BACK on an empty line closes the picker


def _submit(state: AppState, picker: Picker, at: float) -> tuple[AppState, list[Effect]]:
    """The picked line handed to the screen as a typed line. Refused there: the picker stays open with
    the line, the reason in its footer."""
    checked = edge_checked(typed(picker.line(), at))
    if isinstance(checked, TextRefused):
        refused, effects = _refuse(state, checked.text(state.settings.lang))
        return replace(refused, picker=picker), effects
    after, effects = _home_event(replace(state, picker=None), checked)
    if any(isinstance(effect, Beep) and effect.pattern == "error" for effect in effects):
        return replace(after, picker=picker, notice=after.notice or _screen(after).footer), effects
    return after, effects


def _entry_line(state: AppState) -> str:
    """The footer while a line is typed on a keyboard: its end and a cursor, or that it is too long."""
    text = state.typing
    message = too_long(state.settings.lang, entry_field(state), text)
    if message is not None:
        return message
    return "› " + (text if len(text) <= ENTRY_SHOWN else "…" + text[-ENTRY_SHOWN + 1 :]) + "▏"


def edge_checked(event: Event) -> Event | TextRefused:
    """The event with its text normalised (`text_input.clean`: a typed line as a `LINE`, a card's reader and
    code as `CODE`s), or why it is refused. Every event passes here, so no other part of the core sees text
    that is not normalised — not even one replayed from a journal written before the edges checked it."""
    try:
        if isinstance(event, TextEntry | SeatEntry):
            return replace(event, text=clean(event.text, LINE))
        if isinstance(event, SeatCommand):
            return replace(event, command=clean(event.command, CODE), value=clean(event.value, LINE))
        if isinstance(event, SeatClaim):
            return replace(event, claim=clean(event.claim, CODE))
        if isinstance(event, SeatJoin):
            return replace(event, name=clean(event.name, LINE), claim=clean(event.claim, CODE))
        if isinstance(event, PageInfo):
            return replace(event, address=clean(event.address, CODE), code=clean(event.code, CODE))
        if isinstance(event, CardScan):
            return replace(event, reader=clean(event.reader, CODE), code=clean(event.code, CODE))
    except TextRefused as exc:
        return exc
    return event


def view(state: AppState) -> list[Effect]:
    """The screen, the LED bar and the next wake-up for `state` (a ringing alarm flashes the bar)."""
    ringing, now = state.ringing, state.now
    wake = state.timer.next_wake(now)
    if ringing is None:
        return [Show(screen(state)), SetBar(state.timer.bar_level(now)), WakeAt(wake)]
    ring_wake = ringing.next_wake(now)
    return [
        Show(screen(state)),
        SetBar(ringing.bar_level(now)),
        WakeAt(ring_wake if wake is None else min(wake, ring_wake)),
    ]


# --- events per mode -------------------------------------------------------------------------------


def _timer_event(state: AppState, event: Event) -> tuple[AppState, list[Effect]]:
    s, timer, now = state.settings, state.timer, state.now
    cleared = replace(state, notice="")
    if isinstance(event, Press):
        if event.button in (Button.START, Button.TURN):
            return _start_pause(cleared)
        if event.button is Button.BACK:
            if timer.running or not timer.countdown.is_full():
                return replace(cleared, timer=timer.reset()), []
            return _refuse(state, "")
        if event.button is Button.NEXT:
            if timer.running:
                return _refuse(state, _t(s, "timer_running"))
            return _set_duration(cleared, _next_preset(s))
        if event.button is Button.MENU:
            return replace(cleared, overlay=MenuView()), []
        return _refuse(state, "")
    if isinstance(event, LongPress):
        if event.button is Button.START:
            return replace(cleared, timer=timer.flip(now), notice=_t(s, "flipped")), []
        return _refuse(state, "")
    if isinstance(event, Turn):
        if timer.running:
            return _refuse(state, _t(s, "timer_running"))
        return _set_duration(cleared, _clamp_duration(s.duration_s + 5 * event.steps))
    if isinstance(event, TextEntry):
        if timer.running:
            return _refuse(state, _t(s, "timer_running"))
        seconds = parse_duration(event.text)
        if seconds is None:
            return _refuse(state, _t(s, "not_a_duration", text=event.text.strip()))
        if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
            return _refuse(state, _t(s, "duration_range", low=MIN_DURATION_S, high=MAX_DURATION_S))
        return _set_duration(cleared, seconds)
    return state, []


def _scoreboard_event(state: AppState, event: Event) -> tuple[AppState, list[Effect]]:
    s, board = state.settings, state.board
    cleared = replace(state, notice="")
    if isinstance(event, Press):
        if event.button is Button.START:
            return _add_points(cleared, 1)
        if event.button in (Button.NEXT, Button.ENCODER):
            return replace(cleared, board=board.select_next()), []
        if event.button is Button.BACK:
            last, undone = board.last_change, board.undo()
            if undone is None or last is None:
                return replace(cleared, overlay=MenuView(), notice=_t(s, "nothing_to_undo")), []
            player, points = last
            notice = _t(s, "undone", name=board.players[player], points=signed(points))
            return replace(cleared, board=undone, notice=notice), []
        if event.button is Button.MENU:
            return replace(cleared, overlay=MenuView()), []
    if isinstance(event, LongPress):
        if event.button is Button.START:
            return _add_points(cleared, -1)
        if event.button is Button.NEXT:
            return _start_pause(cleared)
        if event.button is Button.BACK:
            return replace(cleared, timer=state.timer.reset()), []
        return _refuse(state, "")
    if isinstance(event, Turn):
        return _add_points(cleared, event.steps)
    if isinstance(event, TextEntry):
        typed_points = parse_points(event.text)
        if typed_points is not None:
            return _add_points(cleared, typed_points)
        name = " ".join(event.text.split())
        if not any(ch.isalpha() for ch in name):
            return _refuse(state, _t(s, "not_a_number", text=event.text.strip()))
        refused = refusal(name, NAME)
        if refused is not None:  # a name the next start would not take back (`Settings.from_dict`)
            return _refuse(state, refused.text(s.lang))
        return _rename(cleared, name)
    return state, []


def _rename(state: AppState, name: str) -> tuple[AppState, list[Effect]]:
    """The selected player of the free scoreboard named `name`; the names are remembered."""
    board, s = state.board, state.settings
    old = board.players[board.selected]
    if name in board.players and name != old:
        return _refuse(state, _t(s, "name_taken", name=name))
    players = tuple(name if i == board.selected else p for i, p in enumerate(board.players))
    renamed = replace(state, board=replace(board, players=players), notice=_t(s, "renamed", old=old, name=name))
    return _with_settings(renamed, replace(s, player_names=players))


def _overlay_event(state: AppState, overlay: Overlay, event: Event) -> tuple[AppState, list[Effect]]:
    if isinstance(overlay, ConfirmPowerOff):
        if isinstance(event, Press) and event.button is Button.START:
            return replace(state, overlay=None), [Log("power off requested at the table"), PowerOff()]
        if isinstance(event, Press) and event.button in (Button.BACK, Button.MENU):
            return replace(state, overlay=None), []
        return _refuse(state, "")
    if isinstance(overlay, DurationEdit):
        return _duration_edit_event(state, overlay, event)
    if isinstance(overlay, PageShow | ConfirmSeat):
        done = page_event(state.page, overlay, event, state.settings.lang)
        if done is None:
            return _refuse(state, "")
        page, close, notice = done
        return replace(state, page=page, overlay=None if close else overlay, notice=notice), []
    return _menu_event(state, overlay, event)


def _menu_event(state: AppState, menu: MenuView, event: Event) -> tuple[AppState, list[Effect]]:
    items = menu_entries(state, menu.path)
    cleared = replace(state, notice="")
    if isinstance(event, Turn):
        return replace(cleared, overlay=replace(menu, cursor=(menu.cursor + event.steps) % len(items))), []
    if isinstance(event, Press):
        if event.button is Button.NEXT:
            return replace(cleared, overlay=replace(menu, cursor=(menu.cursor + 1) % len(items))), []
        if event.button in (Button.START, Button.ENCODER):
            return _choose(cleared, menu, items[menu.cursor][0])
        if event.button is Button.BACK:
            if menu.path:
                return replace(cleared, overlay=MenuView("", _main_index(state, menu.path))), []
            return replace(cleared, overlay=None), []
        if event.button is Button.MENU:
            return replace(cleared, overlay=None), []
    if isinstance(event, LongPress) and event.button is Button.NEXT:
        return replace(cleared, overlay=replace(menu, cursor=(menu.cursor - 1) % len(items))), []
    if isinstance(event, TextEntry):
        if not event.text:  # a keyboard's Enter on an empty line: the entry under the cursor, as START
            return _choose(cleared, menu, items[menu.cursor][0])
        return _refuse(state, _t(state.settings, "no_text_here"))
    return _refuse(state, "")


def _choose(state: AppState, menu: MenuView, key: str) -> tuple[AppState, list[Effect]]:
    s = state.settings
    if not menu.path:
        if key in HOME_MODES:
            return _go_home(state, key)
        if key == "continue":
            return _go_home(state, "game")
        if key == "letters" and (field := field_below(state)) is not None:
            return replace(state, overlay=None, picker=Picker(field)), []
        if key.startswith("game:"):
            return _new_game(state, key.removeprefix("game:"))
        if key == "power_off":
            return replace(state, overlay=ConfirmPowerOff()), []
        if key == "page":
            return replace(state, overlay=PageShow()), []
        entries = menu_entries(state, key)
        cursor = next((i for i, (_, _, marked) in enumerate(entries) if marked), 0)
        return replace(state, overlay=MenuView(key, cursor)), []
    back = MenuView("", _main_index(state, menu.path))
    if menu.path == "duration":
        if key == "custom":
            return replace(state, overlay=DurationEdit(s.duration_s)), []
        state, effects = _set_duration(state, int(key))
        return replace(state, overlay=back), effects
    if menu.path == "warn":
        settings = replace(s, warn_s=int(key))
        timer = state.timer.with_warning(settings.warn_s, state.now)
        return _with_settings(replace(state, timer=timer, overlay=back), settings)
    if menu.path == "alarm":
        return _with_settings(replace(state, overlay=back), replace(s, alarm_s=int(key)))
    if menu.path == "contrast":
        return _with_settings(replace(state, overlay=back), replace(s, contrast=int(key)))
    if menu.path == "dim":
        return _with_settings(replace(state, overlay=back), replace(s, dim_after_min=int(key)))
    if menu.path == "blank":
        return _with_settings(replace(state, overlay=back), replace(s, blank_after_min=int(key)))
    if menu.path == "volume":
        state, effects = _with_settings(replace(state, overlay=back), replace(s, volume=key))
        return state, [*effects, *([Beep("key", key)] if key != "off" else [])]
    if menu.path == "language":  # a seat's default name ("Spieler 3") is said in the new language too
        board = replace(state.board, players=_default_names_in(state.board.players, s.lang, key))
        settings = replace(s, lang=key, player_names=_default_names_in(s.player_names, s.lang, key))
        return _with_settings(replace(state, overlay=back, board=board), settings)
    if menu.path == "game_turn":
        return _with_settings(replace(state, overlay=back), replace(s, turns=replace(s.turns, game_turn_s=int(key))))
    if menu.path == "reveal":  # from the next game on (a game keeps the choice it began with)
        return _with_settings(replace(state, overlay=back), replace(s, reveal=key))
    if menu.path == "players":
        settings = replace(s, player_count=int(key))
        names = player_names(s.player_names, settings.player_count, _t(settings, "player_n"))
        return _with_settings(replace(state, board=state.board.resized(names), overlay=back), settings)
    return state, []


def _duration_edit_event(state: AppState, edit: DurationEdit, event: Event) -> tuple[AppState, list[Effect]]:
    s = state.settings
    if isinstance(event, Turn):
        return replace(state, overlay=DurationEdit(_clamp_duration(edit.seconds + 5 * event.steps)), notice=""), []
    if isinstance(event, Press):
        if event.button is Button.NEXT:
            return replace(state, overlay=DurationEdit(_clamp_duration(edit.seconds + 15)), notice=""), []
        if event.button in (Button.START, Button.ENCODER):
            state, effects = _set_duration(replace(state, notice=""), edit.seconds)
            return replace(state, overlay=MenuView("", _main_index(state, "duration"))), effects
        if event.button in (Button.BACK, Button.MENU):
            return replace(state, overlay=MenuView("duration", 0), notice=""), []
    if isinstance(event, LongPress) and event.button is Button.NEXT:
        return replace(state, overlay=DurationEdit(_clamp_duration(edit.seconds - 15)), notice=""), []
    if isinstance(event, TextEntry):
        seconds = parse_duration(event.text)
        if seconds is None:
            return _refuse(state, _t(s, "not_a_duration", text=event.text.strip()))
        if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
            return _refuse(state, _t(s, "duration_range", low=MIN_DURATION_S, high=MAX_DURATION_S))
        return replace(state, overlay=DurationEdit(seconds), notice=""), []
    return _refuse(state, "")


# --- the table page ----------------------------------------------------------------------------------


def table_players(state: AppState) -> tuple[str, ...]:
    """The players at the table, in seat order: the game's (its setup's while it is set up), else the free
    scoreboard's. A phone's seat is an index into these."""
    players = getattr(state.flow, "players", None)
    if isinstance(players, tuple) and all(isinstance(p, str) for p in players):
        return players
    return state.board.players


def _seat_entry(state: AppState, event: SeatEntry) -> tuple[AppState, list[Effect]]:
    flow = state.flow
    if not isinstance(flow, TakesSeats):
        players = table_players(state)
        name = players[event.seat] if 0 <= event.seat < len(players) else str(event.seat + 1)
        return _refuse(state, _t(state.settings, "page_not_now", name=name))
    after, effects = _apply(replace(state, notice=""), flow.seat_entry(event.seat, event.text, ctx(state)))
    if any(isinstance(effect, Beep) and effect.pattern == "error" for effect in effects):
        reason = getattr(after.flow, "message", "") or ""
        effects.append(Log(f"phone of seat {event.seat + 1} refused: {reason or event.text!r}", "INFO"))
    return after, effects


PAGE_SETTINGS = {"lang": "language", "volume": "volume", "warn": "warn"}  # a phone's setting: its menu


def page_controls(state: AppState) -> dict[str, object]:
    """What a phone may set (`SeatCommand`), with the menu's own labels: per setting its title and options
    (key, label, chosen); without a game also the timer's lengths (the presets)."""
    settings: dict[str, object] = {command: {"title": _main_label(state, path), "options": menu_entries(state, path)}
                for command, path in PAGE_SETTINGS.items()}
    if state.flow is None:
        settings["length"] = {"title": _main_label(state, "duration"),
                              "options": [e for e in menu_entries(state, "duration") if e[0] != "custom"]}
    return settings


def _seat_command(state: AppState, event: SeatCommand) -> tuple[AppState, list[Effect]]:
    """A phone's control (`events.SeatCommand`), done as the box's own button or menu entry does it."""
    s, command, value = state.settings, event.command, event.value
    players = table_players(state)
    who = players[event.seat] if 0 <= event.seat < len(players) else str(event.seat + 1)
    bad = _t(s, "page_bad_value", name=who, value=value)
    cleared = replace(state, notice="")
    if command in PAGE_SETTINGS:
        path = PAGE_SETTINGS[command]
        if value not in [key for key, _, _ in menu_entries(state, path)]:
            return _refuse(state, bad)
        after, effects = _choose(cleared, MenuView(path), value)
        return replace(after, overlay=state.overlay), effects
    if state.flow is not None:
        return _refuse(state, _t(s, "page_game_on", name=who))
    timer, board = state.timer, state.board
    if command == "timer" and value in ("start", "flip", "reset"):
        if value == "start":
            return _start_pause(cleared)
        if value == "flip":
            return replace(cleared, timer=timer.flip(state.now), notice=_t(s, "flipped")), []
        return replace(cleared, timer=timer.reset()), []
    if command == "length":
        seconds = parse_duration(value)
        if timer.running:
            return _refuse(state, _t(s, "timer_running"))
        if seconds is None:
            return _refuse(state, _t(s, "not_a_duration", text=value))
        if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
            return _refuse(state, _t(s, "duration_range", low=MIN_DURATION_S, high=MAX_DURATION_S))
        return _set_duration(cleared, seconds)
    if command == "join":
        name = value if refusal(value, NAME) is None else ""
        if event.seat != len(board.players) or not name:
            return _refuse(state, bad)
        if len(board.players) >= MAX_PLAYERS:
            return _refuse(state, _t(s, "page_full", n=MAX_PLAYERS))
        if name in board.players:
            return _refuse(state, _t(s, "name_taken", name=name))
        names = (*board.players, name)
        settings = replace(s, player_count=len(names), player_names=names)
        joined = replace(cleared, board=board.resized(names), notice=_t(s, "page_joined", name=name))
        return _with_settings(joined, settings)
    if not 0 <= event.seat < len(board.players):
        return _refuse(state, bad)
    mine = replace(cleared, board=replace(board, selected=event.seat))
    if command == "points":
        points = parse_points(value)
        if points is None:
            return _refuse(state, _t(s, "page_bad_points", name=who, value=value))
        return _add_points(mine, points)
    if command == "name":
        refused = refusal(value, NAME)
        if refused is not None or not value.strip():
            return _refuse(state, refused.text(s.lang) if refused is not None else _t(s, "page_no_name", name=who))
        return _rename(mine, value)
    return _refuse(state, bad)


def _seat_join(state: AppState, event: SeatJoin) -> tuple[AppState, list[Effect]]:
    """A new player from a phone at the next free seat, as a "join" `SeatCommand` for that seat; which seat
    (-1: refused, the notice says why) goes out in `page.joined` for the page server."""
    seat = len(state.board.players)
    after, effects = _seat_command(state, SeatCommand(seat, "join", event.name, event.at))
    players = after.board.players
    got = seat if len(players) == seat + 1 and players[seat] == event.name else -1
    joined = (*after.page.joined, (event.claim, got))[-JOINS_KEPT:]
    return replace(after, page=replace(after.page, joined=joined)), effects


def _seat_claim(state: AppState, event: SeatClaim) -> tuple[AppState, list[Effect]]:
    players = table_players(state)
    if not 0 <= event.seat < len(players):
        return replace(state, page=replace(state.page, answered=(event.claim, False))), []
    confirm = ConfirmSeat(event.seat, players[event.seat], event.claim)
    return replace(state, overlay=confirm, notice=""), [Beep("key", state.settings.volume)]


# --- games at the table ----------------------------------------------------------------------------


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
    )


@lru_cache(maxsize=4)
def kept_items(kept: tuple[tuple[str, str], ...]) -> Mapping[str, Any]:
    """The kept items as name -> JSON data (read-only; parsed once per distinct `kept`)."""
    return MappingProxyType({name: json.loads(text) for name, text in kept})


def _apply(state: AppState, outcome: Outcome) -> tuple[AppState, list[Effect]]:
    """Carry a flow's outcome into the app: its next flow, its timer action and its effects."""
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
    state = replace(state, timer=timer, flow=outcome.flow)
    for effect in outcome.effects:
        if isinstance(effect, Keep):  # what is kept is in use at once, not only after a restart
            others = tuple(item for item in state.kept if item[0] != effect.name)
            state = replace(state, kept=tuple(sorted((*others, (effect.name, canonical_json(effect.data))))))
    effects.extend(outcome.effects)
    begun = next((effect for effect in outcome.effects if isinstance(effect, BeginGame)), None)
    if begun is not None and _named(begun.players):  # the same players again next time
        state, saved = _with_settings(state, replace(state.settings, player_names=begun.players))
        effects.extend(saved)
    if outcome.flow is None:
        state = replace(state, home=state.left_home, left_home="timer", overlay=MenuView())
        if isinstance(previous, KeepsTime):  # the sand timer again, not the last turn's clock
            state = _sand_timer(state)
    return state, effects


def _default_names_in(names: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    """`names` with each seat's default name in language `old` ("Spieler 3") put in language `new`."""
    return tuple(pick(TEXT, new, "player_n", n=i + 1) if name == pick(TEXT, old, "player_n", n=i + 1) else name
                 for i, name in enumerate(names))


def _named(players: tuple[str, ...]) -> bool:
    """Whether a game's players were given names (not only "Spieler 1", "Player 2" …)."""
    defaults = {pick(TEXT, lang, "player_n", n=n) for lang in LANGUAGES for n in range(1, MAX_PLAYERS + 1)}
    return bool(players) and not set(players) <= defaults


def _go_home(state: AppState, home: str) -> tuple[AppState, list[Effect]]:
    """Show another home mode (the menu closed). A flow that keeps time stops its clock when the table
    leaves it and sets the timer back to its clock when the table returns."""
    moved = replace(state, home=home, overlay=None)
    if (state.home == "game") == (home == "game") or not isinstance(state.flow, KeepsTime):
        return moved, []
    moved, effects = _apply(moved, state.flow.pause(ctx(moved)))
    if home != "game":  # the sand timer again while the game's clock waits
        moved = _sand_timer(moved)
    return moved, effects


def _sand_timer(state: AppState) -> AppState:
    """`state` with the sand timer set to its length again (after a game's clock had the timer)."""
    return replace(state, timer=Timer.of(state.settings.duration_s, state.settings.warn_s))


def _owns_timer(state: AppState) -> bool:
    """The timer shows the clock of the game on screen (the turn timer), not the sand timer's setting."""
    return state.home == "game" and isinstance(state.flow, KeepsTime)


def _new_game(state: AppState, game: str) -> tuple[AppState, list[Effect]]:
    chosen = registry.kit(game)
    if chosen is None:
        return _refuse(state, "")
    effects: list[Effect] = []
    if state.flow is not None:
        old = registry.kit(state.flow.game)
        effects.append(EndGame(None))
        state = replace(state, notice=_t(state.settings, "abandoned", game=_game_title(state, old)))
        if isinstance(state.flow, KeepsTime):  # its clock goes with it
            state = _sand_timer(state)
    flow = chosen.new_flow(ctx(state), state.settings.player_names)
    page = replace(state.page, games=state.page.games + 1)
    left = state.home if state.home in HOME_MODES else state.left_home
    return replace(state, flow=flow, home="game", left_home=left, overlay=None, page=page), effects


def can_snapshot(state: AppState) -> bool:
    """Whether `snapshot` holds all of `state` that matters: no game open, no menu, no letter picker open,
    the timer not running and its alarm not ringing (the press that silences it must replay as that)."""
    return (state.flow is None and state.overlay is None and state.picker is None and not state.timer.running
            and state.ringing is None)


def snapshot(state: AppState) -> dict[str, Any]:
    """What a journal session starts from: the settings, the home mode (timer or scoreboard), a stopped
    timer's time left, the free scoreboard (with its undo history), what the shell keeps (`Kept`: the
    card tables a later scan is read with) and the table page's address and code (the menu offers the
    page by them) — all that the events journaled after it are decided on."""
    countdown = state.timer.countdown
    return {
        "kept": [list(item) for item in state.kept],
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
    }


def restore(data: dict[str, Any]) -> AppState:
    """The state a journaled snapshot stands for (the inverse of `snapshot`): its home mode, a full timer.
    Raises KeyError/ValueError/TypeError/AttributeError on data that `snapshot` did not write."""
    settings = Settings.from_dict(data["settings"])
    board = data["board"]
    players = player_names(tuple(str(p) for p in board["players"]), len(board["players"]), _t(settings, "player_n"))
    totals = tuple(int(t) for t in board["totals"])
    history = tuple((int(p), int(d)) for p, d in board.get("history", ()))
    board_state = Board.restored(players, totals, int(board.get("selected", 0)), history)
    home = data.get("home", "timer")
    kept = tuple(sorted((str(name), str(text)) for name, text in data.get("kept", ())))
    page = data.get("page", {})
    shown = PageState(address=str(page.get("address", "")), code=str(page.get("code", "")))
    timer = Timer.of(settings.duration_s, settings.warn_s)
    stopped = data.get("timer")
    if isinstance(stopped, dict):
        left = min(max(0.0, float(stopped["left"])), float(settings.duration_s))
        timer = replace(timer, countdown=replace(timer.countdown, left_when_stopped=left),
                        alarmed=bool(stopped["alarmed"]), warned_down_to=min(timer.warned_down_to, math.ceil(left)))
    return AppState(settings, timer, board_state, home=home if home in HOME_MODES else "timer", kept=kept, page=shown)


def main_keys(state: AppState) -> list[str]:
    """The main menu: continue the game in progress, the letter picker for the field below (when one
    waits), timer and scoreboard, the games, then the settings."""
    keys = ["continue"] if state.flow is not None else []
    field = field_below(state)
    if field is not None and not field.only:
        keys.append("letters")
    page = ["page"] if state.page.address else []
    return keys + list(MAIN_MENU[:2]) + [f"game:{g.id}" for g in registry.GAMES] + page + list(MAIN_MENU[2:])


def events_to_choose(state: AppState, text: str, at: float) -> list[Event] | None:
    """The presses that open the main menu and choose the entry whose label contains `text` (case
    folded); None when no entry does. Scripts use it so they do not depend on the menu's order."""
    opened = state if isinstance(state.overlay, MenuView) and not state.overlay.path else None
    events: list[Event] = [] if opened else [Press(Button.MENU, at)]
    if opened is None:
        opened = replace(state, overlay=MenuView())
    menu = opened.overlay
    assert isinstance(menu, MenuView)
    labels = [label.casefold() for _, label, _ in menu_entries(opened, "")]
    wanted = text.casefold()
    index = next((i for i, label in enumerate(labels) if wanted in label), None)
    if index is None:
        return None
    steps = (index - menu.cursor) % len(labels)
    return [*events, *[Press(Button.NEXT, at)] * steps, Press(Button.START, at)]


def _main_index(state: AppState, key: str) -> int:
    keys = main_keys(state)
    return keys.index(key) if key in keys else 0


def _main_label(state: AppState, key: str) -> str:
    if key == "continue":
        playing = registry.kit(state.flow.game) if state.flow else None
        return _t(state.settings, "continue", game=_game_title(state, playing))
    if key.startswith("game:"):
        return _game_title(state, registry.kit(key.removeprefix("game:")))
    if key == "page":
        return page_text(state.settings.lang, "page")
    if key == "letters":
        field = field_below(state)
        return _t(state.settings, "letters", label=field.label if field else "")
    return _t(state.settings, key)


def _game_title(state: AppState, game: GameKit | None) -> str:
    return "?" if game is None else game.name(state.settings.lang)


# --- shared actions --------------------------------------------------------------------------------


def _start_pause(state: AppState) -> tuple[AppState, list[Effect]]:
    timer, now, volume = state.timer, state.now, state.settings.volume
    if timer.running:
        return replace(state, timer=timer.pause(now)), []
    return replace(state, timer=timer.start(now)), [Beep("start", volume)]


def _add_points(state: AppState, points: int) -> tuple[AppState, list[Effect]]:
    board = state.board.add(points)
    name, total = board.players[board.selected], board.totals[board.selected]
    notice = _t(state.settings, "added", name=name, points=signed(points), total=total)
    return replace(state, board=board, notice=notice), []


def _set_duration(state: AppState, seconds: int) -> tuple[AppState, list[Effect]]:
    settings = replace(state.settings, duration_s=seconds)
    keep = state.timer.running or _owns_timer(state)
    timer = state.timer if keep else state.timer.with_settings(seconds, settings.warn_s)
    return _with_settings(replace(state, timer=timer), settings)


def _with_settings(state: AppState, settings: Settings) -> tuple[AppState, list[Effect]]:
    if settings == state.settings:
        return state, []
    return replace(state, settings=settings), [SaveSettings(settings.remembered())]


def _refuse(state: AppState, message: str) -> tuple[AppState, list[Effect]]:
    """An input that means nothing here: a short error beep, and the reason when there is one."""
    effects: list[Effect] = [Beep("error", state.settings.volume)]
    if message:
        effects.append(Log(message, "INFO"))
    return replace(state, notice=message or state.notice), effects


def _resumed(state: AppState, at: float, off_s: float) -> tuple[AppState, list[Effect]]:
    """After a restart the monotonic clock starts anew at `at`. A running timer comes back paused with
    the time it had left at the last journaled event — or run out, when it would have run out while the
    box was off (`off_s`): then it is over as if the alarm had sounded (silently), and the table is told.
    A flow that keeps time stops its clock at the last journaled event: the time off is nobody's turn. A
    flow that asked the word list and got no answer before the cut asks again (`Asks`)."""
    paused: list[Effect] = []
    if isinstance(state.flow, KeepsTime):
        state, paused = _apply(state, state.flow.pause(ctx(state)))
    if isinstance(state.flow, Asks):
        paused += state.flow.asks(ctx(state))
    timer, now = state.timer, state.now
    state = replace(state, ringing=None)
    if not timer.running:
        return replace(state, now=at), [*paused, Log("resumed")]
    left = timer.left(now)
    if off_s >= left:
        over = timer.countdown.deadline or now
        stopped, _alarm = timer.tick(over, state.settings.volume)
        state = replace(state, timer=stopped, now=over)
        effects: list[Effect] = []
        if state.flow is not None:
            state, effects = _apply(state, state.flow.timer_over(ctx(state)))
        notice = _t(state.settings, "resumed_over")
        log = Log(f"resumed; the time ran out while off ({off_s:.0f} s off)")
        return replace(state, notice=notice, now=at), [*paused, *effects, log]
    notice = _t(state.settings, "resumed")
    log = Log(f"resumed; timer paused at {left:.1f} s")
    return replace(state, timer=timer.pause(now), notice=notice, now=at), [*paused, log]


def _trouble(state: AppState, event: Trouble) -> AppState:
    key = f"trouble_{event.kind}" if event.kind in TROUBLES else "trouble_set_aside"
    detail = event.detail
    if event.kind == "unsaved" and detail in UNSAVED_REASONS:
        detail = _t(state.settings, f"unsaved_{detail}")
    notice = _t(state.settings, key, detail=detail)
    return replace(state, notice=notice, unsaved=state.unsaved or event.kind == "unsaved")


def _next_preset(settings: Settings) -> int:
    later = [p for p in settings.presets if p > settings.duration_s]
    return later[0] if later else settings.presets[0]


def _clamp_duration(seconds: int) -> int:
    return max(MIN_DURATION_S, min(MAX_DURATION_S, seconds))


_POINTS = re.compile(r"^\s*([-+−]?)\s*(\d{1,5})\s*$")


def parse_points(text: str) -> int | None:
    """A points change from "5", "+5", "-3" or "−3"; None when the text is not one."""
    match = _POINTS.match(text)
    if not match:
        return None
    value = int(match.group(2))
    return -value if match.group(1) in ("-", "−") else value


# --- screens ---------------------------------------------------------------------------------------


def menu_entries(state: AppState, path: str) -> list[tuple[str, str, bool]]:
    """(key, label, marked) of each entry of a (sub)menu; the marked entry is the current choice."""
    s = state.settings
    if not path:
        return [(key, _main_label(state, key), key == state.home) for key in main_keys(state)]
    if path == "duration":
        presets = [(str(p), format_seconds(p), p == s.duration_s) for p in s.presets]
        custom = s.duration_s not in s.presets
        label = _t(s, "custom") + (f" {format_seconds(s.duration_s)}" if custom else "")
        return [*presets, ("custom", label, custom)]
    if path == "warn":
        return [
            (str(w), _t(s, "warn_value", s=w) if w else _t(s, "warn_off"), w == s.warn_s) for w in WARN_CHOICES
        ]
    if path == "alarm":
        return [(str(a), _alarm_text(s, a), a == s.alarm_s) for a in ALARM_CHOICES]
    if path == "contrast":
        return [(str(c), _t(s, f"contrast_{c}"), c == s.contrast) for c in CONTRAST_CHOICES]
    if path == "dim":
        return [(str(m), _minutes_text(s, m), m == s.dim_after_min) for m in DIM_CHOICES]
    if path == "blank":
        return [(str(m), _minutes_text(s, m), m == s.blank_after_min) for m in BLANK_CHOICES]
    if path == "volume":
        return [(v, _t(s, f"vol_{v}"), v == s.volume) for v in VOLUMES]
    if path == "language":
        return [(lang, _t(s, f"lang_{lang}"), lang == s.lang) for lang in LANGUAGES]
    if path == "players":
        return [(str(n), str(n), n == s.player_count) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    if path == "game_turn":
        return [(str(n), _game_turn_text(s, n), n == s.turns.game_turn_s) for n in GAME_TURN_CHOICES]
    if path == "reveal":
        return [(r, _t(s, f"reveal_{r}"), r == s.reveal) for r in REVEAL_CHOICES]
    raise ValueError(f"no menu {path!r}")


def _current_value(state: AppState, key: str) -> str:
    s = state.settings
    values = {
        "players": str(s.player_count),
        "duration": format_seconds(s.duration_s),
        "game_turn": _game_turn_text(s, s.turns.game_turn_s),
        "reveal": _t(s, f"reveal_{s.reveal}"),
        "warn": f"{s.warn_s} s" if s.warn_s else _t(s, "warn_off"),
        "alarm": _alarm_text(s, s.alarm_s),
        "contrast": _t(s, f"contrast_{s.contrast}") if s.contrast in CONTRAST_CHOICES else str(s.contrast),
        "dim": _minutes_text(s, s.dim_after_min),
        "blank": _minutes_text(s, s.blank_after_min),
        "volume": _t(s, f"vol_{s.volume}"),
        "language": s.lang.upper(),
    }
    return values.get(key, "")


def _minutes_text(settings: Settings, minutes: int) -> str:
    return _t(settings, "after_min", n=minutes) if minutes else _t(settings, "never")


def _alarm_text(settings: Settings, seconds: int) -> str:
    return _t(settings, "alarm_for", time=format_seconds(seconds)) if seconds else _t(settings, "alarm_once")


def _game_turn_text(settings: Settings, seconds: int) -> str:
    return format_seconds(seconds) if seconds else _t(settings, "warn_off")


def screen(state: AppState) -> Screen:
    """The screen model for `state` (pure; `state.now` is the time it shows). While nothing is saved
    (`state.unsaved`), every title starts with `UNSAVED_MARK`."""
    shown = _screen(state)
    picker = active_picker(state)
    if picker is not None:
        field = entry_field(state)
        shown = picker.screen(state.settings.lang, state.typing, state.notice or (field.message if field else ""))
    elif state.typing and state.overlay is None:
        shown = replace(shown, footer=_entry_line(state))
    return replace(shown, title=f"{UNSAVED_MARK} {shown.title}") if state.unsaved else shown


def _screen(state: AppState) -> Screen:
    s, overlay = state.settings, state.overlay
    if isinstance(overlay, ConfirmPowerOff):
        return MessageScreen(_t(s, "power_off_q"), (_t(s, "power_off_yes"), _t(s, "power_off_no")))
    if isinstance(overlay, PageShow | ConfirmSeat):
        return page_screen(state.page, overlay, s.lang, state.notice)
    if isinstance(overlay, DurationEdit):
        return BigScreen(_t(s, "duration"), format_seconds(overlay.seconds), state.notice or _t(s, "hint_edit"))
    if isinstance(overlay, MenuView):
        entries = menu_entries(state, overlay.path)
        title = _t(s, overlay.path) if overlay.path else _t(s, "menu")
        items = tuple(
            ListItem(label, "" if overlay.path else _current_value(state, key), marked)
            for key, label, marked in entries
        )
        return ListScreen(title, items, overlay.cursor, state.notice)
    if state.home == "game" and state.flow is not None:
        screen = state.flow.screen(ctx(state))
        if state.notice:
            screen = _with_footer(screen, state.notice)
        return screen
    if state.home == "scoreboard":
        board = state.board
        items = tuple(ListItem(name, str(total)) for name, total in zip(board.players, board.totals, strict=True))
        title = _t(s, "scoreboard")
        if state.timer.running or not state.timer.countdown.is_full():
            title += f"  {_timer_text(state)}"
        return ListScreen(title, items, board.selected, state.notice or _t(s, "hint_board"))
    return _timer_screen(state)


STARTUP_FAILURES = ("config", "hardware", "internal")


def startup_failure_screen(lang: str, kind: str, details: tuple[str, ...]) -> MessageScreen:
    """What the OLED shows when the appliance cannot start: the kind of failure (`STARTUP_FAILURES`), a
    few short detail lines, and where the whole story is (the log)."""
    settings = Settings(lang=lang if lang in LANGUAGES else Settings().lang)
    title = _t(settings, f"startup_{kind}" if kind in STARTUP_FAILURES else "startup_internal")
    return MessageScreen(title, details, _t(settings, "startup_log"))


def _with_footer(screen: Screen, footer: str) -> Screen:
    return replace(screen, footer=footer)


def _timer_status(state: AppState) -> str:
    timer = state.timer
    if timer.alarmed:
        return "done"
    if timer.running:
        return "running"
    return "ready" if timer.countdown.is_full() else "paused"


def _timer_text(state: AppState) -> str:
    return _t(state.settings, "time_up") if state.timer.alarmed else format_seconds(state.timer.left(state.now))


def _timer_screen(state: AppState) -> BigScreen:
    s, status = state.settings, _timer_status(state)
    title = f"{_t(s, 'timer')} {format_seconds(state.timer.countdown.duration)}"
    if status in ("running", "paused", "ready"):
        title += f" · {_t(s, status)}"
    hint = "hint_ringing" if state.ringing is not None else f"hint_{status}"
    footer = state.notice or _t(s, hint)
    return BigScreen(title, _timer_text(state), footer, inverted=status == "done")


def _t(settings: Settings, key: str, **fields: object) -> str:
    return pick(TEXT, settings.lang, key, **fields)
