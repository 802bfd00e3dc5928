"""A journal holding games played at the table (the documented scripts, through `app.step`), archived as
the shell archives them: for `wordtable stats`, the page's people and the end-of-game line."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_host.journal import RECORD, Journal
from firmware_host.paths import journal_path
from tests.history_games import script_record

EVENING = [  # (game, started, finished, winner as the journal's list has it); two evenings
    ("perfektes-wort", "2026-05-01T19:00:00Z", "2026-05-01T19:40:00Z"),
    ("zugzeit", "2026-05-01T19:45:00Z", "2026-05-01T20:00:00Z"),
    ("perfektes-wort", "2026-05-01T20:05:00Z", "2026-05-01T20:45:00Z"),
    ("quiddler", "2026-05-08T19:00:00Z", "2026-05-08T20:00:00Z"),
]


def archive(journal: Journal, game: str, started: str, finished: str, record: str | None = None) -> int:
    """The game's record kept as a finished game of the journal; its id."""
    lines = [json.loads(line) for line in (record or script_record(game)).splitlines()[1:]]
    players = lines[0].get("players", [])
    game_id = journal.start_game(game, [p if isinstance(p, str) else str(p) for p in players], wall_time=started)
    for line in lines:
        journal.append(game_id, RECORD, line, started)
    journal.finish(game_id, None, wall_time=finished)
    return game_id


def history_journal(state: Path, games: list[tuple[str, str, str]] = EVENING) -> Path:
    """`state` with a journal holding `games` (the scripted game of each kind); returns `state`."""
    with Journal.open(journal_path(state)) as journal:
        for game, started, finished in games:
            archive(journal, game, started, finished)
    return state
