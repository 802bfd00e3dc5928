"""The box's table code: one per box, kept beside the seat tokens in the state directory across games and
restarts until the table renews it on its phone page screen; renewing logs out every phone not seated.
The join QR a seated phone shows a newcomer, and the long NEXT on the timer that shows it on the box."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import segno

from firmware_host.core import app
from firmware_host.core.events import Button, ClaimsPending, PageInfo, Press
from firmware_host.core.page_table import PageShow
from firmware_host.core.screens import QrScreen
from firmware_host.page.guard import CODE_ALPHABET, CODE_LENGTH, STORE_NAME, SeatTokens
from firmware_host.page.join_qr import QUIET
from firmware_host.page.server import PageServer
from firmware_host.web import security_headers
from tests.helpers.page_box import Box, serve
from tests.table_driver import Table
from tests.test_page_server import _join


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[PageServer, Box]]:
    box = Box()
    server = serve(box, tmp_path)
    yield server, box
    server.close()


def _settled(server: PageServer) -> None:
    """Wait until the server has taken the views published so far (on its own thread)."""
    assert server._loop is not None
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), server._loop).result(5)


def _menu_to(box: Box, key: str) -> None:
    """MENU, down to the menu's entry `key` through its group, START."""
    for event in app.events_to_open(box.state, key, 1.0) or []:
        box.put(event)


def _renew(box: Box) -> None:
    """The table asks for a new code: its phone page screen (menu → "Handy-Seite"), NEXT."""
    _menu_to(box, "page")
    assert isinstance(box.state.overlay, PageShow)
    box.put(Press(Button.NEXT, 1.0))


def _is_a_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


def test_the_code_printed_before_a_restart_still_joins_after_it(tmp_path):
    box = Box()
    server = serve(box, tmp_path)
    printed = server.code
    try:
        assert run(_join(server.address, {"code": printed, "seat": 0}))[0] == 200
    finally:
        server.close()
    box = Box()  # the box starts again on the same state directory, its journal replayed first:
    box.put(PageInfo("http://old:8080", printed, 1.0))
    _renew(box)  # a request for a new code the old process answered before it stopped
    again = serve(box, tmp_path)
    try:
        _settled(again)
        assert again.code == printed
        assert box.state.page.code == printed  # what the OLED shows
        assert run(_join(again.address, {"code": printed, "seat": 1}))[0] == 200
    finally:
        again.close()


def test_a_game_change_keeps_the_code_and_next_on_the_phone_page_renews_it(served):
    server, box = served
    first = server.code
    _menu_to(box, "game:quiddler")  # a new game
    assert box.state.flow is not None
    _settled(server)
    assert server.code == first and box.state.page.code == first
    assert run(_join(server.address, {"code": first, "seat": 0}))[0] == 200
    _renew(box)
    _settled(server)
    second = server.code
    assert second != first and _is_a_code(second) and box.state.page.code == second
    assert run(_join(server.address, {"code": first, "seat": 1}))[0] == 403  # the old code joins no more
    assert run(_join(server.address, {"code": second, "seat": 1}))[0] == 200
    assert SeatTokens(server.tokens.path).code == second  # kept at once


async def _until(ws: aiohttp.ClientWebSocketResponse, done: Any) -> list[dict]:
    """The messages on `ws` up to the first one `done` holds for."""
    seen = []
    async with asyncio.timeout(5):
        async for message in ws:
            data = json.loads(message.data)
            seen.append(data)
            if done(data):
                return seen
    raise AssertionError(f"the socket closed after {seen}")


def test_renewing_logs_out_every_unseated_phone_and_keeps_the_seated(served):
    server, box = served
    url, origin = server.address, {"Origin": server.address}
    store = server.tokens.path
    assert store is not None

    async def go() -> dict[str, Any]:
        jars = {name: aiohttp.CookieJar(unsafe=True) for name in ("seated", "waiting", "guest")}
        sessions = {name: aiohttp.ClientSession(cookie_jar=jar) for name, jar in jars.items()}
        try:
            assert (await _join(url, {"code": server.code, "seat": 0}, jars["seated"]))[0] == 200
            status, body = await _join(url, {"code": server.code, "seat": 0}, jars["waiting"])  # a takeover
            assert status == 202 and body["waiting"]
            sockets = {name: await session.ws_connect(f"{url}/ws", headers=origin)
                       for name, session in sessions.items()}
            for ws in sockets.values():
                await _until(ws, lambda m: m["type"] == "view")
            box.drained()
            _renew(box)
            out: dict[str, Any] = {}
            for name in ("waiting", "guest"):  # told, then shown the page of a phone that has not joined
                out[name] = await _until(sockets[name], lambda m: m.get("reason") == "code_renewed")
            out["waiting_view"] = (await _until(sockets["waiting"], lambda m: m["type"] == "view"))[-1]["view"]
            await sockets["seated"].send_str('{"type":"command","seat":0,"command":"points","value":"+2"}')
            out["seated"] = await _until(sockets["seated"], lambda m: m["type"] in ("sent", "error"))
            await sockets["waiting"].send_str('{"type":"command","seat":0,"command":"points","value":"+2"}')
            out["waiting_writes"] = await _until(sockets["waiting"], lambda m: m["type"] == "error")
            for name, session in sessions.items():
                async with session.get(f"{url}/api/join-qr.svg") as response:
                    out[f"qr_{name}"] = response.status
            for ws in sockets.values():
                await ws.close()
            return out
        finally:
            for session in sessions.values():
                await session.close()

    out = run(go())
    assert [m for m in out["seated"] if m.get("reason") == "code_renewed"] == []
    assert out["seated"][-1] == {"type": "sent"} and box.state.board.totals[0] == 2  # the seated phone plays on
    assert "waiting" not in out["waiting_view"] and out["waiting_view"]["seat"] is None
    assert out["waiting_writes"][-1] == {"type": "error", "reason": "no_seat"}
    assert (out["qr_seated"], out["qr_waiting"], out["qr_guest"]) == (200, 403, 403)
    claims = [e for e in box.drained() if isinstance(e, ClaimsPending)]
    assert claims and claims[-1].claims == () and box.state.page.pending == ()  # its takeover is gone
    kept = SeatTokens(store)
    assert kept.code == server.code and [h.seat for h in kept.holders.values()] == [0]


