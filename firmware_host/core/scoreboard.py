"""The free scoreboard: named players, running totals, and an undo history of point changes."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.core.text_input import NAME, TextRefused, clean


@dataclass(frozen=True, slots=True)
class Board:
    players: tuple[str, ...]
    totals: tuple[int, ...]
    selected: int = 0
    history: tuple[tuple[int, int], ...] = ()  # (player index, points added), oldest first

    @classmethod
    def of(cls, players: tuple[str, ...]) -> Board:
        return cls(players, (0,) * len(players))

    def select_next(self, steps: int = 1) -> Board:
        return replace(self, selected=(self.selected + steps) % len(self.players))

    def add(self, points: int) -> Board:
        """Add `points` (negative subtracts) to the selected player and remember it for undo."""
        totals = list(self.totals)
        totals[self.selected] += points
        return replace(self, totals=tuple(totals), history=(*self.history, (self.selected, points)))

    def undo(self) -> Board | None:
        """The board before the last change, with that player selected; None when there is nothing to undo."""
        if not self.history:
            return None
        player, points = self.history[-1]
        totals = list(self.totals)
        totals[player] -= points
        return replace(self, totals=tuple(totals), selected=player, history=self.history[:-1])

    def resized(self, players: tuple[str, ...]) -> Board:
        """The board for a new list of players, keeping the totals of players that stay."""
        totals = tuple(self.totals[i] if i < len(self.totals) else 0 for i in range(len(players)))
        history = tuple((p, d) for p, d in self.history if p < len(players))
        return Board(players, totals, min(self.selected, len(players) - 1), history)


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
