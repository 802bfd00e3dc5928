"""The free scoreboard: named players, running totals, and an undo history of the last point changes.

The history is a persistent stack (each change links to the one before it), so a change costs the same
however long the table has played: nothing is copied. `undo` takes back up to `UNDO_LIMIT` changes in a
row; older ones are forgotten (the chain is cut back to the newest `UNDO_LIMIT` whenever it reaches twice
that, so memory stays bounded too).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

UNDO_LIMIT = 100  # how many changes in a row `undo` can take back


@dataclass(frozen=True, slots=True)
class Change:
    """One point change and the change before it; `depth`: the changes in the chain up to this one."""

    player: int
    points: int
    before: Change | None
    depth: int


def _chain(changes: tuple[tuple[int, int], ...]) -> Change | None:
    """A chain of `changes` (player, points; oldest first)."""
    last: Change | None = None
    for depth, (player, points) in enumerate(changes, start=1):
        last = Change(player, points, last, depth)
    return last


@dataclass(frozen=True, slots=True)
class Board:
    players: tuple[str, ...]
    totals: tuple[int, ...]
    selected: int = 0
    last: Change | None = None  # the newest change
    undoable: int = 0  # how many changes from `last` back `undo` may take back (at most UNDO_LIMIT)

    @classmethod
    def of(cls, players: tuple[str, ...]) -> Board:
        return cls(players, (0,) * len(players))

    @classmethod
    def restored(
        cls, players: tuple[str, ...], totals: tuple[int, ...], selected: int, history: tuple[tuple[int, int], ...]
    ) -> Board:
        """A board with `history` (player, points; oldest first) to undo, the newest UNDO_LIMIT of it."""
        kept = tuple(history[-UNDO_LIMIT:])
        return cls(players, totals, selected, _chain(kept), len(kept))

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """The changes `undo` can take back, (player index, points added), oldest first."""
        changes: list[tuple[int, int]] = []
        change = self.last
        while change is not None and len(changes) < self.undoable:
            changes.append((change.player, change.points))
            change = change.before
        return tuple(reversed(changes))

    @property
    def last_change(self) -> tuple[int, int] | None:
        """(player index, points) of the change `undo` would take back; None when there is none."""
        if self.last is None or self.undoable == 0:
            return None
        return (self.last.player, self.last.points)

    def select_next(self, steps: int = 1) -> Board:
        return replace(self, selected=(self.selected + steps) % len(self.players))

    def add(self, points: int) -> Board:
        """Add `points` (negative subtracts) to the selected player and remember it for undo."""
        totals = list(self.totals)
        totals[self.selected] += points
        before = self.last
        depth = before.depth + 1 if before is not None else 1
        if depth > 2 * UNDO_LIMIT:  # cut the chain back to what can still be undone (every UNDO_LIMIT adds)
            before = _chain(self.history[-(UNDO_LIMIT - 1):])
            depth = before.depth + 1 if before is not None else 1
        change = Change(self.selected, points, before, depth)
        return replace(self, totals=tuple(totals), last=change, undoable=min(UNDO_LIMIT, self.undoable + 1))

    def undo(self) -> Board | None:
        """The board before the last change, with that player selected; None when there is nothing to undo."""
        change = self.last
        if change is None or self.undoable == 0:
            return None
        totals = list(self.totals)
        totals[change.player] -= change.points
        return replace(self, totals=tuple(totals), selected=change.player, last=change.before,
                       undoable=self.undoable - 1)

    def resized(self, players: tuple[str, ...]) -> Board:
        """The board for a new list of players, keeping the totals of players that stay."""
        totals = tuple(self.totals[i] if i < len(self.totals) else 0 for i in range(len(players)))
        history = tuple((p, d) for p, d in self.history if p < len(players))
        return Board.restored(players, totals, min(self.selected, len(players) - 1), history)


def player_names(configured: tuple[str, ...], count: int, default_name: str) -> tuple[str, ...]:
    """`count` names: the configured ones first, then `default_name` formatted with the seat number."""
    return tuple(configured[i] if i < len(configured) else default_name.format(n=i + 1) for i in range(count))
