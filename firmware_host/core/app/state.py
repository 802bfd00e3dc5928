"""The appliance's state: the settings, the timer, the free scoreboard, the home mode, the overlay open over
it (menu, duration edit, power-off question, table page), the game flow and the letter picker. Pure data."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

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

HomeMode = Literal["timer", "scoreboard"]
HOME_MODES: tuple[HomeMode, ...] = ("timer", "scoreboard")
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
class Free:
    """No game is open: the sand timer or the free scoreboard is the home mode."""

    home: HomeMode = "timer"


@dataclass(frozen=True, slots=True)
class InGame:
    """A game is open: on screen (`away` None), or waiting while a home mode is shown (the menu's
    "continue" and a long BACK come back to it). Its end returns to `left_home`, the home mode it was
    started from."""

    flow: Flow
    left_home: HomeMode = "timer"
    away: HomeMode | None = None


Mode = Free | InGame  # what the table is in: a home mode and no game, or a game (shown or waiting)


@dataclass(frozen=True, slots=True)
class AppState:
    """The appliance's state. The mode (`mode`: no game or a game) is read as `home`, `flow` and `left_home`;
    the overlay (menu, length edit, power-off question, table page) may be open over any mode."""

    settings: Settings
    timer: Timer
    board: Board
    mode: Mode = Free()
    overlay: Overlay | None = None
    kept: tuple[tuple[str, str], ...] = ()  # what the shell keeps: (name, canonical JSON), sorted (`Kept`)
    notice: str = ""
    now: float = 0.0
    unsaved: bool = False  # the journal cannot be written: every screen's title is marked (`UNSAVED_MARK`)
    page: PageState = field(default_factory=PageState)  # the table page (`core.page_table`)
    ringing: Ringing | None = None  # the end alarm rings on (until a button or `Settings.alarm_s`)
    picker: Picker | None = None  # the letter picker, open for the field on screen (`entry_field`)
    typing: str = ""  # the keyboard's line in the making (`Typing`): shown, never decided on
    journaled_at: float = float("-inf")  # the time of the last journaled event (`dispatch.CHECKPOINT_S`)

    @property
    def home(self) -> str:
        """What is on screen below the overlay: "timer", "scoreboard" or "game"."""
        mode = self.mode
        if isinstance(mode, Free):
            return mode.home
        return "game" if mode.away is None else mode.away

    @property
    def flow(self) -> Flow | None:
        """The open game's flow; None without a game."""
        return self.mode.flow if isinstance(self.mode, InGame) else None

    @property
    def left_home(self) -> HomeMode:
        """Where the open game's end returns ("timer" without a game)."""
        return self.mode.left_home if isinstance(self.mode, InGame) else "timer"


def shown(mode: Mode, home: str) -> Mode:
    """`mode` with `home` on screen: a home mode, or "game" (the open game; without one, `mode` as it is)."""
    if home == "game":
        return replace(mode, away=None) if isinstance(mode, InGame) else mode
    at: HomeMode = "scoreboard" if home == "scoreboard" else "timer"
    return replace(mode, away=at) if isinstance(mode, InGame) else Free(at)


def next_flow(mode: Mode, flow: Flow | None) -> Mode:
    """`mode` after the open game's flow became `flow`: None ends the game (back to where it was started)."""
    if flow is None:
        return Free(mode.left_home if isinstance(mode, InGame) else mode.home)
    if isinstance(mode, InGame):
        return replace(mode, flow=flow)
    return InGame(flow, left_home=mode.home, away=mode.home)  # a flow's outcome without a game open: kept aside


Step = tuple[AppState, list[Effect]]  # what every handler returns: the new state and its effects


def t(settings: Settings, key: str, **fields: object) -> str:
    """The appliance's text for `key` in the settings' language (`app_text.TEXT`)."""
    return pick(TEXT, settings.lang, key, **fields)
