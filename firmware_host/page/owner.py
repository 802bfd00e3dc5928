"""The owner's side of the table page: what changes the box (its backup and restore, its networks, its
updates) is the owner's, who proves it with the owner PIN set on the box (Menu › Besitzer-PIN; its hash:
`firmware_host.owner_pin`). A seat at the table is no proof: players never reach these routes.

- `GET /owner`: the owner's page (`static/owner.html`): the PIN, then the owner's links.
- `GET /api/owner`: `{"pin": <a PIN is set>, "owner": <this request holds an owner session>, "left": <its
  seconds>, "links": [{"path", "de", "en"}]}` (the links only for the owner).
- `POST /api/owner` `{"pin": "1234"}` (the page's own origin): the PIN's right → an owner session: a token of
  32 random bytes in an HttpOnly, SameSite=Strict cookie (`COOKIE`), kept only as its SHA-256 and only in
  memory, for `SESSION_S` (a restart, or the PIN changed or removed on the box, ends every session). Tries
  are rate-limited per address (`PIN_RATE_PER_S`) and counted before they are compared (`guard.Lockout`:
  `PIN_LIMIT` wrong PINs lock the address for `PIN_LOCK_S`, `PIN_CROWD` from all addresses lock everyone
  who has not given the right one).
- `POST /api/owner/leave`: the session ends.

`OwnerGate.owner_only(handler) -> handler` is the gate the route modules use (`add_routes(application,
owner_only)`): 403 `{"error": "no_owner_pin", "message": …}` while no PIN is set, 403 `{"error":
"not_owner"}` without a valid owner session, 403 `{"error": "origin"}` for a write from another page;
else the handler. `owner_link(application, path, de, en)` lists a module's page on the owner's page.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from aiohttp import web

from firmware_host.core.pin_entry import PIN_MAX, PIN_MIN
from firmware_host.owner_pin import StoredPin, read_pin
from firmware_host.page.guard import Lockout, RateLimit
from firmware_host.web import Handler, same_origin, security_headers, static_file

log = logging.getLogger("wordtable.page")


COOKIE = "wt_owner"
SESSION_S = 15 * 60.0
MAX_SESSIONS = 8  # at once; the oldest goes first
PIN_LIMIT = 5
PIN_LOCK_S = 300.0
PIN_CROWD = 20
PIN_RATE_PER_S = 0.5
PIN_BURST = 3.0
HEADERS = security_headers("'self'")  # the page's (page/server.py)
NO_PIN = "no owner PIN set — set it on the box: Menu › Owner PIN › Set PIN (Menü › Besitzer-PIN › PIN festlegen)"
NOT_OWNER = "only for the owner: enter the owner PIN at /owner"
SAFE = ("GET", "HEAD", "OPTIONS")


@dataclass(frozen=True, slots=True)
class OwnerLink:
    """A page of the owner's, listed on /owner in an owner session: its path and its label in each language."""

    path: str
    de: str
    en: str


LINKS = web.AppKey("owner_links", list[OwnerLink])


def owner_link(application: web.Application, path: str, de: str, en: str) -> None:
    """List the page `path` (its label in German and English) on the owner's page of `application`, once."""
    links = application.setdefault(LINKS, [])
    if all(link.path != path for link in links):
        links.append(OwnerLink(path, de, en))


