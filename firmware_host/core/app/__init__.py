"""The appliance's state machine: modes, menu, timer and scoreboard, the phones' seats, the games hosted.

`step(state, event) -> (state, effects)` is pure. Every event ends with the current view: the screen,
the LED bar level and the next time the core wants a `Tick` (None: nothing runs, sleep until input).
Buttons: START starts/pauses/resumes the timer (long: flip), NEXT moves on, BACK resets/undoes/leads
out, MENU opens the menu (long: power off); a fitted TURN button starts/pauses the timer like START. In
the menu NEXT moves, START chooses, BACK goes up a level. A game that keeps time (the turn timer) owns the
timer while it is on screen: leaving it pauses its clock and gives the sand timer back.

Typed lines: a screen waiting for one (`entry_field`) gets the letter picker (`core.text_picker`): by
itself where text is the only input, else from the menu (Spielen › "Buchstaben"); while it is
open the buttons pick letters and a long START hands the line to the screen. A keyboard's line in the
making (`Typing`) is shown in the footer (or the picker) as it is typed; it decides nothing.

One idea per module: `state` (the data), `dispatch` (which handler takes an event: the tables), `menu`,
`seats` (the phones), `host` (the game flows), `timer_mode`, `scoreboard_mode`, `ring` (the end alarm),
`text_edge` (typed text and the picker's field), `home` (the screen below the menu, the picker),
`persistence` (snapshots, resume), `screens`, and `actions` that several share.
"""

from firmware_host.core.app.actions import parse_points
from firmware_host.core.app.dispatch import CHECKPOINT_S, UNSAVED_REASONS, fold, step
from firmware_host.core.app.host import ctx, kept_items, table_players
from firmware_host.core.app.menu import (
    current_value,
    events_to_choose,
    events_to_open,
    main_keys,
    menu_entries,
    menu_keys,
)
from firmware_host.core.app.persistence import can_snapshot, initial, restore, snapshot
from firmware_host.core.app.screens import STARTUP_FAILURES, screen, startup_failure_screen, view
from firmware_host.core.app.seats import page_controls
from firmware_host.core.app.state import (
    HOME_MODES,
    UNSAVED_MARK,
    AppState,
    ConfirmLeave,
    ConfirmPowerOff,
    DurationEdit,
    Free,
    InGame,
    MenuView,
    Mode,
    OnBoard,
    OnGame,
    OnTimer,
    Overlay,
)
from firmware_host.core.app.text_edge import active_picker, edge_checked, entry_field, field_below

__all__ = [
    "CHECKPOINT_S", "HOME_MODES", "STARTUP_FAILURES", "UNSAVED_MARK", "UNSAVED_REASONS", "AppState",
    "ConfirmLeave", "ConfirmPowerOff", "DurationEdit",
    "Free", "InGame", "MenuView", "Mode", "OnBoard", "OnGame", "OnTimer", "Overlay", "active_picker",
    "can_snapshot", "ctx", "current_value", "edge_checked", "entry_field", "events_to_choose", "events_to_open",
    "field_below", "fold", "initial", "kept_items", "main_keys", "menu_entries", "menu_keys", "page_controls",
    "parse_points", "restore", "screen", "snapshot", "startup_failure_screen", "step", "table_players", "view",
]
