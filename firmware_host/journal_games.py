"""The games kept in the journal that have a record to score: what `wordtable journal` lists and exports and
what the table page's past games show (both read the journal read-only) — and a game left to be resumed
(`EndGame.shelved`) and brought back (`BeginGame.resumes`), which stays one game in that list.

A shelved game's record is archived without a winner and marked with an entry of kind `SHELVED` (its key
on the core's shelf). Its resumption is a new game in the journal that starts at the same time, holds the
shelved record's lines and names it in its meta (`RESUMES`); the list shows only the latest part, whose
record is the whole game (export, league and `wordtable score` read it as any other).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from firmware_host.core.games import registry
from firmware_host.journal import RECORD, RETRACT, GameSummary, Journal

SHELVED = "shelved"  # the entry kind that marks a record as left to be resumed: {"key": KEY}
RESUMES = "resumes"  # the meta key of a resumed game: the id of the game it continues


def recorded(games: list[GameSummary], resumed: Collection[int] = ()) -> list[GameSummary]:
    """The games that keep a record, in the given order: the box's own session log (and any mode without a
    record) left out, and the games in `resumed` (`resumed_ids`: a later game holds their record)."""
    kinds = set(registry.record_games())
    return [game for game in games if game.game in kinds and game.id not in resumed]


def resumed_ids(journal: Journal, games: list[GameSummary]) -> set[int]:
    """The ids of the games that a later game resumed (of `games`, the journal's). Only a game that starts
    at the same time as an earlier one of its kind can be a resumption: only those metas are read."""
    seen: set[tuple[str, str]] = set()
    ids: set[int] = set()
    for game in games:
        if (game.game, game.started) in seen:
            earlier = journal.meta(game.id).get(RESUMES)
            if isinstance(earlier, int):
                ids.add(earlier)
        seen.add((game.game, game.started))
    return ids


def listed(journal: Journal) -> list[GameSummary]:
    """The games `wordtable journal list`, the page and the statistics speak of, oldest first: those with a
    record, a game shelved and resumed once (as its latest part)."""
    games = journal.games()
    return recorded(games, resumed_ids(journal, games))


def shelve(journal: Journal, game_id: int, key: int, wall_time: str) -> None:
    """Archive the open game `game_id` without a winner, marked as shelved under `key`."""
    journal.append(game_id, SHELVED, {"key": key}, wall_time)
    journal.finish(game_id, None, wall_time=wall_time)


def resume(journal: Journal, key: int, game: str, players: Iterable[str], beside: int) -> int:
    """The game shelved under `key` brought back: a new open game (beside the session `beside`) with the
    shelved record's lines, its start and a meta naming the game it continues; its id. When no game of the
    journal holds `key` (the journal was replaced meanwhile) the new game starts empty."""
    old = shelved_game(journal, key, game)
    if old is None:
        return journal.start_game(game, players, beside=beside)
    new = journal.start_game(game, players, {RESUMES: old.id}, wall_time=old.started, beside=beside)
    for entry in journal.events(old.id, kinds=(RECORD, RETRACT)):
        journal.append(new, entry.kind, entry.payload, entry.wall_time)
    return new


def shelved_game(journal: Journal, key: int, game: str) -> GameSummary | None:
    """The latest game of kind `game` archived without a winner and marked as shelved under `key`."""
    for summary in reversed(journal.games()):
        if summary.game != game or summary.finished is None or summary.winner is not None:
            continue
        if any(entry.payload.get("key") == key for entry in journal.events(summary.id, kinds=(SHELVED,))):
            return summary
    return None
