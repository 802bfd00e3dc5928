"""A box as `wordtable run` assembles it (sim profile on mock pins, its journal, the table page on loopback,
the shell's loop in a thread) and a flood from the LAN against its page: connections that never finish their
request, and takeover claims for a seat a phone holds, from one address or from many (127.0.x.y are all this
machine's). Used by tests/test_page_flood.py and bench/bench_flood.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp

from firmware_host.appliance import Appliance, open_appliance
from firmware_host.config import PageConfig, resolve
from firmware_host.page.attach import serve_page
from firmware_host.page.server import PageServer


@dataclass
class Box:
    appliance: Appliance
    server: PageServer
    thread: threading.Thread
    sounds: list[tuple[str, float]] = field(default_factory=list)  # (pattern, monotonic time) of each Beep
    frames: list[float] = field(default_factory=list)  # monotonic time of each frame drawn

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def close(self) -> None:
        """Stop the shell; its thread closes the page and the appliance."""
        self.appliance.shell.stop()
        self.thread.join(10)


def start_box(scratch: Path, players: tuple[str, ...] = ("Anna", "Ben"), duration_s: int = 60) -> Box:
    """The box, its page served on 127.0.0.1 (any port), its shell running; its sand timer `duration_s`."""
    config = scratch / "config.toml"
    config.write_text(f"[timer]\nduration_s = {duration_s}\n[scoreboard]\nplayers = {json.dumps(list(players))}\n"
                      "[dictionary]\nsystem = false\n", encoding="utf-8")
    resolved = resolve("sim", config, environ={})
    resolved = replace(resolved, config=replace(resolved.config, page=PageConfig(True, 0, "127.0.0.1")))
    sounds: list[tuple[str, float]] = []
    frames: list[float] = []

    def hook(outputs: Any) -> Any:
        def on_sound(pattern: str, notes: Any) -> None:
            sounds.append((pattern, time.monotonic()))

        def on_frame(screen: Any, image: Any) -> None:
            frames.append(time.monotonic())

        return replace(outputs, on_sound=on_sound, on_frame=on_frame)

    opened: dict[str, Any] = {}
    ready = threading.Event()

    def serve() -> None:  # the journal belongs to the thread that opens it: the shell's, as in `run`
        appliance = open_appliance(resolved, scratch / "state", outputs_hook=hook, power_off=lambda: None)
        server = serve_page(appliance, resolved, scratch / "state", asked=True)
        opened.update(appliance=appliance, server=server)
        ready.set()
        try:
            appliance.shell.run()
        finally:
            if server is not None:
                server.close()
            appliance.close()

    thread = threading.Thread(target=serve, name="shell", daemon=True)
    thread.start()
    ready.wait(30)
    assert opened.get("server") is not None, "the page did not start"
    return Box(opened["appliance"], opened["server"], thread, sounds, frames)


def inputs_journaled(scratch: Path) -> int:
    """How many inputs the journal in `scratch` holds (read after the box is closed)."""
    import sqlite3

    from firmware_host.paths import journal_path

    with contextlib.closing(sqlite3.connect(journal_path(scratch / "state"))) as db:
        return int(db.execute("SELECT COUNT(*) FROM events WHERE kind = 'input'").fetchone()[0])


async def join(url: str, code: str, seat: int) -> tuple[int, aiohttp.CookieJar]:
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as session, session.post(
            f"{url}/api/join", data=json.dumps({"code": code, "seat": seat}), headers={"Origin": url}) as answer:
        return answer.status, jar


async def _connected(port: int, source: str) -> socket.socket:
    """A non-blocking socket from `source` connected to the box's `port` (its errors raised; the socket is
    closed on them)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((source, 0))
        sock.setblocking(False)
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port)), 5)
    except BaseException:
        sock.close()
        raise
    return sock


async def _slow(port: int, source: str) -> socket.socket | None:
    try:
        sock = await _connected(port, source)
    except (OSError, TimeoutError):
        return None
    try:
        await asyncio.get_running_loop().sock_sendall(sock, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    except (OSError, TimeoutError):
        sock.close()
        return None
    return sock


async def slow_connections(port: int, count: int, addresses: int) -> list[socket.socket]:
    """`count` connections from `addresses` addresses that each start a request and never finish it."""
    opened = []
    for n in range(count):
        sock = await _slow(port, f"127.0.{2 + (n % addresses) // 250}.{1 + (n % addresses) % 250}")
        if sock is not None:
            opened.append(sock)
    return opened


async def _claim(port: int, source: str, body: bytes) -> int:
    loop = asyncio.get_running_loop()
    try:
        sock = await _connected(port, source)
    except (OSError, TimeoutError):
        return 0
    try:
        head = (f"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
        await loop.sock_sendall(sock, head.encode() + body)
        answer = await asyncio.wait_for(loop.sock_recv(sock, 64), 5)
        return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    except (OSError, TimeoutError, ValueError, IndexError):
        return 0
    finally:
        sock.close()


async def claim_flood(port: int, code: str, seat: int, per_second: float, seconds: float,
                      addresses: int) -> list[int]:
    """Takeover claims for `seat` at `per_second` for `seconds`, from `addresses` addresses: each status."""
    body = json.dumps({"code": code, "seat": seat}).encode()
    tasks = []
    start = time.monotonic()
    n = 0
    while time.monotonic() - start < seconds:
        source = f"127.1.{(n % addresses) // 250}.{1 + (n % addresses) % 250}"
        tasks.append(asyncio.ensure_future(_claim(port, source, body)))
        n += 1
        await asyncio.sleep(max(0.0, start + n / per_second - time.monotonic()))
    return list(await asyncio.gather(*tasks))


def still_open(socks: list[socket.socket]) -> int:
    """How many of `socks` the server still holds open (not closed or reset from its side)."""
    held = 0
    for sock in socks:
        try:
            data = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            held += 1  # nothing to read, not closed: the server holds it
        except OSError:
            continue
        else:
            held += bool(data)
    return held


def close_all(socks: list[socket.socket]) -> None:
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.close()
