"""The past games on the table page: read from the journal read-only (a connection of its own, opened with
SQLite's `mode=ro` by `Journal.open(readonly=True)` for each request; the page never writes the journal).

`games_list` is what `wordtable journal list` shows (only games with a record to score), `game_sheet` the
table `wordtable score` prints for a game, `game_record` the record itself (JSON Lines, as `wordtable
journal export` writes it and `wordtable score` reads it). Each raises `PastGameError` with a short reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.core.games import registry
from firmware_host.core.games.registry import parse_record
from firmware_host.core.record import RecordError
from firmware_host.journal import Journal, JournalError
from firmware_host.journal_games import listed, recorded


class PastGameError(ValueError):
    """No such game, or a journal that cannot be read; `reason` is the page's error key."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def games_list(path: Path, lang: str) -> list[dict[str, Any]]:
    """The games with a record, newest first: id, date, game id and title, players, winner, finished."""
    if not path.exists():
        return []
    try:
        with Journal.open(path, readonly=True) as journal:
            games = listed(journal)
    except JournalError:
        raise PastGameError("journal") from None
    shown = []
    for game in reversed(games):
        kit = registry.kit(game.game)
        assert kit is not None  # a game with a record has a kit
        shown.append({"id": game.id, "date": game.started, "game": game.game, "title": kit.name(lang),
                       "players": list(game.players), "winner": game.winner, "finished": game.finished is not None})
    return shown


def game_record(path: Path, game_id: int) -> tuple[str, str]:
    """(game id, the record's text) of game `game_id`."""
    if not path.exists():
        raise PastGameError("no_game")
    try:
        with Journal.open(path, readonly=True) as journal:
            game = next((g for g in recorded(journal.games()) if g.id == game_id), None)
            if game is None:
                raise PastGameError("no_game")
            return game.game, journal.export_record(game_id)
    except JournalError:
        raise PastGameError("journal") from None


def game_sheet(path: Path, game_id: int, lang: str) -> dict[str, Any]:
    """The game's scored table as `wordtable score` prints it."""
    game, record = game_record(path, game_id)
    try:
        report = registry.score(parse_record(record))
    except RecordError:
        raise PastGameError("unscorable") from None
    kit = registry.kit(game)
    return {"id": game_id, "game": game, "title": kit.name(lang) if kit else game, "text": report.text(lang)}