def _dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules of the SVG's path (row, column), its quiet zone taken off."""
    dark = set()
    for x, y, run_ in re.findall(r"M(\d+),(\d+)h(\d+)v1h-\d+z", svg):
        for c in range(int(x), int(x) + int(run_)):
            dark.add((int(y) - QUIET, c - QUIET))
    return dark


def test_the_join_qr_is_for_seated_phones_only_and_holds_the_join_address(served):
    server, _ = served

    async def go() -> tuple[tuple[int, str], tuple[int, str, dict[str, str]]]:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            async with session.get(f"{server.address}/api/join-qr.svg") as response:
                unseated = response.status, await response.text()
            assert (await _join(server.address, {"code": server.code, "seat": 2}, jar))[0] == 200
            async with session.get(f"{server.address}/api/join-qr.svg") as response:
                seated = response.status, await response.text(), dict(response.headers)
        return unseated, seated

    (refused, refusal), (status, svg, headers) = run(go())
    assert refused == 403 and server.code not in refusal
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
    expected = security_headers("'self'")
    assert {key: headers.get(key) for key in expected} == expected
    matrix = segno.make(f"{server.address}/j/{server.code}", error="l", micro=False).matrix
    assert _dark_modules(svg) == {(r, c) for r, row in enumerate(matrix) for c, dark in enumerate(row) if dark}
    assert f">{server.code}</text>" in svg and server.address.removeprefix("http://") in svg


def test_a_damaged_store_gives_a_new_code_and_a_log_line(tmp_path, caplog):
    store = tmp_path / STORE_NAME
    store.write_text('{"code": "ABCDEF", "tokens": {', encoding="utf-8")  # cut off by a power cut
    with caplog.at_level(logging.WARNING, logger="wordtable.page"):
        tokens = SeatTokens(store)
    assert _is_a_code(tokens.code) and tokens.code != "ABCDEF"
    assert any(str(store) in record.getMessage() for record in caplog.records)
    assert SeatTokens(store).code == tokens.code  # the new code is kept


@pytest.mark.parametrize("kept", [None, "abc", 7, "ABCDE0"])  # none (an older file), too short, no text, a 0
def test_a_store_without_a_code_keeps_its_seats_and_gets_a_new_code(tmp_path, caplog, kept):
    store = tmp_path / STORE_NAME
    SeatTokens(store).grant(3)
    data = json.loads(store.read_text(encoding="utf-8"))
    data.pop("code")
    if kept is not None:
        data["code"] = kept
    store.write_text(json.dumps(data), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="wordtable.page"):
        tokens = SeatTokens(store)
    assert _is_a_code(tokens.code) and [h.seat for h in tokens.holders.values()] == [3]
    assert any("table code" in record.getMessage() for record in caplog.records)


def test_renew_code_drops_the_waiting_tokens_and_keeps_the_active(tmp_path):
    tokens = SeatTokens(tmp_path / STORE_NAME)
    seated = tokens.grant(0)
    waiting = tokens.wait(0, "claim1")
    joining = tokens.wait(-1, "claim2")
    old = tokens.code
    assert tokens.renew_code() == tokens.code != old
    assert tokens.seat_of(seated) is not None and tokens.seat_of(waiting) is None and tokens.seat_of(joining) is None
    assert not tokens.settle("claim2", 4)  # the join it waited for finds no phone


# --- on the box: a long NEXT on the timer --------------------------------------------------------------


def _served_table() -> Table:
    table = Table()
    table.step(PageInfo("http://192.168.1.23:8080", "K7QX23", 1.0))
    return table


def test_a_long_next_on_the_timer_shows_the_join_qr_and_again_or_back_closes_it():
    table = _served_table()
    table.hold("next")
    assert isinstance(table.state.overlay, PageShow)
    screen = table.screen
    assert isinstance(screen, QrScreen) and screen.data == "http://192.168.1.23:8080/j/K7QX23"
    table.hold("next")
    assert table.state.overlay is None and table.state.settings.duration_s == Table().state.settings.duration_s
    table.hold("next")
    table.press("back")
    assert table.state.overlay is None and table.state.timer.countdown.is_full()
    assert table.state.page.new_code == 0  # neither opening nor closing renews the code


def test_a_long_next_on_the_timer_means_nothing_without_the_page_as_before():
    table = Table()
    table.hold("next")
    assert table.state.overlay is None and "error" in table.beeps


def test_a_long_next_on_the_scoreboard_still_starts_the_timer():
    table = _served_table()
    table.open_game("scoreboard")
    assert table.state.home == "scoreboard"
    table.hold("next")
    assert table.state.overlay is None and table.state.timer.running
