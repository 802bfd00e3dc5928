"""What the box's web servers share (the table page with the simulator's virtual box, and the league's
board, all aiohttp): an application served by an event loop in a thread of its own, the security headers
of every answer, the routes of their packaged pages, the same-origin check of a write, and a WebSocket
send that a closed socket does not fail.

`security_headers(form_action)`: the headers every answer carries (a strict Content-Security-Policy: only
the server's own scripts, styles, connections and images, no framing). `file_routes` adds a site's
packaged page and its scripts and styles (`static_file`): a folder's table of pages (`PAGES`) gives each
page its title, stylesheet, scripts and texts, and every page of it is one head (`TEMPLATE`) with the body
its file holds. `listen` serves an application on an address.

`ThreadedSite`: a subclass sets its site up in `_listen` and takes it down in `_shutdown` (both on the loop,
in the thread); `_start_thread(name)` returns once it listens or raises what stopped it; `_stop_thread()`
stops the loop and waits for the thread (idempotent); `_send_soon(socket, text)` sends on the loop without
waiting for it (the send is kept until done). `app_runner` serves an application with the request
log of both: a request that is not HTTP (a port scanner, a cut connection) is answered 400 by aiohttp and
logged as one line, not as a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import socket
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any, cast

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from firmware_host.web_gate import GatedSite, Limits

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]  # an aiohttp request handler
Gate = Callable[[Handler], Handler]  # wraps a handler: e.g. the owner's (`page.owner.OwnerGate.owner_only`)
STATIC_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


def security_headers(form_action: str = "'none'") -> dict[str, str]:
    """The headers of every answer; `form_action` is where the site's forms may go ("'self'" for a page
    with forms)."""
    return {
        "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                   f"frame-ancestors 'none'; base-uri 'none'; form-action {form_action}",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
        "X-Frame-Options": "DENY",
    }


class _MalformedRequests(logging.Filter):
    """aiohttp logs a request it could not parse at ERROR with its parser's traceback; such a request is bad
    input from the network, not a fault of the box: it becomes one INFO line (shown when INFO is logged)
    saying who sent it and what was wrong. Every other record (a handler that raised) passes unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, HttpProcessingError):
            return True
        remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        record.msg = "malformed request from %s refused (%d): %s"
        record.args = (remote, exc.code, f"{type(exc).__name__}: {' '.join(str(exc.message).split())[:120]}")
        record.exc_info = record.exc_text = None
        if record.levelno > logging.INFO:
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
        return REQUEST_LOG.isEnabledFor(record.levelno)


REQUEST_LOG = logging.getLogger("wordtable.web")
REQUEST_LOG.addFilter(_MalformedRequests())


KEEPALIVE_S = 30.0  # an idle connection between two requests is closed after this (aiohttp's own: an hour)


def app_runner(application: web.Application) -> web.AppRunner:
    """The runner the box's sites serve `application` with: no access log, no signal handlers (the shell
    owns them), requests logged to `REQUEST_LOG`, idle connections closed after `KEEPALIVE_S`."""
    return web.AppRunner(application, access_log=None, handle_signals=False, logger=REQUEST_LOG,
                         keepalive_timeout=KEEPALIVE_S)


async def listen(application: web.Application, bind: str, port: int,
                 limits: Limits | None = None) -> tuple[web.AppRunner, int]:
    """Serve `application` on `bind`:`port` (0: any free port) behind the door of `web_gate` (`limits`:
    how many connections, from whom, for how long): its runner (`app_runner`; `cleanup()` it to stop) and
    the port it listens on. Raises OSError when the port cannot be had."""
    runner = app_runner(application)
    await runner.setup()
    site = GatedSite(runner, bind, port, limits)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner, site.port


class ThreadedSite:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._sending: set[asyncio.Future[None]] = set()

    def _send_soon(self, socket: web.WebSocketResponse, text: str) -> None:
        """Send `text` on `socket` from the loop's thread, without waiting (`send_quietly`)."""
        task = asyncio.ensure_future(send_quietly(socket, text))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

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


def own_names() -> frozenset[str]:
    """The names the box answers to besides its addresses: its host name, that name on mDNS (`.local`, as
    the page announces itself) and localhost."""
    host = socket.gethostname().lower().rstrip(".")
    return frozenset({host, f"{host}.local", "localhost"})


def own_host(request: web.Request, names: frozenset[str]) -> bool:
    """Whether the request names the box as its host: an address (IPv4 or IPv6), or one of `names`. A
    page elsewhere that makes its own domain name point at the box (DNS rebinding) sends that name, not
    the box's, so it is neither answered nor believed as the box's origin."""
    host = (request.url.host or "").lower().rstrip(".").strip("[]")
    if not host:
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host in names
    return True


