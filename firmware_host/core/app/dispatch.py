"""The dispatch: which handler takes an event, as tables in the manner of h11's `_state.py`.

`step(state, event) -> (state, effects)` is pure. Every event first moves the clock (`_clock`: the timer
ticks, its alarm sounds and rings, the game hears of it), then passes the text edge, then goes to the
first row of `ROUTES` whose event type and guard match it; `BEFORE_CLOCK` takes the events that move no
clock. The order of the rows is the order of precedence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core.alarm import Ringing
from firmware_host.core.app.actions import refuse
from firmware_host.core.app.highlight import highlight_shown
from firmware_host.core.app.home import home_event
from firmware_host.core.app.host import apply, ctx, go_home, table_players
from firmware_host.core.app.menu import duration_edit_event, leave_event, menu_entries, menu_event
from firmware_host.core.app.owner_pin import pin_event, pin_replayed
from firmware_host.core.app.persistence import can_snapshot, resumed
from firmware_host.core.app.ring import ring
from firmware_host.core.app.screens import view
from firmware_host.core.app.seats import seat_claim, seat_command, seat_entry, seat_join
from firmware_host.core.app.state import (
    AppState,
    ConfirmLeave,
    ConfirmPowerOff,
    DurationEdit,
    MenuView,
    Step,
    picked,
    t,
)
from firmware_host.core.app.text_edge import TYPING_SHOWN, active_picker, edge_checked, field_below
from firmware_host.core.effects import GAME_EFFECTS, Checkpoint, Effect, JournalAs, Log, PowerOff, Snapshottable
from firmware_host.core.events import (
    TROUBLES,
    BestRevealed,
    Button,
    CardRemoved,
    CardScan,
    ClaimsPending,
    Event,
    Highlight,
    Kept,
    LongPress,
    Notice,
    PageInfo,
    PinKey,
    Press,
    ReaderStatus,
    Resumed,
    SeatAnswer,
    SeatClaim,
    SeatCommand,
    SeatEntry,
    SeatJoin,
    TextEntry,
    Tick,
    Trouble,
    Typing,
    WifiInfo,
    WordsChecked,
    event_time,
)
from firmware_host.core.page_table import ConfirmSeat, PageShow, answered, claim_answer, claimed_name, page_event
from firmware_host.core.pin_entry import PinEntry
from firmware_host.core.text_input import TextRefused
from firmware_host.core.wifi_table import WifiShow, wifi_event

CHECKPOINT_S = 5.0  # while a timer runs, a Tick is journaled at most this often (resume precision vs SD wear)
UNSAVED_REASONS = ("full", "readonly", "error")  # the shell's words for why the journal failed

Guard = Callable[[AppState, Any], bool]
Handler = Callable[[AppState, Any], Step]


@dataclass(frozen=True, slots=True)
class Route:
    """A row of a dispatch table: events of type `event` for which `guard` holds (None: always) go to
    `handler`."""

    event: type | tuple[type, ...]
    guard: Guard | None
    handler: Handler


def step(state: AppState, event: Event) -> Step:
    """Apply one event; return the new state and the effects to carry out, ending with the view — and,
    before the view, `Snapshottable` when the new state can be snapshotted."""
    state, effects = advance(state, event)
    marker: list[Effect] = [Snapshottable()] if can_snapshot(state) else []
    return state, [*effects, *marker, *view(state)]


def fold(state: AppState, event: Event) -> AppState:
    """The state `step` returns, without computing the view or anything else only a live table needs
    (what a resume replays)."""
    return advance(state, event)[0]


def advance(state: AppState, event: Event) -> Step:
    """Apply one event: the new state and the effects it causes, without the view."""
    early = _route(BEFORE_CLOCK, state, event)
    if early is not None:
        return early
    before = state
    state, effects, used = _clock(state, event)
    if not used:
        checked = edge_checked(event)
        if isinstance(checked, TextRefused):
            state, more = refuse(state, checked.text(state.settings.lang))
            return _journaled(before, state, event, effects + more)
        routed = _route(ROUTES, state, checked)
        assert routed is not None  # the last row takes every event
        state, more = routed
        effects += more
        state = _settled(before, state)
    return _journaled(before, state, event, effects)


def _route(routes: tuple[Route, ...], state: AppState, event: Event) -> Step | None:
    """The step of the first row that takes `event`; None when none does."""
    for row in routes:
        if isinstance(event, row.event) and (row.guard is None or row.guard(state, event)):
            return row.handler(state, event)
    return None


def _clock(state: AppState, event: Event) -> tuple[AppState, list[Effect], bool]:
    """The clock moved on to the event's time: the timer ticks; when its alarm sounds now, the notice goes,
    the alarm starts ringing (a turn clock's sounds once) and the game hears of it; a ringing alarm rings
    on or is silenced (True: the event only silenced it)."""
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
        state, more = apply(state, state.flow.timer_over(ctx(state)))
        effects += more
    state, more, silenced = ring(state, event, was_ringing)
    return state, effects + more, silenced


def _journaled(before: AppState, state: AppState, event: Event, effects: list[Effect]) -> Step:
    """The step with the time of the last journaled input kept in the state: every input is journaled; a
    Tick only when it must be (`Checkpoint`: the alarm sounded, the timer ran `CHECKPOINT_S` since, or the
    game record changed). A `Trouble` that stands for an event set aside is not journaled."""
    at = event_time(event)
    if isinstance(event, Tick):
        alarm = state.timer.alarmed and not before.timer.alarmed
        due = state.timer.running and at - state.journaled_at >= CHECKPOINT_S
        if not (alarm or due or any(isinstance(effect, GAME_EFFECTS) for effect in effects)):
            return state, effects
        effects = [*effects, Checkpoint()]
    elif isinstance(event, Trouble) and event.kind == "set_aside":
        return state, effects
    return replace(state, journaled_at=at), effects


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
        return picked(state, None)
    return state


# --- the handlers of the rows that need no module of their own -------------------------------------


def _typing(state: AppState, event: Typing) -> Step:
    """A keyboard's line in the making: shown only, neither the clock nor anything else moves on it."""
    return replace(state, typing=event.text[:TYPING_SHOWN]), []


def _resumed(state: AppState, event: Resumed) -> Step:
    """After a restart (`persistence.resumed`); nothing of the new process is journaled yet."""
    state, effects = resumed(state, event)
    return replace(state, journaled_at=float("-inf")), effects


def _nothing(state: AppState, event: Event) -> Step:
    return state, []


def _ask_power_off(state: AppState, event: LongPress) -> Step:
    return replace(state, overlay=ConfirmPowerOff(), notice=""), []


def _reader_status(state: AppState, event: ReaderStatus) -> Step:
    key = "reader_back" if event.present else "reader_missing"
    state = replace(state, notice=t(state.settings, key, reader=event.reader))
    return state, [Log(state.notice, "INFO" if event.present else "WARNING")]


def _notice(state: AppState, event: Notice) -> Step:
    return replace(state, notice=event.text), []


def _trouble(state: AppState, event: Trouble) -> Step:
    key = f"trouble_{event.kind}" if event.kind in TROUBLES else "trouble_set_aside"
    detail = event.detail
    if event.kind in ("unsaved", "kept") and detail in UNSAVED_REASONS:
        detail = t(state.settings, f"unsaved_{detail}")
    notice = t(state.settings, key, detail=detail)
    state = replace(state, notice=notice, unsaved=state.unsaved or event.kind == "unsaved")
    return state, [Log(state.notice, "WARNING")]


def _kept(state: AppState, event: Kept) -> Step:
    return replace(state, kept=event.items), []


def _wifi_info(state: AppState, event: WifiInfo) -> Step:
    wifi = replace(state.wifi, link=event.link, ssid=event.ssid, password=event.password, address=event.address)
    return replace(state, wifi=wifi), []


def _wifi_overlay(state: AppState, event: Event) -> Step:
    overlay = state.overlay
    assert isinstance(overlay, WifiShow)
    done = wifi_event(state.wifi, overlay, event, state.settings.lang)
    if done is None:
        return refuse(state, "")
    wifi, shown, notice = done
    return replace(state, wifi=wifi, overlay=shown, notice=notice), []


def _page_info(state: AppState, event: PageInfo) -> Step:
    return replace(state, page=replace(state.page, address=event.address, code=event.code)), []


def _for_the_game(state: AppState, event: WordsChecked | BestRevealed) -> Step:
    """An answer for the game, wherever the table is looking."""
    if state.flow is None:
        return state, []
    return apply(state, state.flow.handle(event, ctx(state)))


def _card_not_expected(state: AppState, event: CardScan) -> Step:
    return refuse(state, t(state.settings, "card_not_expected", code=event.code))


def _lead_out(state: AppState, event: LongPress) -> Step:
    """A long BACK from the game to the timer, and from the timer back to the game left there."""
    return go_home(replace(state, notice=""), "timer" if state.home == "game" else "game")


def _confirm_power_off(state: AppState, event: Event) -> Step:
    if isinstance(event, Press) and event.button is Button.START:
        return replace(state, overlay=None), [Log("power off requested at the table"), PowerOff()]
    if isinstance(event, Press) and event.button in (Button.BACK, Button.MENU):
        return replace(state, overlay=None), []
    return refuse(state, "")


def _claims_pending(state: AppState, event: ClaimsPending) -> Step:
    """The takeovers waiting at the page server: shown only, neither the clock nor anything else moves."""
    return replace(state, page=replace(state.page, pending=event.claims)), []


def _join_qr(state: AppState, event: LongPress) -> Step:
    """A long NEXT on the timer, where it means nothing else: the join QR (the phone page's screen)."""
    return replace(state, overlay=PageShow(), notice=""), []


def _seat_answer(state: AppState, event: SeatAnswer) -> Step:
    """The table's answer to a takeover, given on the phone page's screen (live: `_page_overlay` gives it
    and has it journaled; replayed: from the journal): the page server is told, the screen closes."""
    name = claimed_name(event.seat, table_players(state))
    page, notice = answered(state.page, event.seat, event.claim, event.granted, name, state.settings.lang)
    overlay = None if isinstance(state.overlay, PageShow) else state.overlay
    return replace(state, page=page, overlay=overlay, notice=notice), []


def _page_overlay(state: AppState, event: Event) -> Step:
    overlay = state.overlay
    assert isinstance(overlay, PageShow | ConfirmSeat)
    answer = claim_answer(state.page, event) if isinstance(overlay, PageShow) else None
    if answer is not None:  # what the press meant rests on a claim only shown: journal what it meant
        seat, claim, granted = answer
        told = SeatAnswer(seat, claim, granted, event_time(event))
        state, effects = _seat_answer(state, told)
        return state, [*effects, JournalAs(told)]
    done = page_event(state.page, overlay, event, state.settings.lang)
    if done is None:
        return refuse(state, "")
    page, close, notice = done
    return replace(state, page=page, overlay=None if close else overlay, notice=notice), []


# --- the guards --------------------------------------------------------------------------------------


def _button(button: Button) -> Guard:
    return lambda state, event: event.button is button


def _card_unexpected(state: AppState, event: CardScan) -> bool:
    """A card is read only by a game on screen."""
    return not (state.home == "game" and state.flow and state.overlay is None)


def _leads_out(state: AppState, event: LongPress) -> bool:
    return event.button is Button.BACK and state.overlay is None and (
        state.home == "game" or (state.home == "timer" and state.flow is not None)
    )


def _shows_join_qr(state: AppState, event: LongPress) -> bool:
    return (event.button is Button.NEXT and state.overlay is None and state.home == "timer"
            and bool(state.page.address) and active_picker(state) is None)


def _over(*overlays: type) -> Guard:
    return lambda state, event: isinstance(state.overlay, overlays)


BEFORE_CLOCK: tuple[Route, ...] = (
    Route(Resumed, None, _resumed),
    Route(Typing, None, _typing),
    Route(ClaimsPending, None, _claims_pending),
    Route(Highlight, None, highlight_shown),  # a game's end in someone's history: the footer, shown only
    Route(WifiInfo, None, _wifi_info),
)

ROUTES: tuple[Route, ...] = (
    Route(Tick, None, _nothing),
    Route(LongPress, _button(Button.MENU), _ask_power_off),
    Route(ReaderStatus, None, _reader_status),
    Route(Notice, None, _notice),
    Route(Trouble, None, _trouble),
    Route(Kept, None, _kept),
    Route(PageInfo, None, _page_info),
    Route(SeatClaim, None, seat_claim),  # journals written before `ClaimsPending`: the old confirmation
    Route(SeatAnswer, None, _seat_answer),
    Route(PinKey, None, pin_replayed),  # a key of the PIN entry as the journal keeps it (a replay)
    Route(SeatJoin, None, seat_join),
    Route(SeatCommand, None, seat_command),  # a phone's control: the timer, the free scoreboard, the settings
    Route(SeatEntry, None, seat_entry),  # a phone: its seat's entry, whatever the box shows
    Route((WordsChecked, BestRevealed), None, _for_the_game),
    Route(CardRemoved, None, _nothing),
    Route(CardScan, _card_unexpected, _card_not_expected),
    Route(LongPress, _leads_out, _lead_out),
    Route(LongPress, _shows_join_qr, _join_qr),
    Route(object, _over(ConfirmPowerOff), _confirm_power_off),
    Route(object, _over(ConfirmLeave), leave_event),
    Route(object, _over(DurationEdit), duration_edit_event),
    Route(object, _over(PinEntry), pin_event),
    Route(object, _over(PageShow, ConfirmSeat), _page_overlay),
    Route(object, _over(WifiShow), _wifi_overlay),
    Route(object, _over(MenuView), menu_event),
    Route(object, None, home_event),  # the screen below: the letter picker, the game, the scoreboard, the timer
)
