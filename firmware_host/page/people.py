"""The table page's statistics per person (issue 37), read from the journal read-only like the past games
(`past_games`), and for the same phones: a seated one. `GET /api/people` is everyone and the table's recent
evenings, `GET /api/people/{name}` one person (`core.history.report`: the data `wordtable stats --json`
prints), both with the box's language (`lang`) and the games' titles in it (`titles`) for
`static/people.html`.

Each archived game is scored once per server (`PlayedGames`); a request reads the journal in a worker
thread, never on the server's loop.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aiohttp import web

from firmware_host.core.games import registry
from firmware_host.core.history import PlayedGame, person_json, table_json
from firmware_host.journal import JournalError
from firmware_host.played_games import PlayedGames
from firmware_host.web import security_headers

log = logging.getLogger("wordtable.page")

HEADERS = security_headers("'self'")
MAX_NAME = 64  # longer than any name a record takes
Answer = Callable[[Sequence[PlayedGame]], dict[str, Any] | None]  # the statistics of the games; None: no such person


def people_routes(application: web.Application, seated: Callable[[web.Request], bool], journal: Path | None,
                  lang: Callable[[], str]) -> None:
    """Add the two routes to `application`: answered for a request `seated` holds for, from `journal`'s
    file (None: no journal, nothing played), in the language `lang()` says."""
    played = PlayedGames()

    async def read(request: web.Request, answer: Answer) -> web.Response:
        if not seated(request):
            return _answer(403, {"error": "no_seat"})
        games: Sequence[PlayedGame] = ()
        if journal is not None:
            try:
                games = await asyncio.get_running_loop().run_in_executor(None, played.read, journal)
            except (JournalError, OSError, sqlite3.Error) as exc:
                log.info("table page: statistics refused: %s", exc)
                return _answer(500, {"error": "journal"})
        data = answer(games)
        if data is None:
            return _answer(404, {"error": "no_person"})
        shown = lang()
        return _answer(200, {"ok": True, "lang": shown, "titles": titles(shown), **data})

    async def everyone(request: web.Request) -> web.Response:
        return await read(request, table_json)

    async def one(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if len(name) > MAX_NAME:
            return _answer(404, {"error": "no_person"})
        return await read(request, lambda games: person_json(games, name))

    application.router.add_get("/api/people", everyone)
    application.router.add_get("/api/people/{name}", one)


def titles(lang: str) -> dict[str, str]:
    """Each game's title in `lang` by its id (the statistics name games by id)."""
    return {game: kit.name(lang) for game in registry.record_games() if (kit := registry.kit(game)) is not None}


def _answer(status: int, body: dict[str, Any]) -> web.Response:
    return web.json_response(body, status=status, headers=HEADERS)
