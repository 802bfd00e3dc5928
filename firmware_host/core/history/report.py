"""The statistics as JSON-ready data, one shape for `wordtable stats --json` and the table page's
`/api/people`: the table's (`table_json`: everyone, the recent evenings) and a person's (`person_json`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firmware_host.core.history.evenings import evenings
from firmware_host.core.history.people import people, person_of
from firmware_host.core.history.played import PlayedGame
from firmware_host.core.text_input import TextRefused, clean

RECENT_EVENINGS = 5  # the evenings shown, the most recent first


def table_json(games: Sequence[PlayedGame]) -> dict[str, Any]:
    """Everyone (most recently played first: name, games, wins, streak, last played) and the recent
    evenings of `games` (oldest first)."""
    return {
        "people": [{key: p.to_json()[key] for key in ("name", "played", "won", "streak", "last_played")}
                   for p in people(games)],
        "evenings": [evening.to_json() for evening in evenings(games)[:RECENT_EVENINGS]],
        "games": len(games),
    }


def person_json(games: Sequence[PlayedGame], name: str) -> dict[str, Any] | None:
    """`name`'s statistics (`Person.to_json`) with the evenings they played in; None: no game of theirs.
    `name` is read as a record's text is (`text_input.clean`: NFC, trimmed, inner spaces folded)."""
    try:
        name = clean(name)
    except TextRefused:
        return None
    person = person_of(games, name)
    if person is None:
        return None
    theirs = [e for e in evenings(games) if name in e.people][:RECENT_EVENINGS]
    return person.to_json() | {"evenings": [evening.to_json() for evening in theirs]}
