"""The web servers' door (`firmware_host.web_gate`) on a real aiohttp server and real sockets on loopback:
connections over the limits are closed at once, a request whose headers do not arrive in time is closed,
and a phone's request is answered beside a crowd of slow connections from other addresses."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time

import pytest
from aiohttp import web

from firmware_host.web_gate import GatedSite, Limits


async def _hello(request: web.Request) -> web.Response:
    return web.Response(text="hello")


async def _serve(limits: Limits) -> tuple[web.AppRunner, GatedSite]:
    application = web.Application()
    application.router.add_get("/", _hello)
    runner = web.AppRunner(application, access_log=None, handle_signals=False)
    await runner.setup()
    site = GatedSite(runner, "127.0.0.1", 0, limits)
    await site.start()
    return runner, site


async def _slow(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A connection that starts a request and never finishes its headers."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    with contextlib.suppress(ConnectionResetError, BrokenPipeError):  # refused at once: `_closed` tells
        await loop.sock_sendall(sock, b"GET / HTTP/1.1\r\nHost: box\r\n")
    return sock


async def _closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closed `sock` (EOF or reset) within `within` seconds."""
    loop = asyncio.get_running_loop()
    try:
        data = await asyncio.wait_for(loop.sock_recv(sock, 16), within)
    except TimeoutError:
        return False
    except (ConnectionResetError, BrokenPipeError):
        return True
    return data == b""


async def _get(port: int, source: str) -> bytes:
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    await loop.sock_sendall(sock, b"GET / HTTP/1.1\r\nHost: box\r\nConnection: close\r\n\r\n")
    answer = b""
    while chunk := await asyncio.wait_for(loop.sock_recv(sock, 4096), 5):
        answer += chunk
    sock.close()
    return answer


@pytest.mark.realtime("twelve connections checked in 50-ms windows inside a 0.6-s header deadline")
def test_connections_over_the_per_address_limit_are_closed_at_once_and_slow_headers_in_time():
    async def run() -> None:
        runner, site = await _serve(Limits(connections=50, per_address=5, header_s=0.6))
        try:
            socks = [await _slow(site.port) for _ in range(12)]
            await asyncio.sleep(0.1)
            closed_at_once = [await _closed(sock, 0.05) for sock in socks]
            assert closed_at_once.count(False) == 5  # held: the first five from this address
            assert site.gate is not None and site.gate.open == 5
            held = [sock for sock, closed in zip(socks, closed_at_once, strict=True) if not closed]
            started = time.monotonic()
            assert all([await _closed(sock, 2.0) for sock in held])
            assert time.monotonic() - started < 1.5  # the header deadline, not aiohttp's keep-alive
            assert site.gate.open == 0 and site.gate.refused["slow"] == 5
            for sock in socks:
                sock.close()
        finally:
            await runner.cleanup()

    asyncio.run(run())


def test_a_phone_is_answered_beside_slow_connections_from_other_addresses():
    async def run() -> None:
        runner, site = await _serve(Limits(connections=40, per_address=4, header_s=5.0))
        try:
            socks = [await _slow(site.port, f"127.0.0.{2 + n % 8}") for n in range(200)]
            await asyncio.sleep(0.2)
            assert site.gate is not None and site.gate.open == 32  # 8 addresses × 4
            answer = await _get(site.port, "127.0.0.77")
            assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"hello")
            for sock in socks:
                sock.close()
        finally:
            await runner.cleanup()

    asyncio.run(run())


def test_when_every_connection_is_taken_a_new_one_is_closed_and_counted_not_queued():
    async def run() -> None:
        runner, site = await _serve(Limits(connections=6, per_address=6, header_s=5.0))
        try:
            socks = [await _slow(site.port, f"127.0.0.{2 + n}") for n in range(6)]
            await asyncio.sleep(0.2)
            assert site.gate is not None and site.gate.open == 6
            late = await _slow(site.port, "127.0.0.99")
            assert await _closed(late, 0.5)
            late.close()
            assert site.gate.open == 6 and site.gate.refused["full"] == 1
            for sock in socks:
                sock.close()
            await asyncio.sleep(0.2)
            assert site.gate.open == 0
            answer = await _get(site.port, "127.0.0.99")
            assert answer.startswith(b"HTTP/1.1 200")
        finally:
            await runner.cleanup()

    asyncio.run(run())


def test_a_websocket_and_a_kept_alive_connection_pass_the_gate_and_are_counted_out_when_closed():
    from aiohttp import ClientSession, WSMsgType

    async def echo(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            if message.type is WSMsgType.TEXT:
                await ws.send_str(message.data.upper())
        return ws

    async def run() -> None:
        application = web.Application()
        application.router.add_get("/", _hello)
        application.router.add_get("/ws", echo)
        runner = web.AppRunner(application, access_log=None, handle_signals=False)
        await runner.setup()
        site = GatedSite(runner, "127.0.0.1", 0, Limits(connections=10, per_address=3, header_s=0.3))
        await site.start()
        try:
            async with ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{site.port}/ws") as ws:
                await asyncio.sleep(0.5)  # past the header deadline: a WebSocket is no slow request
                await ws.send_str("wort")
                assert (await ws.receive(timeout=2)).data == "WORT"
                for _ in range(3):  # one kept-alive connection beside it
                    async with session.get(f"http://127.0.0.1:{site.port}/") as response:
                        assert await response.text() == "hello"
                assert site.gate is not None and site.gate.open == 2
            await asyncio.sleep(0.2)
            assert site.gate.open == 0 and not site.gate.refused
        finally:
            await runner.cleanup()

    asyncio.run(run())
