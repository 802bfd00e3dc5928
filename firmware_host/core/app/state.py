"""The appliance's state: the settings, the timer, the free scoreboard, the home mode, the overlay open over
it (menu, duration edit, power-off question, table page), the game flow and the letter picker. Pure data."""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_host.core.alarm import Ringing
from firmware_host.core.app_text import TEXT
from firmware_host.core.effects import Effect
from firmware_host.core.flow import Flow
from firmware_host.core.i18n import pick
from firmware_host.core.page_table import ConfirmSeat, PageShow, PageState
from firmware_host.core.scoreboard import Board
from firmware_host.core.settings import Settings
from firmware_host.core.text_picker import Picker
from firmware_host.core.timer import Timer

HOME_MODES = ("timer", "scoreboard")
UNSAVED_MARK = "!"


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
    journaled_at: float = float("-inf")  # the time of the last journaled event (`dispatch.CHECKPOINT_S`)


Step = tuple[AppState, list[Effect]]  # what every handler returns: the new state and its effects


def t(settings: Settings, key: str, **fields: object) -> str:
    """The appliance's text for `key` in the settings' language (`app_text.TEXT`)."""
    return pick(TEXT, settings.lang, key, **fields)
