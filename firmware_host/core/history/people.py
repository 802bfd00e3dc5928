"""Statistics per person over the finished games (`PlayedGame`s, oldest first): games and wins per game,
average and best totals per game (totals of different games are not comparable), the best word per game,
the think time (Zugzeit's, in milliseconds: a time, never points), the rivals (head to head) and the current
win streak. A person is the name the records hold. Pure.

Contract: `won <= with_winner <= played` per game; a game with several winners (a shared win) is a win for
each of them; a game without winners (cooperative, a turn clock without sudden death) neither extends nor
breaks a streak; head to head is symmetric (`a`'s rival `b` has `a` as rival with the wins swapped).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core.history.played import PlayedGame, Word


@dataclass(frozen=True, slots=True)
class GameStats:
    """One person in one game (kind): `played` games, `won` of them, `with_winner` of them had a winner;
    the `points` summed over the `scored` games with points, the best total, the best word, the
    milliseconds thought over the `timed` games."""

    game: str
    played: int = 0
    won: int = 0
    with_winner: int = 0
    scored: int = 0
    points: int = 0
    best_total: int | None = None
    best_word: Word | None = None
    timed: int = 0
    think_ms: int = 0

    @property
    def average(self) -> float | None:
        """The average total, to one decimal (None: no game with points)."""
        return round(self.points / self.scored, 1) if self.scored else None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "played": self.played, "won": self.won, "with_winner": self.with_winner,
            "average": self.average, "best_total": self.best_total,
            "best_word": None if self.best_word is None else {"word": self.best_word.text,
                                                              "points": self.best_word.points},
            "think_s": self.think_ms // 1000 if self.timed else None,
            "think_time": minutes_seconds(self.think_ms) if self.timed else None,
        }


@dataclass(frozen=True, slots=True)
class Rival:
    """Head to head with `name`: the games played `together`, the person's `wins` and the rival's
    (`their_wins`) among them."""

    name: str
    together: int = 0
    wins: int = 0
    their_wins: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "together": self.together, "wins": self.wins, "their_wins": self.their_wins}


@dataclass(frozen=True, slots=True)
class Person:
    """A person's statistics: per game in the order first played, the rivals (most games together first),
    the current win streak, the ids of the person's games (oldest first) and when the last one ended."""

    name: str
    games: tuple[GameStats, ...]
    rivals: tuple[Rival, ...]
    streak: int
    played: tuple[int, ...]
    last_played: str

    @property
    def won(self) -> int:
        return sum(stats.won for stats in self.games)

    @property
    def think_ms(self) -> int:
        return sum(stats.think_ms for stats in self.games)

    @property
    def timed(self) -> bool:
        """Whether any of the person's games timed their turns (Zugzeit)."""
        return any(stats.timed for stats in self.games)

    def of(self, game: str) -> GameStats | None:
        return next((stats for stats in self.games if stats.game == game), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "played": len(self.played), "won": self.won, "streak": self.streak,
            "last_played": self.last_played,
            "think_s": self.think_ms // 1000 if self.timed else None,
            "think_time": minutes_seconds(self.think_ms) if self.timed else None,
            "games": [stats.to_json() for stats in self.games],
            "rivals": [rival.to_json() for rival in self.rivals],
        }


def people(games: Sequence[PlayedGame]) -> tuple[Person, ...]:
    """Everyone in `games` (oldest first), the most recently played first (then by name)."""
    names = {name for game in games for name in game.players}
    found = [person for person in (person_of(games, name) for name in names) if person is not None]
    return tuple(sorted(found, key=lambda p: (-p.played[-1], p.name)))


def person_of(games: Sequence[PlayedGame], name: str) -> Person | None:
    """`name`'s statistics over `games` (oldest first); None when `name` played none of them."""
    mine = [game for game in games if game.seat(name) is not None]
    if not mine:
        return None
    stats: dict[str, GameStats] = {}
    rivals: dict[str, Rival] = {}
    streak = 0
    for game in mine:
        won = name in game.winners
        stats[game.game] = _counted(stats.get(game.game, GameStats(game.game)), game, name)
        for other in game.players:
            if other != name:
                rival = rivals.get(other, Rival(other))
                rivals[other] = replace(rival, together=rival.together + 1, wins=rival.wins + won,
                                        their_wins=rival.their_wins + (other in game.winners))
        if game.winners:
            streak = streak + 1 if won else 0
    ordered = tuple(sorted(rivals.values(), key=lambda r: (-r.together, r.name)))
    return Person(name, tuple(stats.values()), ordered, streak, tuple(g.id for g in mine), mine[-1].finished)


def _counted(stats: GameStats, game: PlayedGame, name: str) -> GameStats:
    seat = game.seat(name)
    assert seat is not None
    stats = replace(stats, played=stats.played + 1, won=stats.won + (name in game.winners),
                    with_winner=stats.with_winner + bool(game.winners))
    if seat.total is not None:
        best = seat.total if stats.best_total is None else max(stats.best_total, seat.total)
        stats = replace(stats, scored=stats.scored + 1, points=stats.points + seat.total, best_total=best)
    if seat.best_word is not None and (stats.best_word is None or seat.best_word.points > stats.best_word.points):
        stats = replace(stats, best_word=seat.best_word)
    if seat.think_ms is not None:
        stats = replace(stats, timed=stats.timed + 1, think_ms=stats.think_ms + seat.think_ms)
    return stats


def names_in(games: Iterable[PlayedGame]) -> tuple[str, ...]:
    """Every name in `games`, in the order first seen."""
    return tuple(dict.fromkeys(name for game in games for name in game.players))


def minutes_seconds(ms: int) -> str:
    """A think time as minutes and seconds ("12:05"; "75:00" past the hour), the seconds cut, never rounded up."""
    minutes, seconds = divmod(max(0, ms) // 1000, 60)
    return f"{minutes}:{seconds:02d}"
