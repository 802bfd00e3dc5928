"""A phone belongs to a person (issue 37), through the real page server (aiohttp): its token follows the
person into a game that seats them elsewhere, across a restart of the server, and a token file written
before people (seats) becomes the people sitting there."""

from __future__ import annotations

import asyncio
import hashlib
import json

import aiohttp

from firmware_host.core import app
from firmware_host.core.events import Button, Event, LongPress, Press, SeatAnswer, SeatEntry, SeatJoin
from firmware_host.page.guard import STORE_NAME
from firmware_host.page.server import COOKIE, PageServer
from tests.helpers.page_box import Box, serve


def _steps(box: Box, *events: Event) -> None:
    for event in events:
        box.put(event)


def _new_game_with_ben_first(box: Box) -> None:
    """Das perfekte Wort from the menu: the same players, Ben moved first, the game begun."""
    at = 10.0
    _steps(box, *app.events_to_open(box.state, "game:perfektes-wort", at) or [])
    _steps(box, LongPress(Button.NEXT, at), *(Press(Button.START, at) for _ in range(4)))
    assert box.state.flow is not None and box.state.flow.players == ("Ben", "Anna")


async def _join(server: PageServer, session: aiohttp.ClientSession, name: str) -> int:
    async with session.post(f"{server.address}/api/join", headers={"Origin": server.address},
                            data=json.dumps({"code": server.code, "name": name})) as response:
        return response.status


async def _view_until(ws: aiohttp.ClientWebSocketResponse, ok) -> dict:
    while True:
        message = await asyncio.wait_for(ws.receive(), 5)
        data = json.loads(message.data)
        if data["type"] == "view" and ok(data["view"]):
            return data["view"]


def _settled(server: PageServer) -> None:
    async def nothing() -> None:
        await asyncio.sleep(0)

    assert server._loop is not None
    asyncio.run_coroutine_threadsafe(nothing(), server._loop).result(5)


def test_a_phones_token_follows_its_person_into_a_game_and_across_a_restart(tmp_path):
    box = Box()
    server = serve(box, tmp_path)

    async def joined() -> dict[str, str]:
        tokens = {}
        for name in ("Anna", "Ben"):
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(cookie_jar=jar) as session:
                assert await _join(server, session, name) == 202  # the core seats them
            tokens[name] = next(c.value for c in jar if c.key == COOKIE)
        return tokens

    async def in_the_game(token: str) -> tuple[dict, dict]:
        async with aiohttp.ClientSession() as session, session.ws_connect(
                f"{server.address}/ws", headers={"Origin": server.address, "Cookie": f"{COOKIE}={token}"}) as ws:
            before = await _view_until(ws, lambda v: v["game"] is None and v["seat"] is not None)
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, _new_game_with_ben_first, box)
            await loop.run_in_executor(None, _settled, server)  # the server has taken the last views
            async with session.ws_connect(f"{server.address}/ws", headers={
                    "Origin": server.address, "Cookie": f"{COOKIE}={token}"}) as now:  # sent the view at once
                after = await _view_until(now, lambda v: True)
            box.drained()
            await ws.send_str(json.dumps({"type": "entry", "seat": 1, "text": "Wort"}))  # the seat it showed
            while json.loads((await asyncio.wait_for(ws.receive(), 5)).data)["type"] != "sent":
                pass
            return before, after

    try:
        tokens = asyncio.run(joined())
        _settled(server)
        assert box.state.board.players == ("Anna", "Ben")
        ben = box.state.roster.named("Ben")
        assert ben is not None and sorted(h.person for h in server.tokens.holders.values()) == [0, 1]
        before, after = asyncio.run(in_the_game(tokens["Ben"]))
        assert (before["seat"], before["person_name"]) == (1, "Ben")
        assert (after["seat"], after["person_id"], after["person_name"]) == (0, ben.id, "Ben")  # Ben starts
        sent = [e for e in box.drained() if isinstance(e, SeatEntry)]
        assert [(e.seat, e.person) for e in sent] == [(0, ben.id)]
    finally:
        server.close()

    again = serve(box, tmp_path)  # the service restarted: the phone does not join again

    async def after_restart(token: str) -> dict:
        async with aiohttp.ClientSession() as session, session.ws_connect(
                f"{again.address}/ws", headers={"Origin": again.address, "Cookie": f"{COOKIE}={token}"}) as ws:
            return await _view_until(ws, lambda v: True)

    try:
        view = asyncio.run(after_restart(tokens["Ben"]))
        assert (view["seat"], view["person_name"], view["game"]) == (0, "Ben", "perfektes-wort")
    finally:
        again.close()


