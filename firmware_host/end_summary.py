"""The OLED's line at a game's end (`core.history.summary`): once the journal has archived a game, the
history is read again in a thread of its own (a read-only connection: scoring the archived games must not
hold up the table's loop) and the line goes to the core as `events.Highlight`, which is only shown.

It observes the shell's state (`Shell.observe`): a step after which the open game is gone has archived it
(the game's `EndGame` is journaled with that step), or abandoned it — which the record says, and which
tells nothing.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from firmware_host.core import app
from firmware_host.core.events import Event
from firmware_host.core.history import highlight
from firmware_host.journal import Journal, JournalError
from firmware_host.journal_games import recorded
from firmware_host.played_games import PlayedGames
from firmware_host.shell import Shell

log = logging.getLogger("wordtable.stats")


class EndSummary:
    """Watches for a game's end and puts its `Highlight` on the shell's queue (`put`). `wait()` returns once
    the latest line asked for is out (tests)."""

    def __init__(self, path: Path, put: Callable[[Event], None], clock: Callable[[], float]) -> None:
        self.path = path
        self.put = put
        self.clock = clock
        self.played = PlayedGames()
        self._open = False  # a game was open after the last step
        self._told = 0  # the id of the latest game told about
        self._worker: threading.Thread | None = None
        self._telling = threading.Lock()  # one line at a time: two games that end at once are told in turn

    def state_changed(self, state: app.AppState) -> None:
        ended = self._open and state.flow is None
        self._open = state.flow is not None
        if ended:
            self._worker = threading.Thread(target=self._tell, name="end-summary", daemon=True)
            self._worker.start()

    def wait(self, timeout: float = 10.0) -> None:
        if self._worker is not None:
            self._worker.join(timeout)

    def _tell(self) -> None:
        with self._telling:
            self._tell_latest()

    def _tell_latest(self) -> None:
        try:
            games = self.played.read(self.path)
            with Journal.open(self.path, readonly=True) as journal:
                latest = max((game.id for game in recorded(journal.games())), default=0)
        except (JournalError, OSError, sqlite3.Error) as exc:
            log.warning("no end-of-game line: the journal does not read (%s)", exc)
            return
        if not games or games[-1].id != latest or latest <= self._told:
            return  # the game that went was abandoned (or told about already)
        self._told = games[-1].id
        line = highlight(games, games[-1].id, self.clock())
        if line is not None:
            self.put(line)


def watch_game_ends(shell: Shell, journal: Journal | None, clock: Callable[[], float]) -> EndSummary | None:
    """The end-of-game lines for `shell`, over `journal`'s file (None: no journal, no history, no line)."""
    if journal is None:
        return None
    summary = EndSummary(journal.path, shell.put, clock)
    shell.observe(summary.state_changed)
    summary.state_changed(shell.state)
    return summary
