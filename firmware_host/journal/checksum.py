"""The checksums in the journal's rows: what a damaged cell is told apart by (no I/O here).

- An event's `crc` covers its sequence number, game, kind, payload and wall time, and the `crc` of the
  game's previous event (0 for its first): the events of a game form a chain, so an entry changed,
  removed or moved from one game to another breaks the chain at the entry after it, and a replay stops
  there (`Chain`). Chains are per game because whole finished sessions are deleted (`drop_finished`).
- A game's `crc` covers every column of its row (`finished` and `winner` too: recomputed when they change);
  a setting's covers its key and value.
- Journals written before the checksums are migrated once at open (`firmware_host.journal.file`): their
  rows are checksummed then, after the file passed the open's checks — what they hold at that moment is
  taken as their record, as it would have been replayed without checksums.
CRC-32 finds every burst of damage up to 32 bits and any other with odds of 2⁻³²; it guards against
storage damage, not against someone who rewrites the file on purpose.
"""

from __future__ import annotations

import zlib
from typing import Any

EVENT_COLUMNS = ("seq", "game_id", "kind", "payload", "wall_time")
GAME_COLUMNS = ("id", "game", "players", "meta", "started", "finished", "winner")
SETTING_COLUMNS = ("key", "value")


def _crc(values: tuple[Any, ...], start: int = 0) -> int:
    return zlib.crc32(repr(values).encode("utf-8", "surrogatepass"), start)


def event_crc(row: tuple[Any, ...], previous: int) -> int:
    """The checksum of an event row (`EVENT_COLUMNS`) that follows one with checksum `previous` in its game."""
    return _crc(row, previous)


def row_crc(row: tuple[Any, ...]) -> int:
    """The checksum of a game row (`GAME_COLUMNS`) or a setting row (`SETTING_COLUMNS`)."""
    return _crc(row)


class Chain:
    """Checks the events of games in seq order, one chain per game: `good(row, crc)` says whether the row
    continues its game's chain; once a game's chain breaks, none of its later rows is good."""

    def __init__(self, start: dict[Any, int] | None = None) -> None:
        """`start`: the checksum each game's chain goes on from (a check that begins after a known entry)."""
        self._last: dict[Any, int] = dict(start or {})
        self.broken: set[Any] = set()

    def good(self, row: tuple[Any, ...], crc: Any) -> bool:
        game = row[1]
        if game in self.broken:
            return False
        if not isinstance(crc, int) or event_crc(row, self._last.get(game, 0)) != crc:
            self.broken.add(game)
            return False
        self._last[game] = crc
        return True
