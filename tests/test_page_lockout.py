"""The wrong-code lock-out under concurrency, on the real page server and real sockets: tries held open at
once are counted as they arrive, before any code is compared, per address and over all addresses."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.page_view import page_views
from firmware_host.core.settings import Settings
from firmware_host.page import server as page_server
from firmware_host.page.guard import MAX_FAILURES, MAX_GLOBAL_FAILURES
from firmware_host.page.server import PageServer
from firmware_host.web_gate import Limits

HELD = Limits().per_address  # as many tries as one address may hold open at once (the rest are shut out)
assert HELD > MAX_FAILURES


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PageServer, list[str]]]:
    compared: list[str] = []
    real = page_server.code_matches

    def counting(given: str, code: str) -> bool:
        compared.append(given)
        return real(given, code)

    monkeypatch.setattr(page_server, "code_matches", counting)
    state, _ = app.initial(Settings())
    server = PageServer(lambda event: None, lambda: 1.0, bind="127.0.0.1", port=0, state_dir=tmp_path)
    server.start()
    server.publish(page_views(state))
    yield server, compared
    server.close()


async def _held_join(port: int, source: str, code: str) -> tuple[socket.socket, bytes]:
    """A join whose headers are sent and whose body is held back: (the socket, the body still to send)."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    body = json.dumps({"code": code, "seat": 0}).encode()
    head = (f"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    await loop.sock_sendall(sock, head.encode())
    return sock, body


async def _answer(sock: socket.socket, body: bytes) -> int:
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, body)
    answer = b""
    while chunk := await asyncio.wait_for(loop.sock_recv(sock, 4096), 10):
        answer += chunk
    sock.close()
    return int(answer.split(b" ", 2)[1])


def test_tries_held_open_at_once_from_one_address_have_only_ten_codes_compared(served):
    server, compared = served
    port = server.port

    async def run() -> list[int]:
        held = [await _held_join(port, "127.0.0.1", f"WRONG{n % 10}") for n in range(HELD)]
        await asyncio.sleep(0.3)  # every request's headers are in: each handler waits for its body
        return [await _answer(sock, body) for sock, body in held]

    statuses = asyncio.run(run())
    assert len(compared) == MAX_FAILURES  # the first ten tries; each of the others was refused unread
    assert set(statuses) <= {403, 429} and statuses.count(429) >= HELD - MAX_FAILURES


def test_wrong_codes_from_many_addresses_lock_joining_for_new_addresses_but_not_for_joined_phones(served):
    server, compared = served
    port = server.port

    async def run() -> tuple[list[int], int, int]:
        joined = await _held_join(port, "127.0.0.2", server.code)
        first = await _answer(*joined)
        wrong = [await _held_join(port, f"127.0.{1 + n // 200}.{10 + n % 200}", "WRONG1")
                 for n in range(MAX_GLOBAL_FAILURES + 20)]
        await asyncio.sleep(0.3)
        statuses = [await _answer(sock, body) for sock, body in wrong]
        newcomer = await _answer(*await _held_join(port, "127.0.9.9", server.code))
        again = await _answer(*await _held_join(port, "127.0.0.2", server.code))
        return statuses, newcomer, again if first == 200 else -first

    statuses, newcomer, again = asyncio.run(run())
    wrong_compared = [code for code in compared if code == "WRONG1"]
    assert len(wrong_compared) == MAX_GLOBAL_FAILURES  # then the door is shut for every new address
    assert set(statuses) <= {403, 429} and statuses.count(429) >= 20
    assert newcomer == 429  # the right code from a new address waits out the lock
    assert again == 202  # a phone that joined before is let in (here: it asks for the seat it holds elsewhere)


def test_a_page_that_rebinds_its_own_name_to_the_box_is_neither_answered_nor_let_join(served):
    server, compared = served
    port = server.port

    async def ask(host: str, path: str, body: bytes = b"") -> int:
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        await loop.sock_connect(sock, ("127.0.0.1", port))
        method = "POST" if body else "GET"
        head = (f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
        await loop.sock_sendall(sock, head.encode() + body)
        return await _answer(sock, b"")

    join = json.dumps({"code": server.code, "seat": 0}).encode()
    rebound = f"evil.example:{port}"
    assert asyncio.run(ask(rebound, "/api/games")) == 421  # its games are not read out to another site
    assert asyncio.run(ask(rebound, "/api/join", join)) == 421
    assert compared == []
    assert asyncio.run(ask(f"127.0.0.1:{port}", "/api/join", join)) == 200  # the box's own address
    assert asyncio.run(ask(f"localhost:{port}", "/")) == 200
