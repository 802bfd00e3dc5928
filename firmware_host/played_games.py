"""The finished games of the journal as the statistics see them (`core.history.PlayedGame`), for
`wordtable stats`, the table page's people and the OLED's line at a game's end. Read-only: the journal is
opened with SQLite's `mode=ro` (`Journal.open(readonly=True)`) and nothing is ever written.

`PlayedGames` scores each archived game once and keeps it: an archived game never changes (its key holds
its id, kind, start and end, so a journal restored in its place is read again).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from firmware_host.core.games import registry
from firmware_host.core.games.registry import parse_record
from firmware_host.core.history import PlayedGame, played_game
from firmware_host.core.record import RecordError
from firmware_host.journal import GameSummary, Journal
from firmware_host.journal_games import listed

log = logging.getLogger("wordtable.stats")

_Key = tuple[int, str, str, str]


class PlayedGames:
    """The journal's finished games, each scored once. Thread-safe (the page's requests share one)."""

    def __init__(self) -> None:
        self._scored: dict[_Key, PlayedGame | None] = {}
        self._lock = threading.Lock()

    def read(self, path: Path) -> tuple[PlayedGame, ...]:
        """The finished games of the journal at `path`, oldest first (none when there is no journal yet).
        An abandoned game, or one whose record does not score, counts for nobody. Raises `JournalError`."""
        if not path.exists():
            return ()
        with self._lock, Journal.open(path, readonly=True) as journal:
            found = []
            for summary in listed(journal):
                if summary.finished is None:
                    continue
                key = (summary.id, summary.game, summary.started, summary.finished)
                if key not in self._scored:
                    self._scored[key] = _played(journal, summary, summary.finished)
                game = self._scored[key]
                if game is not None:
                    found.append(game)
            return tuple(found)


def _played(journal: Journal, summary: GameSummary, finished: str) -> PlayedGame | None:
    try:
        report = registry.score(parse_record(journal.export_record(summary.id)))
    except RecordError as exc:
        log.warning("game %d is left out of the statistics: its record does not score (%s)", summary.id, exc)
        return None
    return played_game(summary.id, summary.game, summary.started, finished, report)