def _answer(status: int, error: str, **fields: object) -> web.Response:
    body = {"error": error, **fields} if error else {"ok": True, **fields}
    return web.json_response(body, status=status, headers=HEADERS)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class OwnerGate:
    """Owner sessions for the page served from `state_dir` (None: no PIN can be set) on the monotonic
    `clock`; `names`: what the box answers to (`web.own_names`), for the origin of writes."""

    def __init__(self, state_dir: Path | None, clock: Callable[[], float], names: frozenset[str]) -> None:
        self.state_dir = state_dir
        self.clock = clock
        self.names = names
        self.lockout = Lockout(clock, limit=PIN_LIMIT, lock_s=PIN_LOCK_S, crowd=PIN_CROWD, what="owner PINs")
        self.rates = RateLimit(clock, PIN_RATE_PER_S, PIN_BURST)
        self.sessions: dict[str, tuple[float, bytes]] = {}  # token digest -> (until, the salt of its PIN)

    def pin(self) -> StoredPin | None:
        """The PIN's hash as the box keeps it now (read at each request: the box may change it any time)."""
        return read_pin(self.state_dir)

    def left(self, request: web.Request, stored: StoredPin | None) -> float:
        """The seconds the request's owner session has left (0: it holds none valid for the PIN `stored`)."""
        token = request.cookies.get(COOKIE)
        kept = self.sessions.get(_digest(token)) if token else None
        if kept is None or stored is None:
            return 0.0
        until, salt = kept
        left = until - self.clock()
        return left if left > 0 and secrets.compare_digest(salt, stored.salt) else 0.0

    def refusal(self, request: web.Request) -> web.Response | None:
        """Why `request` may not pass the gate (None: it may)."""
        if request.method not in SAFE and not same_origin(request, self.names):
            return _answer(403, "origin")
        stored = self.pin()
        if stored is None:
            return _answer(403, "no_owner_pin", message=NO_PIN)
        if not self.left(request, stored):
            return _answer(403, "not_owner", message=NOT_OWNER)
        return None

    def owner_only(self, handler: Handler) -> Handler:
        """`handler` behind the gate: answered only in a valid owner session (see the module)."""

        @functools.wraps(handler)
        async def gated(request: web.Request) -> web.StreamResponse:
            refused = self.refusal(request)
            return refused if refused is not None else await handler(request)

        return gated

    def is_owner(self, request: web.Request) -> bool:
        return self.refusal(request) is None

    # --- the routes -------------------------------------------------------------------------------------

    def add_routes(self, application: web.Application) -> None:
        static = resources.files("firmware_host.page") / "static"

        async def page(request: web.Request) -> web.Response:
            return static_file(static, "owner.html", HEADERS)

        application.router.add_get("/owner", page)
        application.router.add_get("/api/owner", self._status)
        application.router.add_post("/api/owner", self._login)
        application.router.add_post("/api/owner/leave", self._leave)

    async def _status(self, request: web.Request) -> web.Response:
        stored = self.pin()
        left = self.left(request, stored)
        links = [{"path": k.path, "de": k.de, "en": k.en} for k in request.app.get(LINKS, [])] if left else []
        return _answer(200, "", pin=stored is not None, owner=bool(left), left=round(left), links=links)

    async def _login(self, request: web.Request) -> web.Response:
        remote = request.remote or "?"
        if not same_origin(request, self.names):
            return _answer(403, "origin")
        if not self.rates.allow(remote):
            return _answer(429, "slow_down")
        stored = self.pin()
        if stored is None:
            return _answer(403, "no_owner_pin", message=NO_PIN)
        locked = self.lockout.attempt(remote)  # counted as wrong until it is right, before the body is read
        if locked:
            return _answer(429, "locked", retry=round(locked))
        pin = _pin_of(await request.read())
        right = pin is not None and await asyncio.get_running_loop().run_in_executor(None, stored.matches, pin)
        if not right:
            log.info("table page: wrong owner PIN from %s", remote)
            locked = self.lockout.locked(remote)
            return _answer(429, "locked", retry=round(locked)) if locked else _answer(403, "wrong_pin")
        self.lockout.succeeded(remote)
        token = secrets.token_urlsafe(32)
        now = self.clock()
        self.sessions = {d: kept for d, kept in self.sessions.items() if kept[0] > now}
        while len(self.sessions) >= MAX_SESSIONS:
            self.sessions.pop(min(self.sessions, key=lambda d: self.sessions[d][0]))
        self.sessions[_digest(token)] = (now + SESSION_S, stored.salt)
        log.info("table page: owner session opened from %s", remote)
        response = _answer(200, "", left=round(SESSION_S))
        response.set_cookie(COOKIE, token, max_age=int(SESSION_S), path="/", httponly=True, samesite="Strict")
        return response

    async def _leave(self, request: web.Request) -> web.Response:
        if not same_origin(request, self.names):
            return _answer(403, "origin")
        token = request.cookies.get(COOKIE)
        if token:
            self.sessions.pop(_digest(token), None)
        response = _answer(200, "")
        response.del_cookie(COOKIE, path="/")
        return response


def _pin_of(body: bytes) -> str | None:
    """The PIN a login's body `{"pin": "…"}` gives; None when it gives none that could be one."""
    try:
        pin = json.loads(body).get("pin")
    except (ValueError, AttributeError):
        return None
    if isinstance(pin, str) and pin.isascii() and pin.isdigit() and PIN_MIN <= len(pin) <= PIN_MAX:
        return pin
    return None
