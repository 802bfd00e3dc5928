"""What the table sees for a state: the screen model (`screen`), the LED bar and the next wake-up
(`view`), and the screen of a start-up that failed. Pure: `state.now` is the time shown."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.app.host import ctx, table_players
from firmware_host.core.app.menu import leave_screen, menu_screen
from firmware_host.core.app.owner_pin import pin_screen
from firmware_host.core.app.scoreboard_mode import scoreboard_screen
from firmware_host.core.app.state import (
    UNSAVED_MARK,
    AppState,
    ConfirmLeave,
    ConfirmPowerOff,
    DurationEdit,
    MenuView,
    t,
)
from firmware_host.core.app.text_edge import active_picker, entry_field, entry_line
from firmware_host.core.app.timer_mode import timer_screen
from firmware_host.core.effects import Effect, SetBar, Show, WakeAt
from firmware_host.core.i18n import LANGUAGES
from firmware_host.core.page_table import ConfirmSeat, PageShow, claim_footer, page_screen
from firmware_host.core.pin_entry import PinEntry
from firmware_host.core.screens import BigScreen, MessageScreen, Screen
from firmware_host.core.settings import Settings
from firmware_host.core.timer import format_seconds
from firmware_host.core.wifi_table import WifiShow, wifi_screen

STARTUP_FAILURES = ("config", "hardware", "internal")


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


def screen(state: AppState) -> Screen:
    """The screen model for `state` (pure; `state.now` is the time it shows): the letter picker over the
    screen below when it is open, a keyboard's line in the making in the footer. While nothing is saved
    (`state.unsaved`), every title starts with `UNSAVED_MARK`."""
    shown = screen_below(state)
    picker = active_picker(state)
    if picker is not None:
        field = entry_field(state)
        shown = picker.screen(state.settings.lang, state.typing, state.notice or (field.message if field else ""))
    elif state.typing and state.overlay is None:
        shown = replace(shown, footer=entry_line(state))
    elif not isinstance(state.overlay, PageShow | ConfirmSeat):  # a waiting takeover, on every other screen
        claim = claim_footer(state.page, table_players(state), state.settings.lang)
        if claim is not None:
            shown = replace(shown, footer=claim)
    return replace(shown, title=f"{UNSAVED_MARK} {shown.title}") if state.unsaved else shown


def screen_below(state: AppState) -> Screen:
    """The screen of the overlay, else of the home mode — without the picker or a line being typed."""
    s, overlay = state.settings, state.overlay
    if isinstance(overlay, ConfirmPowerOff):
        return MessageScreen(t(s, "power_off_q"), (t(s, "power_off_yes"), t(s, "power_off_no")))
    if isinstance(overlay, ConfirmLeave):
        return leave_screen(state)
    if isinstance(overlay, PageShow | ConfirmSeat):
        return page_screen(state.page, overlay, s.lang, state.notice, table_players(state))
    if isinstance(overlay, PinEntry):
        return pin_screen(state, overlay)
    if isinstance(overlay, WifiShow):
        return wifi_screen(state.wifi, overlay, state.page, s.lang, state.notice)
    if isinstance(overlay, DurationEdit):
        return BigScreen(t(s, "duration"), format_seconds(overlay.seconds), state.notice or t(s, "hint_edit"))
    if isinstance(overlay, MenuView):
        return menu_screen(state, overlay)
    if state.home == "game" and state.flow is not None:
        shown = state.flow.screen(ctx(state))
        return replace(shown, footer=state.notice) if state.notice else shown
    if state.home == "scoreboard":
        return scoreboard_screen(state)
    return timer_screen(state)


def startup_failure_screen(lang: str, kind: str, details: tuple[str, ...]) -> MessageScreen:
    """What the OLED shows when the appliance cannot start: the kind of failure (`STARTUP_FAILURES`), a
    few short detail lines, and where the whole story is (the log)."""
    settings = Settings(lang=lang if lang in LANGUAGES else Settings().lang)
    title = t(settings, f"startup_{kind}" if kind in STARTUP_FAILURES else "startup_internal")
    return MessageScreen(title, details, t(settings, "startup_log"))