def test_a_token_file_of_seats_becomes_the_people_who_sit_there(tmp_path):
    token = "an-old-token"
    digest = hashlib.sha256(token.encode()).hexdigest()
    (tmp_path / STORE_NAME).write_text(json.dumps({"tokens": {digest: {"seat": 1, "active": True}}}))
    box = Box()
    for name in ("Anna", "Ben"):
        box.put(SeatJoin(name, f"c-{name}", 1.0))
    server = serve(box, tmp_path)
    try:
        _settled(server)
        held = server.tokens.seat_of(token)
        ben = box.state.roster.named("Ben")
        assert held is not None and ben is not None and held.person == ben.id
        kept = json.loads((tmp_path / STORE_NAME).read_text())
        assert kept["tokens"] == {digest: {"person": ben.id, "active": True}}
        assert kept["code"] == server.code  # the box's table code is kept beside the tokens
    finally:
        server.close()


def test_a_seat_token_of_a_default_seat_a_person_took_holds_nothing_there(tmp_path):
    box = Box()
    server = serve(box, tmp_path)

    async def go() -> tuple[dict, list[dict]]:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            async with session.post(f"{server.address}/api/join", headers={"Origin": server.address},
                                    data=json.dumps({"code": server.code, "seat": 0})) as response:
                assert response.status == 200 and (await response.json())["person"] == -1  # "Spieler 1"
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as anna:
                assert await _join(server, anna, "Anna") == 202  # another phone: Anna's
            await asyncio.get_running_loop().run_in_executor(None, _settled, server)
            async with session.ws_connect(f"{server.address}/ws", headers={"Origin": server.address}) as ws:
                view = await _view_until(ws, lambda v: True)
                await ws.send_str(json.dumps({"type": "entry", "seat": 0, "text": "Wort"}))
                answer = json.loads((await asyncio.wait_for(ws.receive(), 5)).data)
                return view, [answer]

    try:
        view, answers = asyncio.run(go())
        assert box.state.board.players == ("Anna",)  # the fresh box's defaults gave way to Anna
        assert view["seat"] is None and view.get("person_id") is None  # not Anna's phone
        assert answers == [{"type": "error", "reason": "no_seat"}]
    finally:
        server.close()


def test_taking_over_a_person_another_phone_holds_waits_for_the_table_and_moves_the_person(tmp_path):
    box = Box()
    server = serve(box, tmp_path)

    async def go() -> tuple[str, str, int]:
        tokens = []
        for _ in range(2):
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(cookie_jar=jar) as session:
                status = await _join(server, session, "Ben")
            tokens.append((status, next(c.value for c in jar if c.key == COOKIE)))
        (first, old), (second, new) = tokens
        assert (first, second) == (202, 202)  # Ben joins; then another phone asks for Ben: the table decides
        return old, new, second

    try:
        old, new, _ = asyncio.run(go())
        _settled(server)
        ben = box.state.roster.named("Ben")
        assert ben is not None and server.tokens.holder_of(-1, ben.id) is not None
        waiting = server.tokens.seat_of(new)
        assert waiting is not None and not waiting.active and waiting.person == ben.id
        [(seat, claim)] = box.state.page.pending
        assert seat == 0 and box.state.board.players == ("Ben",)
        box.put(SeatAnswer(seat, claim, True, 5.0))  # START on the box's phone page
        _settled(server)
        moved = server.tokens.seat_of(new)
        assert moved is not None and moved.active and moved.person == ben.id
        assert server.tokens.seat_of(old) is None  # the old phone is Ben's no more
    finally:
        server.close()
