"""A finished game as the statistics see it (`PlayedGame`), taken from its scored record (`played_game`).

Pure: the caller reads the journal and scores the record (`registry.score`); this module only reads the
`ScoreReport`. What each game tells beyond its players' totals is a row of `FACTS`: whether its totals are
points (Zugzeit's are think time), whether it has winners of its own (Perfect Words is cooperative), and
where its best word is (Das perfekte Wort, Quiddler).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.core.record import ScoreReport


@dataclass(frozen=True, slots=True)
class Word:
    """A word as one game scored it: its text (Quiddler's in card notation) and its points."""

    text: str
    points: int


@dataclass(frozen=True, slots=True)
class Seat:
    """One person's part in one game: the total (None where the game scores no points), the think time in
    milliseconds (only Zugzeit has one) and the best word of the game (None where the game has no words or
    the person scored none)."""

    name: str
    total: int | None
    think_ms: int | None = None
    best_word: Word | None = None


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game: its journal id, game id, start and end (ISO 8601 wall-clock labels), its seats in
    play order and its winners (empty: the game has none — cooperative, or a turn clock without sudden
    death). Every winner has a seat."""

    id: int
    game: str
    started: str
    finished: str
    seats: tuple[Seat, ...]
    winners: tuple[str, ...]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    def seat(self, name: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.name == name), None)


BestWords = Callable[[Mapping[str, Any]], dict[str, Word]]  # a report's JSON -> each player's best word
ThinkTimes = Callable[[Mapping[str, Any]], dict[str, int]]  # a report's JSON -> each player's milliseconds thought


@dataclass(frozen=True, slots=True)
class Facts:
    """What a game's report tells the statistics (a row of `FACTS`)."""

    points: bool = True  # the players' totals are points (Zugzeit's are milliseconds thought)
    winners: bool = True  # the game has winners of its own (a cooperative game's team does not "win")
    best_words: BestWords | None = None  # where the game has words
    think_ms: ThinkTimes | None = None  # where the game times the players' turns


def _best(found: dict[str, Word], player: str, word: Word) -> None:
    """Keep `word` as `player`'s best when it scores more than the best so far (the first of equals stays)."""
    if player not in found or word.points > found[player].points:
        found[player] = word


def _perfektes_wort_words(report: Mapping[str, Any]) -> dict[str, Word]:
    """Each player's best scored row: its word as scored (a shortened word's kept part), its word points."""
    found: dict[str, Word] = {}
    for player in report["players"]:
        for row in player["rows"]:
            if row["status"] in ("valid", "shortened") and row["word"]:
                _best(found, player["name"], Word(row["word"], row["points"]))
    return found


def _quiddler_words(report: Mapping[str, Any]) -> dict[str, Word]:
    """Each player's most valuable word that counted (not lost on a challenge), in card notation."""
    found: dict[str, Word] = {}
    for scored in report["rounds"]:
        for row in scored["players"]:
            for word in row["words"]:
                if word["allowed"] is not False:
                    _best(found, row["player"], Word(word["cards"], word["value"]))
    return found


def _zugzeit_think(report: Mapping[str, Any]) -> dict[str, int]:
    return {player["player"]: player["total_ms"] for player in report["players"]}


FACTS: Mapping[str, Facts] = {
    "zugzeit": Facts(points=False, think_ms=_zugzeit_think),
    "perfektes-wort": Facts(best_words=_perfektes_wort_words),
    "quiddler": Facts(best_words=_quiddler_words),
    "perfect-words": Facts(winners=False),
    "knack-das-wort": Facts(),
}
DEFAULT_FACTS = Facts()  # a game without a row of its own: points and winners, no words


def played_game(game_id: int, game: str, started: str, finished: str, report: ScoreReport) -> PlayedGame | None:
    """The game `game_id` (of kind `game`) as the statistics see it; None when its record stops before the
    game's end (an abandoned game counts for nobody)."""
    if not report.finished:
        return None
    facts = FACTS.get(game, DEFAULT_FACTS)
    totals: dict[str, int] = {}
    for row in report.rows():
        totals[row.player] = row.total  # a player's last row holds the running total
    data = report.to_json() if facts.best_words is not None or facts.think_ms is not None else {}
    words = facts.best_words(data) if facts.best_words is not None else {}
    think = facts.think_ms(data) if facts.think_ms is not None else {}
    seats = tuple(
        Seat(name, total if facts.points else None, think.get(name), words.get(name)) for name, total in totals.items()
    )
    names = set(totals)
    winners = tuple(name for name in report.leaders if name in names) if facts.winners else ()
    return PlayedGame(game_id, game, started, finished, seats, winners)
