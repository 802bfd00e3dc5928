"""The table's evenings: the finished games grouped by time — a gap of more than `EVENING_GAP_S` between
one game's end and the next one's start begins a new evening. Pure (the times are the records' ISO 8601
wall-clock labels, read here without the clock modules the core does without; one that does not read
begins a new evening)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.core.history.people import names_in
from firmware_host.core.history.played import PlayedGame

EVENING_GAP_S = 6 * 3600


@dataclass(frozen=True, slots=True)
class Evening:
    """Games played one after another, oldest first; the people in the order they first sat down."""

    games: tuple[PlayedGame, ...]

    @property
    def started(self) -> str:
        return self.games[0].started

    @property
    def finished(self) -> str:
        return self.games[-1].finished

    @property
    def people(self) -> tuple[str, ...]:
        return names_in(self.games)

    def wins(self) -> dict[str, int]:
        """Each person's wins this evening (0 for those who won nothing), in the order of `people`."""
        return {name: sum(name in game.winners for game in self.games) for name in self.people}

    def to_json(self) -> dict[str, Any]:
        return {
            "started": self.started, "finished": self.finished, "people": list(self.people), "wins": self.wins(),
            "games": [{"id": g.id, "game": g.game, "started": g.started, "players": list(g.players),
                       "winners": list(g.winners)} for g in self.games],
        }


def evenings(games: Sequence[PlayedGame]) -> tuple[Evening, ...]:
    """`games` (oldest first) as evenings, the most recent first."""
    found: list[list[PlayedGame]] = []
    for game in games:
        if found and _within(found[-1][-1].finished, game.started):
            found[-1].append(game)
        else:
            found.append([game])
    return tuple(Evening(tuple(group)) for group in reversed(found))


def _within(ended: str, started: str) -> bool:
    """Whether a game started at `started` belongs to the evening of the game that ended at `ended`."""
    end, start = seconds_of(ended), seconds_of(started)
    return end is not None and start is not None and start - end <= EVENING_GAP_S


_LABEL = re.compile(r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,]\d+)?(Z|[+-]\d\d:?\d\d)\Z")


def seconds_of(label: str) -> int | None:
    """An ISO 8601 wall-clock label with its zone ("2026-05-01T19:00:00Z", "…+02:00") as seconds since
    1970 (UTC); None for anything else."""
    found = _LABEL.match(label)
    if found is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in found.groups()[:6])
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 61):
        return None
    zone = found.group(7)
    offset = 0 if zone == "Z" else (1 if zone[0] == "+" else -1) * (int(zone[1:3]) * 60 + int(zone[-2:])) * 60
    return _days(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset


def _days(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to the date (proleptic Gregorian; H. Hinnant's days_from_civil)."""
    year -= month <= 2
    era = year // 400
    of_era = year - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    of_era_days = of_era * 365 + of_era // 4 - of_era // 100 + of_year
    return era * 146097 + of_era_days - 719468
