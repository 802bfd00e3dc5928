"""The owner's side of the table page (page/owner.py), over real aiohttp: the owner PIN set on the box opens
a short owner session; `owner_only` answers 403 without a PIN set (saying how to set one on the box),
without a session, after it expired or the PIN changed, and for a write from another page; wrong PINs lock
the address out, tries are rate-limited; a seated player gets 403 on the backup and the restore, the owner
gets through."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from firmware_host.core.page_view import page_views
from firmware_host.owner_pin import save_pin
from firmware_host.page.owner import COOKIE, PIN_LIMIT, PIN_LOCK_S, SESSION_S, owner_link
from firmware_host.page.server import PageServer
from tests.helpers.page_box import Box
from tests.test_backup import add_recorded_games

PIN = "2580"


class Served:
    """A page server on 127.0.0.1 with a clock the test moves, a box, and a route of its own behind the gate
    (POST /api/test-owner), as the route modules add theirs (`add_routes(application, owner_only)`)."""

    def __init__(self, state_dir: Path) -> None:
        self.now = 1.0
        self.box = Box()
        self.state_dir = state_dir

        async def changed(request: web.Request) -> web.Response:
            return web.json_response({"ok": True, "changed": True})

        def routes(application: web.Application) -> None:
            application.router.add_post("/api/test-owner", self.server.owner.owner_only(changed))
            owner_link(application, "/test-owner", "Prüfen", "Test")

        self.server = PageServer(self.box.put, lambda: self.now, bind="127.0.0.1", port=0, state_dir=state_dir,
                                 extra_routes=routes)
        self.box.server = self.server
        self.url = self.server.start()
        self.server.publish(page_views(self.box.state))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    served = Served(tmp_path)
    yield served
    served.server.close()


def _session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def _post(session: aiohttp.ClientSession, url: str, path: str, body: Any = None,
                origin: str | None = "") -> tuple[int, dict]:
    headers = {"Origin": url if origin == "" else origin} if origin is not None else {}
    async with session.post(f"{url}{path}", data=json.dumps(body or {}), headers=headers) as response:
        return response.status, await response.json()


async def _get(session: aiohttp.ClientSession, url: str, path: str) -> tuple[int, Any]:
    async with session.get(f"{url}{path}") as response:
        if response.content_type == "application/json":
            return response.status, await response.json()
        return response.status, await response.read()


async def _seated(session: aiohttp.ClientSession, served: Served) -> None:
    status, _ = await _post(session, served.url, "/api/join", {"code": served.server.code, "seat": 0})
    assert status == 200


def test_without_a_pin_every_owner_route_says_how_to_set_one_on_the_box(served: Served) -> None:
    async def go() -> list[tuple[int, Any]]:
        async with _session() as session:
            await _seated(session, served)
            return [await _get(session, served.url, "/api/owner"),
                    await _post(session, served.url, "/api/owner", {"pin": PIN}),
                    await _get(session, served.url, "/api/backup"),
                    await _post(session, served.url, "/api/test-owner")]

    answers = asyncio.run(go())
    status, owner = answers[0]
    assert (status, owner["pin"], owner["owner"], owner["links"]) == (200, False, False, [])
    for status, body in answers[1:]:
        assert (status, body["error"]) == (403, "no_owner_pin")
        assert "set it on the box" in body["message"] and "Besitzer-PIN" in body["message"]


def test_a_seated_player_is_no_owner_and_the_owner_gets_through(served: Served) -> None:
    save_pin(served.state_dir, PIN)
    add_recorded_games(served.state_dir, ("quiddler",))

    async def go() -> dict[str, Any]:
        async with _session() as session:
            await _seated(session, served)
            seen: dict[str, Any] = {
                "backup": await _get(session, served.url, "/api/backup"),
                "restore": await _post(session, served.url, "/api/restore"),
                "gated": await _post(session, served.url, "/api/test-owner"),
                "wrong": await _post(session, served.url, "/api/owner", {"pin": "0000"}),
                "no pin": await _post(session, served.url, "/api/owner", {"pin": "12"}),
            }
            served.now += 10
            async with session.post(f"{served.url}/api/owner", data=json.dumps({"pin": PIN}),
                                    headers={"Origin": served.url}) as response:
                seen["login"] = response.status, response.headers.getall("Set-Cookie")
            seen["status"] = await _get(session, served.url, "/api/owner")
            seen["owner backup"] = await _get(session, served.url, "/api/backup")
            seen["owner gated"] = await _post(session, served.url, "/api/test-owner")
            seen["foreign"] = await _post(session, served.url, "/api/test-owner", origin="http://evil.example")
            seen["leave"] = await _post(session, served.url, "/api/owner/leave")
            seen["after"] = await _post(session, served.url, "/api/test-owner")
            return seen

    seen = asyncio.run(go())
    for refused in ("backup", "restore", "gated"):
        assert (seen[refused][0], seen[refused][1]["error"]) == (403, "not_owner"), refused
    assert seen["wrong"] == (403, {"error": "wrong_pin"}) and seen["no pin"] == (403, {"error": "wrong_pin"})
    status, cookies = seen["login"]
    assert status == 200 and len(cookies) == 1 and cookies[0].startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookies[0] and "SameSite=Strict" in cookies[0] and f"Max-Age={int(SESSION_S)}" in cookies[0]
    status, owner = seen["status"]
    assert owner["owner"] and owner["left"] == SESSION_S
    assert {link["path"] for link in owner["links"]} == {"/backup", "/wifi", "/test-owner"}
    assert seen["owner backup"][0] == 200 and seen["owner backup"][1][:2] == b"PK"  # the backup, a zip
    assert seen["owner gated"] == (200, {"ok": True, "changed": True})
    assert seen["foreign"] == (403, {"error": "origin"})
    assert seen["after"][1]["error"] == "not_owner"


def test_a_session_ends_when_it_expires_or_the_pin_changes_on_the_box(served: Served) -> None:
    save_pin(served.state_dir, PIN)

    async def go() -> list[int]:
        async with _session() as session:
            statuses = []
            for change in ("expire", "new pin", "removed"):
                assert (await _post(session, served.url, "/api/owner", {"pin": PIN}))[0] == 200
                statuses.append((await _post(session, served.url, "/api/test-owner"))[0])
                if change == "expire":
                    served.now += SESSION_S + 1
                else:
                    save_pin(served.state_dir, PIN if change == "new pin" else None)  # set anew: a new salt
                statuses.append((await _post(session, served.url, "/api/test-owner"))[0])
                save_pin(served.state_dir, PIN)
                served.now += 10
            return statuses

    assert asyncio.run(go()) == [200, 403, 200, 403, 200, 403]


def test_wrong_pins_lock_the_address_out_and_tries_are_rate_limited(served: Served) -> None:
    save_pin(served.state_dir, PIN)

    async def go() -> tuple[list[tuple[int, str]], list[int], int]:
        async with _session() as session:
            quick = [(await _post(session, served.url, "/api/owner", {"pin": "1111"}))[0] for _ in range(4)]
            served.now += 100
            answers = []
            for _ in range(PIN_LIMIT + 1):
                served.now += 2.0  # the rate limit lets one try through every 2 s
                status, body = await _post(session, served.url, "/api/owner", {"pin": "1111"})
                answers.append((status, body["error"]))
            served.now += 2.0
            right = (await _post(session, served.url, "/api/owner", {"pin": PIN}))[0]
            served.now += PIN_LOCK_S
            again = (await _post(session, served.url, "/api/owner", {"pin": PIN}))[0]
            return [*answers, (right, "")], quick, again

    answers, quick, again = asyncio.run(go())
    assert quick == [403, 403, 403, 429]  # a burst of 3, then "slow_down"
    wrong = PIN_LIMIT - 3 - 1  # 3 wrong ones counted already (the quick ones); the next locks
    assert answers == [(403, "wrong_pin")] * wrong + [(429, "locked")] * (PIN_LIMIT + 1 - wrong) + [(429, "")]
    assert again == 200


def test_a_login_must_come_from_the_page_itself(served: Served) -> None:
    save_pin(served.state_dir, PIN)

    async def go() -> list[tuple[int, dict]]:
        async with _session() as session:
            return [await _post(session, served.url, "/api/owner", {"pin": PIN}, origin=None),
                    await _post(session, served.url, "/api/owner", {"pin": PIN}, origin="http://evil.example")]

    assert asyncio.run(go()) == [(403, {"error": "origin"})] * 2


def test_the_owner_page_is_served_and_the_table_links_to_it_not_to_the_backup(served: Served) -> None:
    async def go() -> tuple[bytes, bytes]:
        async with _session() as session:
            return (await _get(session, served.url, "/owner"))[1], (await _get(session, served.url, "/"))[1]

    owner, index = asyncio.run(go())
    assert b"/static/owner.js" in owner and b'href="/owner"' in index and b'href="/backup"' not in index
