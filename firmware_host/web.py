"""What the box's web servers share (the table page and the league's board, both aiohttp): an application
served by an event loop in a thread of its own, the same-origin check of a write, a WebSocket send
that a closed socket does not fail, and the answer with one of their packaged pages or scripts.

`ThreadedSite`: a subclass sets its site up in `_listen` and takes it down in `_shutdown` (both on the loop,
in the thread); `_start_thread(name)` returns once it listens or raises what stopped it; `_stop_thread()`
stops the loop and waits for the thread (idempotent)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Mapping
from importlib.resources.abc import Traversable

from aiohttp import web

STATIC_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


class ThreadedSite:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None

    async def _listen(self) -> None:
        raise NotImplementedError

    async def _shutdown(self) -> None:
        raise NotImplementedError

    def _start_thread(self, name: str) -> None:
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._failed is not None:
            raise self._failed

    def _stop_thread(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        self._loop = self._thread = None

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._listen())
        except BaseException as exc:
            self._failed = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._shutdown())
            loop.close()


def same_origin(request: web.Request) -> bool:
    """Whether a write comes from a page this server served (its Origin header names this server)."""
    origin = request.headers.get("Origin")
    return origin is not None and origin == f"{request.scheme}://{request.host}"


async def send_quietly(socket: web.WebSocketResponse, text: str) -> None:
    """Send `text`; a socket closed meanwhile is not an error (its client is gone)."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_str(text)


def static_file(folder: Traversable, name: str, headers: Mapping[str, str]) -> web.Response:
    """The packaged file `name` of `folder` (an .html, .js or .css file directly in it) with `headers`;
    anything else is 404."""
    kind = next((t for end, t in STATIC_TYPES.items() if name.endswith(end)), None)
    item = folder / name
    if kind is None or "/" in name or not item.is_file():
        raise web.HTTPNotFound()
    return web.Response(body=item.read_bytes(), content_type=kind, charset="utf-8", headers=headers)
