"""The shell's journal adapter: the `JournalLike` the shell writes through, over the SQLite `Journal`.

The appliance's inputs go to its session — a journal "game" of kind `SESSION`, each input an entry of
kind `INPUT` (what a resume folds the state from). A table game's record lines go to that game's own entry
in the journal, opened by `BeginGame` beside the session and finished by `EndGame`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from firmware_host.core.effects import BeginGame, EndGame, Record, Retract
from firmware_host.core.event_codec import encode
from firmware_host.core.events import Event
from firmware_host.journal import RECORD, RETRACT, Journal, utc_now

log = logging.getLogger("wordtable")

SESSION = "appliance"  # the journal game kind of the appliance's session
INPUT = "input"  # the entry kind of a journaled input event


@dataclass
class SessionJournal:
    """The shell's view of the journal: inputs go to the appliance session; a table game's record
    lines go to that game's own entry in the journal, which stays open beside the session."""

    journal: Journal
    session: int
    table_game: int | None = None

    def record(self, event: Event) -> None:
        self.journal.append(self.session, INPUT, encode(event), utc_now())

    def game_effect(self, effect: BeginGame | Record | Retract | EndGame) -> None:
        if isinstance(effect, BeginGame):
            self.table_game = self.journal.start_game(effect.game, effect.players, beside=self.session)
        elif self.table_game is None:
            log.warning("no table game open for %s", type(effect).__name__)
        elif isinstance(effect, Record):
            self.journal.append(self.table_game, RECORD, effect.line, utc_now())
        elif isinstance(effect, Retract):
            self.journal.append(self.table_game, RETRACT, {}, utc_now())
        else:
            self.journal.finish(self.table_game, effect.winner)
            self.table_game = None
