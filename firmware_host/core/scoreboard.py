"""The free scoreboard: named players, running totals, and an undo history of the last point changes.

The history is a `Chain` (each change links to the ones before it), so a change costs the same however
long the table has played: nothing is copied. `undo` takes back up to `UNDO_LIMIT` changes in a row;
older ones are forgotten (the chain is cut back to the newest `UNDO_LIMIT` whenever it reaches twice
that, so memory stays bounded too).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import islice

from firmware_host.core.chain import Chain
from firmware_host.core.text_input import NAME, TextRefused, clean

UNDO_LIMIT = 100  # how many changes in a row `undo` can take back


@dataclass(frozen=True, slots=True)
class Board:
    players: tuple[str, ...]
    totals: tuple[int, ...]
    selected: int = 0
    changes: Chain[tuple[int, int]] = field(default_factory=Chain)  # (player index, points added)
    undoable: int = 0  # how many of the newest changes `undo` may take back (at most UNDO_LIMIT)

    @classmethod
    def of(cls, players: tuple[str, ...]) -> Board:
        return cls(players, (0,) * len(players))

    @classmethod
    def restored(
        cls, players: tuple[str, ...], totals: tuple[int, ...], selected: int, history: tuple[tuple[int, int], ...]
    ) -> Board:
        """A board with `history` (player, points; oldest first) to undo, the newest UNDO_LIMIT of it."""
        kept = history[-UNDO_LIMIT:]
        return cls(players, totals, selected, Chain.of(kept), len(kept))

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """The changes `undo` can take back, (player index, points added), oldest first."""
        return tuple(islice(reversed(self.changes), self.undoable))[::-1]

    @property
    def last_change(self) -> tuple[int, int] | None:
        """(player index, points) of the change `undo` would take back; None when there is none."""
        return self.changes.last if self.undoable else None

    def select_next(self, steps: int = 1) -> Board:
        return replace(self, selected=(self.selected + steps) % len(self.players))

    def add(self, points: int) -> Board:
        """Add `points` (negative subtracts) to the selected player and remember it for undo."""
        totals = list(self.totals)
        totals[self.selected] += points
        changes = self.changes
        if len(changes) >= 2 * UNDO_LIMIT:  # cut the chain back to what can still be undone (every UNDO_LIMIT adds)
            changes = Chain.of(self.history[max(0, self.undoable - UNDO_LIMIT + 1) :])  # + the new one: UNDO_LIMIT
        return replace(self, totals=tuple(totals), changes=changes.add((self.selected, points)),
                       undoable=min(UNDO_LIMIT, self.undoable + 1))

    def undo(self) -> Board | None:
        """The board before the last change, with that player selected; None when there is nothing to undo."""
        if not self.undoable:
            return None
        player, points = self.changes.last
        totals = list(self.totals)
        totals[player] -= points
        return replace(self, totals=tuple(totals), selected=player, changes=self.changes.before,
                       undoable=self.undoable - 1)

    def resized(self, players: tuple[str, ...]) -> Board:
        """The board for a new list of players, keeping the totals of players that stay."""
        totals = tuple(self.totals[i] if i < len(self.totals) else 0 for i in range(len(players)))
        history = tuple((p, d) for p, d in self.history if p < len(players))
        return Board.restored(players, totals, min(self.selected, len(players) - 1), history)


def player_names(configured: tuple[str, ...], count: int, default_name: str) -> tuple[str, ...]:
    """`count` names: the configured ones first (normalised as names, `text_input.clean`), then
    `default_name` formatted with the seat number — also in place of a configured name that is not a
    name (empty, a control character, too long: `check-config` refuses those, a journal may still hold
    one)."""
    names = [_name(configured[i]) if i < len(configured) else "" for i in range(count)]
    return tuple(name or default_name.format(n=i + 1) for i, name in enumerate(names))


def _name(text: str) -> str:
    try:
        return clean(text, NAME)
    except TextRefused:
        return ""
