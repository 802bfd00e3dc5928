"""The table page's server without a browser: joins with the table code, the lock-out, seat tokens that
survive a restart, the Origin check, and messages checked before anything reaches the shell (Hypothesis)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import ClaimsPending, PageInfo, SeatCommand, SeatEntry
from firmware_host.core.text_input import WORD, clean
from firmware_host.page.guard import MAX_FAILURES, RateLimit, SeatTokens
from firmware_host.page.messages import (
    COMMANDS,
    ENTRY,
    Ping,
    Refused,
    parse_join,
    parse_message,
)
from firmware_host.page.server import COOKIE, PageServer
from firmware_host.web import REQUEST_LOG, security_headers
from tests.helpers.page_box import Box, serve


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[PageServer, Box]]:
    box = Box()
    server = serve(box, tmp_path)
    yield server, box
    server.close()


def run(coro):
    return asyncio.run(coro)


async def _join(url: str, body: object, jar: aiohttp.CookieJar | None = None,
                origin: str | None = None) -> tuple[int, dict]:
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        headers = {"Origin": origin or url}
        async with session.post(f"{url}/api/join", data=json.dumps(body), headers=headers) as response:
            return response.status, await response.json()


def test_the_server_announces_its_address_and_code_to_the_box(served):
    server, box = served
    info = [e for e in box.drained() if isinstance(e, PageInfo)]
    assert info and info[-1].code == server.code and info[-1].address == server.address
    assert box.state.page.code == server.code


def test_a_join_needs_the_code_and_ten_wrong_codes_lock_the_address(served):
    server, _ = served
    url = server.address
    assert run(_join(url, {"code": "WRONG1", "seat": 0}))[0] == 403
    for _ in range(MAX_FAILURES - 2):
        assert run(_join(url, {"code": "WRONG1", "seat": 0}))[0] == 403
    status, body = run(_join(url, {"code": "WRONG1", "seat": 0}))
    assert status == 429 and body["error"] == "locked" and body["retry"] > 0
    assert run(_join(url, {"code": server.code, "seat": 0}))[0] == 429  # locked: even the right code


def test_a_join_from_a_foreign_origin_is_refused(served):
    server, _ = served
    assert run(_join(server.address, {"code": server.code, "seat": 0}, origin="http://evil.example"))[0] == 403


def test_a_seat_token_is_an_httponly_strict_cookie_and_outlives_a_restart(served, tmp_path):
    server, _ = served

    async def go() -> str:
        body = json.dumps({"code": server.code.lower(), "seat": 2})
        async with aiohttp.ClientSession() as session, session.post(
                f"{server.address}/api/join", headers={"Origin": server.address}, data=body) as response:
            assert response.status == 200
            cookie = response.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
            return response.cookies[COOKIE].value

    token = run(go())
    again = SeatTokens(tmp_path / "page-seats.json")
    held = again.seat_of(token)
    assert held is not None and held.seat == 2 and held.active
    assert token not in (tmp_path / "page-seats.json").read_text()  # only its digest is kept


def test_a_taken_seat_waits_for_start_on_the_box(served):
    server, box = served
    assert run(_join(server.address, {"code": server.code, "seat": 1}))[0] == 200
    status, body = run(_join(server.address, {"code": server.code, "seat": 1}))
    assert status == 202 and body["waiting"]
    claims = [e for e in box.drained() if isinstance(e, ClaimsPending)]
    assert claims and [seat for seat, _ in claims[-1].claims] == [1]


async def _socket_session(server: PageServer, seat: int, messages: list[str]) -> list[dict]:
    """Join `seat`, open the WebSocket, send `messages`, then a ping; the answers up to the pong. The seat is
    given up again at the end."""
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        async with session.post(f"{server.address}/api/join", headers={"Origin": server.address},
                                data=json.dumps({"code": server.code, "seat": seat})) as response:
            assert response.status == 200, await response.text()
        answers = []
        try:
            async with session.ws_connect(f"{server.address}/ws", headers={"Origin": server.address}) as ws:
                for text in messages:
                    await ws.send_str(text)
                await ws.send_str('{"type":"ping"}')
                async for message in ws:
                    data = json.loads(message.data)
                    answers.append(data)
                    if data["type"] == "pong":
                        break
        finally:
            async with session.post(f"{server.address}/api/leave", headers={"Origin": server.address}):
                pass
        return answers


def test_a_page_writing_for_another_seat_is_refused(served):
    server, box = served
    box.drained()
    answers = run(_socket_session(server, 0, [json.dumps({"type": "entry", "seat": 1, "text": "Wort"})]))
    assert {"type": "error", "reason": "not_your_seat"} in answers
    assert not [e for e in box.drained() if isinstance(e, SeatEntry)]


def test_a_websocket_from_a_foreign_origin_is_refused(served):
    server, _ = served

    async def go() -> int:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(f"{server.address}/ws", headers={"Origin": "http://evil.example"}):
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    assert run(go()) == 403



def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(4096):
            answer += chunk
    return answer


@pytest.mark.parametrize("request_line", [
    b"GET * HTTP/1.1",  # not a path
    b"POST /api/leave HTTP/9",  # no such version
    b"GET / HTTP/1.1\r\nX: " + b"y" * 9000,  # a header line past aiohttp's limit
    b"GET / HTTP/1.1\r\nContent-Length: -1",
])
def test_a_request_that_is_not_http_is_refused_with_one_log_line_and_the_page_serves_on(served, caplog,
                                                                                       request_line):
    server, _ = served
    caplog.set_level(logging.INFO)
    host = f"127.0.0.1:{server.port}".encode()
    answer = _raw(server.port, request_line + b"\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
    assert answer.split(b"\r\n", 1)[0].endswith(b" 400 Bad Request")
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []
    refused = [r.getMessage() for r in caplog.records if r.name == REQUEST_LOG.name]
    assert len(refused) == 1 and refused[0].startswith("malformed request from 127.0.0.1 refused (400): "), refused
    assert _raw(server.port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 200 OK")


def test_the_request_log_keeps_the_traceback_of_a_handler_that_raised(caplog):
    caplog.set_level(logging.INFO)
    try:
        raise ValueError("a bug")
    except ValueError:
        REQUEST_LOG.exception("Error handling request from %s", "127.0.0.1")
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
MESSAGES = st.one_of(
    st.builds(lambda seat, text: json.dumps({"type": "entry", "seat": seat, "text": text}),
              st.integers(-2, 20) | st.booleans() | st.text(max_size=3), st.text(max_size=50)),
    st.builds(lambda seat, command, value: json.dumps({"type": "command", "seat": seat, "command": command,
                                                       "value": value}),
              st.integers(-2, 20) | st.booleans(), st.sampled_from(["timer", "length", "points", "name", "lang",
                                                                      "volume", "warn", "join", "power_off"]) | JSONISH,
              st.text(max_size=40) | JSONISH),
    st.builds(json.dumps, st.dictionaries(st.sampled_from(["type", "seat", "text", "command", "value", "x"]),
                                          JSONISH, max_size=5)),
    st.text(max_size=60),
    st.builds(lambda n: "x" * n, st.integers(1000, 1100)),
)


@pytest.mark.slow  # hypothesis
@given(st.lists(MESSAGES, max_size=6))
@settings(max_examples=300, deadline=None)
def test_parse_message_takes_only_well_formed_messages(raws):
    for raw in raws:
        try:
            message = parse_message(raw, 7.5)
        except Refused:
            continue
        assert isinstance(message, SeatEntry | SeatCommand | Ping)
        if isinstance(message, SeatEntry | SeatCommand):
            assert message.at == 7.5 and decode(encode(message)) == message  # the journal's codec takes it
        if isinstance(message, SeatEntry):
            assert message.seat >= 0 and clean(message.text, ENTRY) == message.text
            assert all(len(word) <= 32 for word in message.text.split())
        if isinstance(message, SeatCommand):
            assert message.command in COMMANDS and clean(message.value, WORD) == message.value


@pytest.mark.slow  # hypothesis
@given(st.one_of(st.builds(json.dumps, st.dictionaries(st.sampled_from(["code", "seat", "name"]), JSONISH)),
                 st.text(max_size=40)))
@settings(max_examples=200, deadline=None)
def test_parse_join_never_raises_anything_but_refused(raw):
    try:
        join = parse_join(raw)
    except Refused:
        return
    assert (join.seat is None) != (join.name is None)


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Iterator[tuple[PageServer, Box]]:
    box = Box()
    server = serve(box, tmp_path_factory.mktemp("page"))
    server.rates.burst = 1e9  # this test is about the schema, not the rate
    yield server, box
    server.close()


@pytest.mark.slow  # hypothesis
@given(st.lists(MESSAGES, max_size=6))
@settings(max_examples=60, deadline=None)
def test_no_message_sequence_upsets_the_server_or_reaches_the_core_malformed(shared, raws):
    server, box = shared
    box.drained()
    fitting = [raw for raw in raws if len(raw.encode()) <= 1024]
    answers = run(_socket_session(server, 0, fitting))
    assert answers[-1] == {"type": "pong"}  # still answering after all of it
    events = box.drained()
    entries = [e for e in events if isinstance(e, SeatEntry)]
    assert all(e.seat == 0 and clean(e.text, ENTRY) == e.text and len(e.text) <= ENTRY.limit for e in entries)
    assert all(len(word) <= 32 for e in entries for word in e.text.split())
    commands = [e for e in events if isinstance(e, SeatCommand)]
    assert all(e.seat == 0 and e.command in COMMANDS and clean(e.value, WORD) == e.value for e in commands)


def test_an_oversized_message_closes_the_socket_and_reaches_nothing(shared):
    server, box = shared
    box.drained()

    async def go() -> int | None:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            async with session.post(f"{server.address}/api/join", headers={"Origin": server.address},
                                    data=json.dumps({"code": server.code, "seat": 1})):
                pass
            async with session.ws_connect(f"{server.address}/ws", headers={"Origin": server.address}) as ws:
                await ws.send_str(json.dumps({"type": "entry", "seat": 1, "text": "A" * 2000}))
                async for _ in ws:
                    pass
                return ws.close_code

    assert run(go()) == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    assert not [e for e in box.drained() if isinstance(e, SeatEntry)]


def test_the_rate_limit_lets_a_burst_through_then_refuses():
    now = [0.0]
    limit = RateLimit(lambda: now[0], rate=2.0, burst=3.0)
    assert [limit.allow(0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow(1)  # per seat
    now[0] += 0.5
    assert limit.allow(0)


def test_an_entry_is_a_line_of_words_of_at_most_32_characters_each():
    ten_cards = "!(QU)(IN)(TH)(ER) (CL)AN (QU)IT"
    assert parse_message(json.dumps({"type": "entry", "seat": 0, "text": ten_cards}), 2.0) == SeatEntry(
        0, ten_cards, 2.0)
    for text in ("A" * 33, "AB " * 22):
        with pytest.raises(Refused):
            parse_message(json.dumps({"type": "entry", "seat": 0, "text": text}), 2.0)


def test_a_command_message_is_schema_checked_and_reaches_the_shell_for_the_own_seat(served):
    good = '{"type":"command","seat":1,"command":"timer","value":"start"}'
    assert parse_message(good, 3.0) == SeatCommand(1, "timer", "start", 3.0)
    for bad in ('{"type":"command","seat":1,"command":"power_off","value":""}',
                '{"type":"command","seat":1,"command":["timer"],"value":"start"}',
                '{"type":"command","seat":1,"command":"timer","value":"' + "x" * 40 + '"}',
                '{"type":"command","seat":1,"command":"timer"}'):
        with pytest.raises(Refused):
            parse_message(bad, 3.0)
    server, box = served
    answers = run(_socket_session(server, 0, ['{"type":"command","seat":0,"command":"points","value":"+4"}',
                                              '{"type":"command","seat":1,"command":"points","value":"+4"}']))
    assert [a.get("reason") for a in answers if a["type"] == "error"] == ["not_your_seat"]
    commands = [e for e in box.drained() if isinstance(e, SeatCommand)]
    assert [(c.seat, c.command, c.value) for c in commands] == [(0, "points", "+4")]
    assert box.state.board.totals[0] == 4


def test_a_new_name_joins_at_the_next_seat_without_a_game(served):
    from firmware_host.core.events import SeatJoin

    server, box = served
    status, body = run(_join(server.address, {"code": server.code, "name": "Ole"}))
    assert status == 202 and body["waiting"] is True  # the core picks the seat
    assert box.state.board.players == ("Ole",)  # in place of a fresh box's "Spieler 1-4"
    assert any(isinstance(e, SeatJoin) and e.name == "Ole" for e in box.drained())
    assert _held_seats(server) == [0]
    ole = box.state.roster.named("Ole")
    assert ole is not None and [h.person for h in server.tokens.holders.values()] == [ole.id]


def _held_seats(server: PageServer) -> list[int]:
    """The seats held by active tokens, once the server has taken the views published so far."""
    async def settled() -> None:
        await asyncio.sleep(0)

    assert server._loop is not None
    asyncio.run_coroutine_threadsafe(settled(), server._loop).result(5)
    return sorted(h.seat for h in server.tokens.holders.values() if h.active)


def test_two_phones_joining_with_new_names_at_once_get_two_seats(served):
    server, box = served

    async def both() -> list[tuple[int, dict]]:
        return list(await asyncio.gather(*(_join(server.address, {"code": server.code, "name": name},
                                                  aiohttp.CookieJar(unsafe=True)) for name in ("Mia", "Ole"))))

    answers = run(both())
    assert [status for status, _ in answers] == [202, 202]
    assert sorted(box.state.board.players) == ["Mia", "Ole"]  # a fresh box: no "Spieler N" before them
    assert _held_seats(server) == [0, 1]  # each phone its own seat, none waiting
    assert not any(not h.active for h in server.tokens.holders.values())
    status, _ = run(_join(server.address, {"code": server.code, "name": "Mia"}))  # Mia's seat: a takeover
    assert status == 202


@pytest.mark.slow
def test_past_games_are_listed_with_their_sheet_and_record_for_a_seated_phone_only(tmp_path):
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    state = tmp_path / "state"
    done = subprocess.run([sys.executable, "-m", "firmware_host", "sim", "--script",
                           str(root / "docs" / "scripts" / "quiddler.script"), "--state-dir", str(state)],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    journal = state / "journal.sqlite3"
    before = journal.read_bytes()
    box = Box()
    server = serve(box, state)
    try:
        async def go() -> tuple[int, list, dict, str, str]:
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(cookie_jar=jar) as session:
                async with session.get(f"{server.address}/api/games") as response:
                    refused = response.status
                async with session.post(f"{server.address}/api/join", headers={"Origin": server.address},
                                        data=json.dumps({"code": server.code, "seat": 0})) as response:
                    assert response.status == 200
                async with session.get(f"{server.address}/api/games") as response:
                    games = (await response.json())["games"]
                game_id = games[0]["id"]
                async with session.get(f"{server.address}/api/games/{game_id}") as response:
                    sheet = await response.json()
                async with session.get(f"{server.address}/api/games/{game_id}/record") as response:
                    assert "attachment" in response.headers["Content-Disposition"]
                    record = await response.text()
                async with session.get(f"{server.address}/api/games/99999") as response:
                    missing = (await response.json())["error"]
            return refused, games, sheet, record, missing

        refused, games, sheet, record, missing = run(go())
    finally:
        server.close()
    assert refused == 403 and missing == "no_game"
    assert [g["game"] for g in games] == ["quiddler"] and games[0]["players"]
    exported = subprocess.run([sys.executable, "-m", "firmware_host", "journal", "export", "--state-dir", str(state),
                               "--game", str(games[0]["id"])], cwd=root, capture_output=True, text=True, timeout=60)
    assert record == exported.stdout  # the same record `wordtable score` reads
    scored = subprocess.run([sys.executable, "-m", "firmware_host", "score", "-"], input=record, cwd=root,
                            capture_output=True, text=True, timeout=60)
    assert sheet["text"].strip() == scored.stdout.strip()
    assert journal.read_bytes() == before  # read-only


def test_a_phone_whose_new_name_waits_for_its_seat_is_not_told_to_wait_for_start(served):
    from types import SimpleNamespace

    server, _box = served
    _held_seats(server)  # the views published so far are taken
    joining = server.tokens.wait(-1, "a-new-name")
    taking_over = server.tokens.wait(0, "a-takeover")
    assert json.loads(server._view_of(SimpleNamespace(token=joining)))["waiting"] == "join"
    assert json.loads(server._view_of(SimpleNamespace(token=taking_over)))["waiting"] is True


def test_every_answer_of_the_page_carries_the_security_headers(served):
    server, _ = served
    expected = security_headers("'self'")

    async def go() -> dict[str, tuple[int, dict[str, str]]]:
        out = {}
        async with aiohttp.ClientSession() as session:
            for path in ("/", f"/j/{server.code}", "/static/app.js", "/api/games", "/favicon.ico"):
                async with session.get(f"{server.address}{path}") as response:
                    out[path] = (response.status, dict(response.headers))
        return out

    answers = run(go())
    assert {path: status for path, (status, _) in answers.items()} == {
        "/": 200, f"/j/{server.code}": 200, "/static/app.js": 200, "/api/games": 403, "/favicon.ico": 204}
    for path, (status, headers) in answers.items():
        if status != 204:
            assert {key: headers.get(key) for key in expected} == expected, path
