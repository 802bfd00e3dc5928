"""The appliance: its configuration's settings, and `open_appliance`, which starts it — the session from
the journal (`resume`), the board, shell and league around it (`startup`) — and returns the `Appliance`
that stops it again. Start-up order: journal, state, hardware (inputs last: buttons, then card readers),
outputs wired (`shell_effects`), first frame; `close()` runs in reverse. The shell writes the journal
through `shell_journal.SessionJournal`.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.config import Resolved, setting_value
from firmware_host.core import settings as setting_table
from firmware_host.core.settings import Settings, still_chosen
from firmware_host.end_summary import watch_game_ends
from firmware_host.journal import Journal
from firmware_host.qr_warm import warm_qr_codes
from firmware_host.resume import open_session, replay
from firmware_host.shell import Outputs, Shell
from firmware_host.staged_restore import apply_staged_restore
from firmware_host.startup import FirstFrame, assemble, start_league, tell_the_table
from hw.build import Hardware

__all__ = ["Appliance", "FirstFrame", "open_appliance", "replay", "settings_from_config", "settle_heap"]

log = logging.getLogger("wordtable")


def settings_from_config(resolved: Resolved, remembered: Mapping[str, Any]) -> Settings:
    """The config's settings, overridden by what the table chose since in the menu — unless the config
    file changed that key after the menu change (`settings.still_chosen`: the newer of the two wins)."""
    base = _config_settings(resolved)
    return base.with_remembered(still_chosen(remembered, base.remembered()))


def _config_settings(resolved: Resolved) -> Settings:
    """The settings as the config file says: each setting of `SETTINGS` that has a key there, the timer's
    presets, the turn timer's defaults and the players' names (their count too, else 4)."""
    cfg = resolved.config
    players = cfg.scoreboard.players
    base = Settings(presets=cfg.timer.presets, player_names=players, player_count=len(players) if players else 4,
                    turns=cfg.turn_timer.settings())
    for row in setting_table.SETTINGS:
        if row.config is not None:
            base = row.chosen(base, setting_value(cfg, row))
    return base


@dataclass
class Appliance:
    shell: Shell
    hardware: Hardware
    journal: Journal | None  # None: the journal could not be opened, nothing is saved
    league: Any = None  # the league publisher (`firmware_host.league.publisher.Publisher`) when configured
    _closed: bool = False

    def close(self) -> None:
        """Stop in reverse order of start-up: inputs first, then outputs (LEDs off, silent), journal last."""
        if self._closed:
            return
        self._closed = True
        if self.league is not None:
            self.league.close()
        self.hardware.close()
        if self.journal is not None:
            self.journal.close()


def settle_heap() -> None:
    """Once the appliance is up (the service, the live simulator): collect start-up's garbage and freeze
    what is left, which lives as long as the process. A full collection then no longer walks those ~30,000
    objects (15–25 ms here, several times that on a Pi), which could otherwise land on a button or the alarm."""
    gc.collect()
    gc.freeze()


def open_appliance(
    resolved: Resolved,
    state_dir: Path,
    *,
    clock: Callable[[], float] = time.monotonic,
    pin_factory: Any = None,
    display_device: Any = None,
    outputs_hook: Callable[[Outputs], Outputs] = lambda outputs: outputs,
    power_off: Callable[[], None],
    prepare_lists: bool = False,
) -> Appliance:
    """Open the journal, resume or start a session, start the hardware (card readers included) and draw
    the first frame. `power_off` is what a confirmed "Ausschalten" does; `outputs_hook` lets the
    simulator observe (wrap) what the shell drives. `prepare_lists` (the service and the live simulator)
    opens the word lists in the background at start: the German one always (Das perfekte Wort's word
    hint asks it every round), the English one when the reveal is on.

    A journal that cannot be opened or written at start (state directory missing, read-only or full) is
    no reason to stay dark: the appliance starts without one, from the config's settings, and says on
    the OLED and in the log that nothing is saved. Hardware errors raise `HardwareError`."""
    apply_staged_restore(state_dir)  # a backup uploaded on the page, before the journal is opened
    session = open_session(state_dir, lambda remembered: settings_from_config(resolved, remembered), clock)
    try:
        shell, hardware = assemble(
            resolved, state_dir, session, clock=clock, pin_factory=pin_factory, display_device=display_device,
            outputs_hook=outputs_hook, power_off=power_off, from_file=_config_settings(resolved).remembered(),
            prepare_lists=prepare_lists,
        )
    except BaseException:
        if session.journal is not None:
            session.journal.close()
        raise
    league = start_league(resolved, shell, session, clock)
    watch_game_ends(shell, session.journal, clock)
    warm_qr_codes(shell)
    tell_the_table(shell, session, state_dir, clock)
    shell.ask_again()
    return Appliance(shell, hardware, session.journal, league)
