"""A game of the journal as a play — the unit score apps count: its players with their final scores, the
winners, the date it started and how long it took — and plays as CSV (`PLAY_COLUMNS`, one row per player
per play: `wordtable journal export --format plays`).

- A player's score is the total of the game's scoring (`registry.score`), 0 for a player without a row.
- Zugzeit times turns and scores no points (`NO_POINTS`): its plays carry no scores and no ranks.
- Winners are those the scoring names once the game is finished (ties shared); an unfinished play has none.
- Ranks follow the totals (ties share a rank, the next rank skips: 1, 1, 3), the highest first — unless
  the game's winners hold the lowest total, then the lowest first.
- The duration runs from the game's start to its finish; for a game never finished, to its last record
  line. Wall-clock labels are UTC, as the journal keeps them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from firmware_host.core.games import registry
from firmware_host.core.games.registry import parse_record
from firmware_host.core.games.zugzeit.ids import GAME_ID as ZUGZEIT
from firmware_host.journal import GameSummary

NO_POINTS = frozenset({ZUGZEIT})  # games whose record is timed, not scored
PLAY_COLUMNS = ("game_id", "date", "game", "title", "player", "score", "winner", "rank", "duration_min")


@dataclass(frozen=True, slots=True)
class PlayerResult:
    name: str
    score: int | None  # None: the game scores no points
    winner: bool
    rank: int | None


@dataclass(frozen=True, slots=True)
class Play:
    game_id: int  # the game's id in the journal
    game: str  # the game's id (`quiddler`)
    title: str
    started: str  # UTC, ISO 8601 as the journal keeps it
    duration_min: int | None  # None: no end to measure to
    finished: bool
    highest_wins: bool
    players: tuple[PlayerResult, ...]

    @property
    def no_points(self) -> bool:
        return self.game in NO_POINTS


def play_of(summary: GameSummary, record: str, lang: str = "de") -> Play:
    """The play of a game with a record (`Journal.export_record`). Raises `RecordError`."""
    report = registry.score(parse_record(record))
    totals: dict[str, int] = {}
    for row in report.rows():
        totals[row.player] = row.total
    names = summary.players or tuple(totals)
    scores = {name: totals.get(name, 0) for name in names}
    winners = set(report.leaders) if report.finished else set()
    no_points = summary.game in NO_POINTS
    highest = _highest_wins(scores, winners)
    players = tuple(
        PlayerResult(name, None if no_points else scores[name], name in winners,
                     None if no_points else 1 + sum(1 for other in scores.values()
                                                    if (other > scores[name] if highest else other < scores[name])))
        for name in names
    )
    kit = registry.kit(summary.game)
    return Play(summary.id, summary.game, kit.name(lang) if kit else summary.game, summary.started,
                _minutes(summary.started, summary.finished or _last_label(record)), summary.finished is not None,
                highest, players)


def _highest_wins(scores: dict[str, int], winners: set[str]) -> bool:
    if not winners or len(set(scores.values())) < 2:
        return True
    return not all(scores[name] == min(scores.values()) for name in winners if name in scores)


def _last_label(record: str) -> str | None:
    for line in reversed(record.splitlines()):
        at = json.loads(line).get("at") if line.strip() else None
        if isinstance(at, str):
            return at
    return None


def parse_utc(label: str) -> datetime | None:
    """A journal's wall-clock label (`2026-05-01T19:00:00Z`) as a time, None when it is none."""
    try:
        return datetime.fromisoformat(label.replace("Z", "+00:00"))
    except ValueError:
        return None


def _minutes(start: str, end: str | None) -> int | None:
    begun, ended = parse_utc(start), parse_utc(end) if end else None
    if begun is None or ended is None or ended < begun:
        return None
    return round((ended - begun).total_seconds() / 60)


def plays_csv(plays: Iterable[Play]) -> str:
    """Plays as CSV (`PLAY_COLUMNS`, a header row first): one row per player per play, in order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PLAY_COLUMNS)
    for play in plays:
        for player in play.players:
            writer.writerow((play.game_id, play.started, play.game, play.title, player.name,
                             "" if player.score is None else player.score, int(player.winner),
                             "" if player.rank is None else player.rank,
                             "" if play.duration_min is None else play.duration_min))
    return out.getvalue()
