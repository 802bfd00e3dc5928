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
from firmware_host.journal import RECORD, RETRACT, Journal, JournalError, utc_now
from firmware_host.snapshots import Mark, Snapshots

log = logging.getLogger("wordtable")

GameEffect = BeginGame | Record | Retract | EndGame

SESSION = "appliance"  # the journal game kind of the appliance's session
INPUT = "input"  # the entry kind of a journaled input event
ROLL_AFTER = 100  # entries in a session before an idle table starts a fresh one from a snapshot
SNAPSHOT_EVERY = 100  # inputs after the last state snapshot before the next is taken, at least,
SNAPSHOT_BYTES_PER_INPUT = 16384  # and one for each of these bytes of the last snapshot (4 journal pages)


def snapshot_due(since: int, size: int) -> bool:
    """Whether a session `since` inputs after its last snapshot, which was `size` bytes (0: none), takes one
    now: a start then replays at most max(SNAPSHOT_EVERY, size / SNAPSHOT_BYTES_PER_INPUT) inputs. A
    snapshot's cost is that of its bytes (the history's chunks are reused, `snapshots`), so the writes
    stay under 16 kB per input and their total cost linear; a state under 1.6 MB (a Zugzeit game of
    100 000 turns) is kept every 100 inputs: a Zugzeit input replays in ~2 ms at a Pi's speed."""
    return since >= max(SNAPSHOT_EVERY, size / SNAPSHOT_BYTES_PER_INPUT)


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
    snapshots: Snapshots | None = None  # where the state is kept now and then (`cache`); None: never
    snapshot_at: int = 0  # `entries` at the last snapshot
    _last_input: tuple[int, str] | None = None  # the seq and wall time of the latest input this writer appended

    def commit(self, event: Event | None, effects: Sequence[GameEffect] = ()) -> None:
        """Journal an input event (None: none) and the game effects it caused, all in one transaction,
        written (a crash of the process keeps it) but on the storage only after `sync`. Raises
        `JournalError` when it could not be written; then nothing was, and nothing changed here."""
        table, checkpoint, last_input = self.table_game, None, self._last_input
        queued = self.league and any(isinstance(effect, EndGame) and effect.shelved is None for effect in effects)
        with self.journal.batch(synced=False):
            if isinstance(event, Tick) and not effects and self._checkpoint is not None:
                self.journal.rewrite(self._checkpoint, encode(event), utc_now())
                checkpoint = self._checkpoint
            elif event is not None:
                when = utc_now()
                seq = self.journal.append(self.session, INPUT, encode(event), when)
                checkpoint = seq if isinstance(event, Tick) and not effects else None
                self.entries += 1
                last_input = seq, when
            for effect in effects:
                table = self._game_effect(table, effect)
        self.table_game, self._checkpoint, self._last_input = table, checkpoint, last_input
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
        self.snapshot_at, self._last_input = 0, None

    def cache(self, state: app.AppState) -> None:
        """After a `sync`, with the state it led to (one `compact` does not take): when a snapshot is due
        (`snapshot_due`), keep it (written off this thread). Not after a clock checkpoint, whose entry the
        next tick rewrites. Never raises: a snapshot is a cache."""
        if self.snapshots is None or self._last_input is None or self._checkpoint is not None:
            return
        if not snapshot_due(self.entries - self.snapshot_at, self.snapshots.size) or self.snapshots.busy():
            return
        try:
            mark = self._mark(*self._last_input)
        except JournalError as exc:
            log.warning("no resume snapshot: %s", exc)
            return
        if mark is not None:
            self.snapshots.take(mark, state)
            self.snapshot_at = self.entries

    def _mark(self, seq: int, wall_time: str) -> Mark | None:
        crc = self.journal.entry_crc(self.session, seq)
        last = None if self.table_game is None else self.journal.last_entry(self.table_game)
        if crc is None or (last is not None and last[1] is None):
            return None  # a journal without checksums: nothing to check a snapshot's place against
        table_seq, table_crc = (0, 0) if last is None else (last[0], last[1] or 0)
        return Mark(self.session, seq, crc, wall_time, self.entries, self.table_game, table_seq, table_crc)

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
