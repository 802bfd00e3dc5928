"""The table page's statistics per person over real HTTP (aiohttp): `/api/people` and `/api/people/{name}`
for a seated phone only, read-only from a journal of games played at the table; the person page's files."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import aiohttp
import pytest

from firmware_host.core.history import person_json, table_json
from firmware_host.page.people import titles
from firmware_host.page.server import PageServer
from firmware_host.paths import journal_path
from firmware_host.played_games import PlayedGames
from tests.helpers.page_box import Box, serve
from tests.history_journal import history_journal


@pytest.fixture
def served(tmp_path: Path) -> Iterator[PageServer]:
    history_journal(tmp_path)
    box = Box()
    server = serve(box, tmp_path)
    yield server
    server.close()


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[int, dict]:
    async with session.get(url) as response:
        return response.status, await response.json()


async def _seated_session(server: PageServer, go):
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        refused = await _get(session, f"{server.address}/api/people")
        async with session.post(f"{server.address}/api/join", headers={"Origin": server.address},
                                data=json.dumps({"code": server.code, "seat": 0})) as response:
            assert response.status == 200
        return refused, await go(session)


def test_everyone_and_a_person_for_a_seated_phone_only_read_only(served, tmp_path):
    before = journal_path(tmp_path).read_bytes()
    base = served.address

    async def go(session):
        paths = ["", f"/{quote('Geli')}", f"/{quote('Zoë')}", f"/{'x' * 65}"]
        return [await _get(session, f"{base}/api/people{path}") for path in paths]

    refused, (table, geli, nobody, long) = asyncio.run(_seated_session(served, go))
    assert refused == (403, {"error": "no_seat"})
    games = PlayedGames().read(journal_path(tmp_path))
    framing = {"ok": True, "lang": "de", "titles": titles("de")}
    assert table == (200, {**framing, **table_json(games)})  # what `wordtable stats --json` prints
    assert geli == (200, {**framing, **person_json(games, "Geli")})
    assert geli[1]["games"][0]["won"] == 2 and geli[1]["streak"] == 2
    assert table[1]["titles"]["zugzeit"] == "Zugzeit"
    assert nobody == (404, {"error": "no_person"}) and long == (404, {"error": "no_person"})
    assert journal_path(tmp_path).read_bytes() == before


def test_a_name_with_umlauts_and_spaces_is_found_by_its_escaped_path(tmp_path):
    from firmware_host.journal import Journal
    from tests.history_games import script_record
    from tests.history_journal import archive

    record = script_record("knack-das-wort").replace('"Anna"', '"Jörg Müller"')
    with Journal.open(journal_path(tmp_path)) as journal:
        archive(journal, "knack-das-wort", "2026-05-01T19:00:00Z", "2026-05-01T20:00:00Z", record)
    box = Box()
    server = serve(box, tmp_path)
    try:
        async def go(session):
            return await _get(session, f"{server.address}/api/people/{quote('Jörg Müller')}")

        _, (status, data) = asyncio.run(_seated_session(server, go))
    finally:
        server.close()
    assert status == 200 and data["name"] == "Jörg Müller" and data["rivals"][0]["name"] == "Ben"


def test_the_person_page_is_served_and_linked_from_the_table_page(served):
    async def go():
        async with aiohttp.ClientSession() as session:
            pages = {}
            for name in ("/", "/static/people.html", "/static/people.js"):
                async with session.get(f"{served.address}{name}") as response:
                    pages[name] = (response.status, await response.text())
            return pages

    pages = asyncio.run(go())
    assert all(status == 200 for status, _ in pages.values())
    assert 'href="/static/people.html"' in pages["/"][1]
    assert '<script src="/static/people.js"' in pages["/static/people.html"][1]
    script = pages["/static/people.js"][1]
    assert "/api/people" in script
