"""A past game sent to BG Stats from a phone: GET /api/games/<id>/bgstats (a seated phone, as the past
games) answers with a redirect to BG Stats' import link of the game as a play (`exports.bgstats`): on a
phone with the app, the app opens its import dialog; the box itself never talks to the internet."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path

from aiohttp import web

from firmware_host.core.record import RecordError
from firmware_host.exports.bgstats import bgstats_play, create_play_link
from firmware_host.exports.plays import play_of
from firmware_host.journal import Journal, JournalError
from firmware_host.journal_games import recorded


def play_link(path: Path, game_id: int) -> str | None:
    """BG Stats' import link of game `game_id` of the journal at `path`; None: no such game with a record."""
    try:
        with Journal.open(path, readonly=True) as journal:
            game = next((g for g in recorded(journal.games()) if g.id == game_id), None)
            if game is None:
                return None
            return create_play_link(bgstats_play(play_of(game, journal.export_record(game_id))))
    except (JournalError, RecordError):
        return None


def bgstats_route(application: web.Application, journal: Path | None, seated: Callable[[web.Request], bool],
                  headers: Mapping[str, str]) -> None:
    """Add the route for the journal at `journal` (None: none is kept); every answer has `headers`."""

    async def link(request: web.Request) -> web.Response:
        if not seated(request):
            return web.Response(status=403, text="no_seat", headers=headers)
        game_id = int(request.match_info["id"])
        found = None if journal is None else await asyncio.get_running_loop().run_in_executor(
            None, play_link, journal, game_id)
        if found is None:
            return web.Response(status=404, text="no_game", headers=headers)
        return web.Response(status=302, headers={**headers, "Location": found})

    application.router.add_get("/api/games/{id:[0-9]{1,9}}/bgstats", link)