def same_origin(request: web.Request, names: frozenset[str] | None = None) -> bool:
    """Whether a write comes from a page this server served: its Origin header names this server, and the
    server is named as the box (`own_host`; `names`: `own_names()` when not given)."""
    origin = request.headers.get("Origin")
    return (origin is not None and origin == f"{request.scheme}://{request.host}"
            and own_host(request, own_names() if names is None else names))


def host_guard(names: frozenset[str]) -> Any:
    """An aiohttp middleware answering 421 to a request whose Host is not the box (`own_host`): what a
    rebound name would read of the table (its games, its records) is never sent to it."""

    @web.middleware
    async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
        if not own_host(request, names):
            REQUEST_LOG.info("request for host %r from %s refused", request.host, request.remote)
            return web.Response(status=421, text="Misdirected request: use the box's address")
        return cast(web.StreamResponse, await handler(request))

    return guard


async def send_quietly(socket: web.WebSocketResponse, text: str) -> None:
    """Send `text`; a socket closed meanwhile is not an error (its client is gone)."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_str(text)


def file_routes(application: web.Application, folder: Traversable, headers: Mapping[str, str], *,
                at: str = "/", index: str = "index.html", also: tuple[str, ...] = ()) -> None:
    """GET `at` (and each path of `also`) answers the page `index` of `folder`, GET `<at>static/<name>` its
    file `name` (`static_file`); at the root also an empty /favicon.ico (the browsers' question)."""

    async def page(request: web.Request) -> web.Response:
        return static_file(folder, index, headers)

    async def asset(request: web.Request) -> web.Response:
        return static_file(folder, request.match_info["name"], headers)

    for path in (at, *also):
        application.router.add_get(path, page)
    application.router.add_get(f"{at.rstrip('/')}/static/{{name}}", asset)
    if at == "/":
        application.router.add_get("/favicon.ico", _no_icon)


async def _no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)


def static_file(folder: Traversable, name: str, headers: Mapping[str, str]) -> web.Response:
    """The packaged file `name` of `folder` (an .html, .js or .css file directly in it) with `headers`; an
    .html file that the folder's table of pages (`PAGES`) names is that page (`page_html`); anything else
    is 404."""
    kind = next((t for end, t in STATIC_TYPES.items() if name.endswith(end)), None)
    item = folder / name
    if kind is None or "/" in name or not item.is_file():
        raise web.HTTPNotFound()
    page = pages(folder).get(name) if kind == "text/html" else None
    body = item.read_bytes() if page is None else page_html(folder, name, page).encode()
    return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)


PAGES = "pages.json"  # a folder's table of its pages: {"<name>.html": {title, style, scripts, texts}}
TEMPLATE = """<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="stylesheet" href="{style}">
<script type="application/json" id="texts">{texts}</script>
{scripts}</head>
<body>
{body}</body>
</html>
"""


@dataclass(frozen=True, slots=True)
class Page:
    """A row of a folder's `PAGES`: the page's <title>, its stylesheet and scripts (URLs, run in this order
    once the page is parsed) and its texts (a JSON file of the folder: {"de": {key: text}, "en": …})."""

    title: str
    style: str
    scripts: tuple[str, ...]
    texts: str


def pages(folder: Traversable) -> dict[str, Page]:
    """The table of `folder`'s pages by their file's name; empty without one (its .html files are whole)."""
    table = folder / PAGES
    if not table.is_file():
        return {}
    rows = json.loads(table.read_text(encoding="utf-8"))
    return {name: Page(row["title"], row["style"], tuple(row["scripts"]), row["texts"]) for name, row in rows.items()}


def page_html(folder: Traversable, name: str, page: Page) -> str:
    """The page `name` of `folder`: the one head of every page (`TEMPLATE`), filled from `page`, and the
    body its file holds. Its texts are a data block (JSON, never run: the Content-Security-Policy's
    `default-src 'self'` holds), which the page's scripts read before their first render."""
    texts = json.dumps(json.loads((folder / page.texts).read_text(encoding="utf-8")), ensure_ascii=False,
                       separators=(",", ":")).replace("<", "\\u003c")  # no "</script>" inside the block
    scripts = "".join(f'<script src="{html.escape(src)}" defer></script>\n' for src in page.scripts)
    return TEMPLATE.format(title=html.escape(page.title), style=html.escape(page.style), texts=texts,
                           scripts=scripts, body=(folder / name).read_text(encoding="utf-8"))
