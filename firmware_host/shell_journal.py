"""The shell's journal adapter: the `JournalLike` the shell writes through, over the SQLite `Journal`.

The appliance's inputs go to its session — a journal "game" of kind `SESSION`, each input an entry of
kind `INPUT` (what a resume folds the state from). A table game's record lines go to that game's own entry
in the journal, opened by `BeginGame` beside the session and finished by `EndGame`. An input and the
record lines it causes are written in one transaction (`commit`): after a crash at any moment, the record
and the inputs a resume replays agree.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_host.core.effects import BeginGame, EndGame, Record, Retract
from firmware_host.core.event_codec import encode
from firmware_host.core.events import Event
from firmware_host.journal import RECORD, RETRACT, Journal, utc_now

log = logging.getLogger("wordtable")

GameEffect = BeginGame | Record | Retract | EndGame

SESSION = "appliance"  # the journal game kind of the appliance's session
INPUT = "input"  # the entry kind of a journaled input event


@dataclass
class SessionJournal:
    """The shell's view of the journal: inputs go to the appliance session; a table game's record
    lines go to that game's own entry in the journal, which stays open beside the session."""

    journal: Journal
    session: int
    table_game: int | None = None

    def commit(self, event: Event | None, effects: Sequence[GameEffect] = ()) -> None:
        """Journal an input event (None: none) and the game effects it caused, all in one transaction.
        Raises `JournalError` when it could not be written; then nothing was, and nothing changed here."""
        table = self.table_game
        with self.journal.batch():
            if event is not None:
                self.journal.append(self.session, INPUT, encode(event), utc_now())
            for effect in effects:
                table = self._game_effect(table, effect)
        self.table_game = table

    def _game_effect(self, table: int | None, effect: GameEffect) -> int | None:
        if isinstance(effect, BeginGame):
            return self.journal.start_game(effect.game, effect.players, beside=self.session)
        if table is None:
            log.warning("no table game open for %s", type(effect).__name__)
        elif isinstance(effect, Record):
            self.journal.append(table, RECORD, effect.line, utc_now())
        elif isinstance(effect, Retract):
            self.journal.append(table, RETRACT, {}, utc_now())
        else:
            self.journal.finish(table, effect.winner)
            return None
        return table
