"""The appliance's state: the settings, the timer, the free scoreboard, the mode (no game or a game; on screen
the timer, the scoreboard or the game, the letter picker only where a typed line is taken), the overlay open
over it (menu, duration edit, power-off question, table page, the question before a game is left), and the
shelf of games left to be resumed. Pure data."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from firmware_host.core.alarm import Ringing
from firmware_host.core.app_text import TEXT
from firmware_host.core.effects import Effect
from firmware_host.core.flow import Flow
from firmware_host.core.i18n import pick
from firmware_host.core.page_table import ConfirmSeat, PageShow, PageState
from firmware_host.core.pin_entry import PinEntry
from firmware_host.core.roster import Roster
from firmware_host.core.scoreboard import Board
from firmware_host.core.settings import Settings
from firmware_host.core.text_picker import Picker
from firmware_host.core.timer import Timer
from firmware_host.core.wifi_table import WifiShow, WifiState

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


@dataclass(frozen=True, slots=True)
class ConfirmLeave:
    """The question before the open game is left: START leaves it (a game begun goes on the shelf) for
    `then`, the menu key chosen (another game, or a shelved one: "resume:KEY"); BACK keeps playing."""

    then: str


Overlay = MenuView | DurationEdit | ConfirmPowerOff | PageShow | ConfirmSeat | ConfirmLeave | PinEntry | WifiShow


@dataclass(frozen=True, slots=True)
class OnTimer:
    """The sand timer on screen (it takes no typed line: no letter picker)."""


@dataclass(frozen=True, slots=True)
class OnBoard:
    """The free scoreboard on screen, with the letter picker when it is open for the selected player."""

    picker: Picker | None = None


@dataclass(frozen=True, slots=True)
class OnGame:
    """The open game's own screen, with the letter picker when it is open for the game's field."""

    picker: Picker | None = None


HomeShown = OnTimer | OnBoard  # a home mode on screen
Shown = OnTimer | OnBoard | OnGame  # what is on screen below the overlay


@dataclass(frozen=True, slots=True)
class Free:
    """No game is open: the sand timer or the free scoreboard is the home mode."""

    shown: HomeShown = OnTimer()


@dataclass(frozen=True, slots=True)
class InGame:
    """A game is open: on screen (`OnGame`), or waiting while a home mode is shown (the menu's "continue"
    and a long BACK come back to it). Its end returns to `left_home`, the home mode it was started from."""

    flow: Flow
    left_home: HomeMode = "timer"
    shown: Shown = OnGame()
    begun: bool = False  # its setup is done (`BeginGame`): leaving it asks first and shelves it


Mode = Free | InGame  # what the table is in: a home mode and no game, or a game (shown or waiting)

SHELF_SIZE = 3  # the games left before their end that the menu offers to resume; the oldest falls off


@dataclass(frozen=True, slots=True)
class Shelved:
    """A game left before its end, to be resumed exactly where it was: its flow, where its end returns, the
    timer as it was (paused), its players, when it was left (the core's event time) and its `key` (the
    journal's mark of its record: `EndGame.shelved`, `BeginGame.resumes`)."""

    key: int
    flow: Flow
    left_home: HomeMode
    timer: Timer
    players: tuple[str, ...]
    at: float


@dataclass(frozen=True, slots=True)
class AppState:
    """The appliance's state. The mode (`mode`: no game or a game, and what is on screen with its letter
    picker) is read as `home`, `flow`, `left_home` and `picker`; the overlay (menu, length edit, power-off
    question, table page, leaving question) may be open over any mode. Every named player of the free
    scoreboard is a person of the roster (`roster`)."""

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
    wifi: WifiState = field(default_factory=WifiState)  # the box's Wi-Fi (`core.wifi_table`), only shown
    ringing: Ringing | None = None  # the end alarm rings on (until a button or `Settings.alarm_s`)
    typing: str = ""  # the keyboard's line in the making (`Typing`): shown, never decided on
    journaled_at: float = float("-inf")  # the time of the last journaled event (`dispatch.CHECKPOINT_S`)
    shelf: tuple[Shelved, ...] = ()  # the games left to be resumed, the latest first (at most `SHELF_SIZE`)
    shelf_key: int = 0  # the key the next shelved game gets (kept in the snapshot: keys never repeat)
    roster: Roster = field(default_factory=Roster)  # who plays at this box (`core.roster`), kept across games

    @property
    def home(self) -> str:
        """What is on screen below the overlay: "timer", "scoreboard" or "game"."""
        return _NAMES[type(self.mode.shown)]

    @property
    def picker(self) -> Picker | None:
        """The letter picker, open for the field on screen (`entry_field`); only a scoreboard or a game has one."""
        shown = self.mode.shown
        return None if isinstance(shown, OnTimer) else shown.picker

    @property
    def flow(self) -> Flow | None:
        """The open game's flow; None without a game."""
        return self.mode.flow if isinstance(self.mode, InGame) else None

    @property
    def left_home(self) -> HomeMode:
        """Where the open game's end returns ("timer" without a game)."""
        return self.mode.left_home if isinstance(self.mode, InGame) else "timer"


_NAMES: dict[type, str] = {OnTimer: "timer", OnBoard: "scoreboard", OnGame: "game"}


def home_shown(home: str) -> HomeShown:
    """The home mode `home` ("timer" or "scoreboard") on screen, without a picker."""
    return OnBoard() if home == "scoreboard" else OnTimer()


def showing(mode: Mode, home: str) -> Mode:
    """`mode` with `home` on screen: a home mode, or "game" (the open game; without one, `mode` as it is).
    What is on screen already stays as it is (its picker too)."""
    if _NAMES[type(mode.shown)] == home or (home == "game" and isinstance(mode, Free)):
        return mode
    if isinstance(mode, Free):
        return Free(home_shown(home))
    return replace(mode, shown=OnGame() if home == "game" else home_shown(home))


def next_flow(mode: Mode, flow: Flow | None) -> Mode:
    """`mode` after the open game's flow became `flow`: None ends the game (back to where it was started)."""
    if flow is None:  # the home mode it was started from; as it is (its picker too) when it is on screen
        home = mode.left_home if isinstance(mode, InGame) else "timer"
        shown = mode.shown
        return Free(shown if not isinstance(shown, OnGame) and _NAMES[type(shown)] == home else home_shown(home))
    if isinstance(mode, InGame):
        return replace(mode, flow=flow)
    return InGame(flow, shown=mode.shown)  # a flow's outcome without a game open (not reached): kept aside


def picked(state: AppState, picker: Picker | None) -> AppState:
    """`state` with the letter picker `picker` (None: closed) on the screen below — where one can be."""
    mode = state.mode
    if isinstance(mode, Free):
        return replace(state, mode=Free(OnBoard(picker))) if isinstance(mode.shown, OnBoard) else state
    shown = mode.shown
    if isinstance(shown, OnTimer):
        return state
    return replace(state, mode=replace(mode, shown=replace(shown, picker=picker)))


Step = tuple[AppState, list[Effect]]  # what every handler returns: the new state and its effects


def t(settings: Settings, key: str, **fields: object) -> str:
    """The appliance's text for `key` in the settings' language (`app_text.TEXT`)."""
    return pick(TEXT, settings.lang, key, **fields)
