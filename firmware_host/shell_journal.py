"""The shell's journal adapter: the `JournalLike` the shell writes through, over the SQLite `Journal`.

The appliance's inputs go to its session — a journal "game" of kind `SESSION`, each input an entry of
kind `INPUT` (what a resume folds the state from). A table game's record lines go to that game's own entry
in the journal, opened by `BeginGame` beside the session and finished by `EndGame` (a shelved one marked,
a resumed one continued: `journal_games`). An input and the
record lines it causes are written in one transaction (`commit`): after a crash at any moment, the record
and the inputs a resume replays agree.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from firmware_host import journal_games
from firmware_host.core import app
from firmware_host.core.effects import BeginGame, EndGame, Record, Retract
from firmware_host.core.event_codec import encode
from firmware_host.core.events import Event, Tick
from firmware_host.journal import RECORD, RETRACT, Journal, utc_now

log = logging.getLogger("wordtable")

GameEffect = BeginGame | Record | Retract | EndGame

SESSION = "appliance"  # the journal game kind of the appliance's session
INPUT = "input"  # the entry kind of a journaled input event
ROLL_AFTER = 100  # entries in a session before an idle table starts a fresh one from a snapshot


@dataclass
class SessionJournal:
    """The shell's view of the journal: inputs go to the appliance session; a table game's record
    lines go to that game's own entry in the journal, which stays open beside the session."""

    journal: Journal
    session: int
    table_game: int | None = None
    entries: int = 0  # in this session
    _checkpoint: int | None = None  # the seq of the latest entry when it is a plain clock checkpoint
    league: bool = False  # queue each finished game for the league in the journal's outbox
    on_queued: Callable[[], None] | None = None  # after the sync of a commit that queued a game (wakes the publisher)
    _queued: bool = False  # a commit since the last `sync` queued a game

    def commit(self, event: Event | None, effects: Sequence[GameEffect] = ()) -> None:
        """Journal an input event (None: none) and the game effects it caused, all in one transaction,
        written (a crash of the process keeps it) but on the storage only after `sync`. Raises
        `JournalError` when it could not be written; then nothing was, and nothing changed here."""
        table, checkpoint = self.table_game, None
        queued = self.league and any(isinstance(effect, EndGame) and effect.shelved is None for effect in effects)
        with self.journal.batch(synced=False):
            if isinstance(event, Tick) and not effects and self._checkpoint is not None:
                self.journal.rewrite(self._checkpoint, encode(event), utc_now())
                checkpoint = self._checkpoint
            elif event is not None:
                seq = self.journal.append(self.session, INPUT, encode(event), utc_now())
                checkpoint = seq if isinstance(event, Tick) and not effects else None
                self.entries += 1
            for effect in effects:
                table = self._game_effect(table, effect)
        self.table_game, self._checkpoint = table, checkpoint
        self._queued = self._queued or queued

    def sync(self) -> None:
        """Put what `commit` wrote on the storage (`Journal.sync`); then wake the publisher when a game was
        queued for the league. Raises `JournalError` when the storage fails."""
        self.journal.sync()
        if self._queued and self.on_queued is not None:
            self.on_queued()
        self._queued = False

    def tidy(self) -> None:
        """When nothing waits for the journal (an input's effects are out): its upkeep (`Journal.tidy`)."""
        self.journal.tidy()

    def compact(self, state: app.AppState) -> None:
        """After a commit, with a state the core said can be snapshotted (`Snapshottable`): when the session
        is long, continue in a fresh session that starts from its snapshot, and delete the finished ones.
        Raises `JournalError` like `commit`."""
        if self.entries < ROLL_AFTER:
            return
        with self.journal.batch():
            self.journal.finish(self.session, None)
            session = self.journal.start_game(SESSION, state.board.players, {"snapshot": app.snapshot(state)},
                                              beside=self.table_game)
            dropped = self.journal.drop_finished(SESSION)
        log.info("journal: a fresh session %d from a snapshot; %d entries of old sessions deleted", session, dropped)
        self.session, self.entries, self._checkpoint = session, 0, None

    def _game_effect(self, table: int | None, effect: GameEffect) -> int | None:
        if isinstance(effect, BeginGame) and effect.resumes is not None:
            return journal_games.resume(self.journal, effect.resumes, effect.game, effect.players, self.session)
        if isinstance(effect, BeginGame):
            return self.journal.start_game(effect.game, effect.players, beside=self.session)
        if table is None:
            log.warning("no table game open for %s", type(effect).__name__)
        elif isinstance(effect, Record):
            self.journal.append(table, RECORD, effect.line, utc_now())
        elif isinstance(effect, Retract):
            self.journal.append(table, RETRACT, {}, utc_now())
        elif effect.shelved is not None:  # to be resumed: not the league's yet
            journal_games.shelve(self.journal, table, effect.shelved, utc_now())
            return None
        else:
            self.journal.finish(table, effect.winner)
            if self.league:
                self.journal.enqueue(table)
            return None
        return table
