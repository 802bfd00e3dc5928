"""The table page's web server: aiohttp in a thread of its own, beside the shell.

A phone belongs to a person of the roster (its token holds the person's id, `guard.Holder`): its events
carry the person, whose seat in the game or mode open the core resolves, and it gets that person's view.

In: what a phone may do becomes an event on the shell's queue (`put`) — `SeatEntry` (what the game's stage
asks of the phone's own seat), `SeatCommand` (the sand timer, the own seat on the free scoreboard, the
menu's settings; the core decides whether it may be done now), `SeatJoin` (a new player: the core picks
the seat), `ClaimsPending` (the takeovers waiting for the table's START on its phone page screen: held
here, at most one per seat and per phone, rate-limited, never journaled — `guard.Claims`), `PageInfo` (the
address and the box's table code the OLED shows: kept in the state directory across games and restarts,
renewed only when the table asks — `PageState.new_code` —, which logs out every phone not seated). Out:
the shell calls `publish` with the `PageViews` of every step; each connected page gets its seat's view when
it changed. Besides, a seated phone may read the past games from the journal (read-only, `past_games`) and
fetch the join QR to show a newcomer (`join_qr`). What changes the box is the owner's, behind the owner PIN
set on the box (`owner`: `OwnerGate.owner_only`): the box's backup and, while no game runs, a restore at a
restart (`backup_routes`). Nothing else of the appliance is reachable from here: no power-off, no journal
writes or deletion.

Every write needs the table code (joining) or the seat token it earned (entries); see `guard`. WebSocket
upgrades and joins must come from the page's own origin; messages are size-limited and schema-checked
(`messages`), entries rate-limited per seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import ipaddress
import json
import logging
import secrets
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from firmware_host.core.events import ClaimsPending, Event, PageInfo, SeatCommand, SeatEntry, SeatJoin
from firmware_host.core.page_table import join_address
from firmware_host.core.page_view import PageViews
from firmware_host.core.settings import MAX_PLAYERS
from firmware_host.page.backup_routes import backup_routes, service_restart
from firmware_host.page.bgstats_link import bgstats_route
from firmware_host.page.guard import (
    CLAIM_S,
    STORE_NAME,
    Claims,
    Lockout,
    RateLimit,
    SeatTokens,
    code_matches,
    held,
)
from firmware_host.page.join_qr import join_qr_svg
from firmware_host.page.messages import MAX_MESSAGE, Refused, parse_join, parse_message
from firmware_host.page.owner import OwnerGate, owner_link
from firmware_host.page.past_games import PastGameError, game_record, game_sheet, games_list
from firmware_host.page.people import people_routes
from firmware_host.page.wifi_routes import add_routes as wifi_routes
from firmware_host.paths import journal_path
from firmware_host.update.page_routes import add_routes as update_routes
from firmware_host.web import (
    ThreadedSite,
    file_routes,
    host_guard,
    listen,
    own_names,
    same_origin,
    security_headers,
    send_quietly,
)

log = logging.getLogger("wordtable.page")

COOKIE = "wt_seat"
COOKIE_AGE_S = 365 * 24 * 3600
STATIC = resources.files("firmware_host.page") / "static"
HEADERS = security_headers("'self'")  # the page's forms are sent by its script, to this server


@dataclass(eq=False)
class _Client:
    socket: web.WebSocketResponse
    token: str | None
    last: str = ""


class PageServer(ThreadedSite):
    """The page served on `bind`:`port` (port 0: any free one). `address` is the base URL announced on the
    OLED (None: `http://<this machine's LAN address>:<port>`). `state_dir` keeps the seat tokens and the
    table code (None: in memory only). `clock` is the shell's monotonic clock. `extra_routes` adds routes to
    the application (only the simulator passes one: its virtual box at /box). A request is answered only
    when it names the box as its host: an address, the box's host name (also on `.local`), localhost or one
    of `names` (`web.own_host`: a DNS-rebinding page names its own domain)."""

    def __init__(self, put: Callable[[Event], None], clock: Callable[[], float], *, bind: str = "0.0.0.0",
                 port: int = 8080, state_dir: Path | None = None, address: str | None = None,
                 extra_routes: Callable[[web.Application], None] | None = None,
                 names: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.put = put
        self.extra_routes = extra_routes
        self.clock = clock
        self.bind = bind
        self.port = port
        self.address = address
        self.tokens = SeatTokens(state_dir / STORE_NAME if state_dir is not None else None)
        self.journal = journal_path(state_dir) if state_dir is not None else None
        self.lockout = Lockout(clock)
        self.rates = RateLimit(clock)
        self.claims = Claims(clock)
        self.names = own_names() | frozenset(names)  # what the box answers to besides an address
        self.state_dir = state_dir
        self.owner = OwnerGate(state_dir, clock, self.names)  # what changes the box is the owner's (page/owner.py)
        self.views: PageViews | None = None
        self._latest: PageViews | None = None  # the last views published (on the shell's thread)
        self.clients: set[_Client] = set()
        self.sent = 0  # view messages sent (the benchmark reads it)
        self._seen: int | None = None  # the table's requests for a new code (`new_code`) last seen in a view
        self._answered: tuple[str, bool] | None = None
        self._runner: web.AppRunner | None = None

    @property
    def code(self) -> str:
        """The table code (the box's, kept with the seat tokens)."""
        return self.tokens.code

    # --- life -------------------------------------------------------------------------------------------

    def start(self) -> str:
        """Serve from a thread of its own; returns the announced address once listening. Raises OSError
        when the port cannot be bound."""
        self._start_thread("page")
        assert self.address is not None
        self.put(PageInfo(self.address, self.code, self.clock()))
        log.info("table page at %s (code %s)", self.address, self.code)
        return self.address

    async def _listen(self) -> None:
        self._runner, self.port = await listen(self.app(), self.bind, self.port)
        if self.address is None:
            self.address = f"http://{lan_address(self.bind)}:{self.port}"

    async def _shutdown(self) -> None:
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def close(self) -> None:
        self._stop_thread()

    # --- from the shell -----------------------------------------------------------------------------------

    def publish(self, views: PageViews) -> None:
        """The views after a step (called on the shell's thread; returns at once: the texts are made on the
        server's thread, for the pages connected, and only of the latest views when steps come faster)."""
        self._latest = views
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._take, views)

    def _take(self, views: PageViews) -> None:
        if self.views is not None:
            views.follow(self.views)
        self.views = views
        page = views.page
        if self._seen is not None and page.new_code != self._seen:  # the table asked for a new code
            self._renew_code()
        self._seen = page.new_code
        for claim, seat, person in page.joined:  # each new player seated (or refused) by the core, once
            if self.tokens.settle(claim, seat, person):
                log.info("table page: join %s %s", claim, f"at seat {seat + 1}" if seat >= 0 else "refused")
        if views.game is None:  # the free table shows who sits where: a seat's token becomes its person's
            self.tokens.adopt(views.people)
        if page.answered is not None and page.answered != self._answered:
            self._answered = page.answered
            if self.claims.answered(page.answered[0]):
                self._tell_claims()
            seat = self.tokens.answer(*page.answered)
            log.info("table page: takeover %s %s", page.answered[0], "granted" if seat is not None else "refused")
        if views is not self._latest:  # a later step's views are on their way: only they are sent
            return
        for client in list(self.clients):
            self._send_view(client)

    def _renew_code(self) -> None:
        """A new table code, kept at once: every phone not seated is logged out (a takeover or join it waits
        for is dropped, its page told `code_renewed`); the seated phones keep going."""
        waiting = [claim for _, claim in self.claims.pending()]
        for claim in waiting:
            self.claims.answered(claim)
        self.tokens.renew_code()
        self.put(PageInfo(self.address or "", self.code, self.clock()))
        if waiting:
            self._tell_claims()
        log.info("table page: new code %s; phones not seated are logged out", self.code)
        for client in list(self.clients):
            if self.tokens.seat_of(client.token) is None and not client.socket.closed:
                self._send_soon(client.socket, _error("code_renewed"))

    def _view_of(self, client: _Client) -> str:
        views = self.views
        if views is None:
            return ""
        held = self.tokens.seat_of(client.token)
        if held is not None and held.active and held.person >= 0:  # their seat in the game open, or none
            return views.person(held.person)
        if held is not None and held.active and _seat_is_free_of_people(views, held.seat):
            return views.seat(held.seat)
        if held is not None and not held.active:  # a takeover waits for START; a new name for its seat
            return views.guest[:-1] + (',"waiting":"join"}' if held.seat < 0 else ',"waiting":true}')
        return views.guest

    def _send_view(self, client: _Client) -> None:
        try:
            text = self._view_of(client)  # made here, on the page's thread, at its first use
        except Exception:  # the page must never stop the table: the other pages still get theirs
            log.exception("table page: the view could not be made")
            return
        if not text or text == client.last or client.socket.closed:
            return
        client.last = text
        self.sent += 1
        message = f'{{"type":"view","now":{self.clock()!r},"view":{text}}}'
        self._send_soon(client.socket, message)

    # --- HTTP ---------------------------------------------------------------------------------------------

    def app(self) -> web.Application:
        application = web.Application(client_max_size=MAX_MESSAGE, middlewares=[host_guard(self.names)])
        file_routes(application, STATIC, HEADERS, also=("/j/{code}",))
        application.router.add_post("/api/join", self._join)
        application.router.add_post("/api/leave", self._leave)
        application.router.add_get("/ws", self._socket)
        application.router.add_get("/api/join-qr.svg", self._join_qr)
        application.router.add_get("/api/games", self._games)
        application.router.add_get("/api/games/{id:[0-9]{1,9}}", self._game)
        application.router.add_get("/api/games/{id:[0-9]{1,9}}/record", self._record)
        people_routes(application, self._seated, self.journal, self._lang)  # statistics per person (page/people.py)
        self.owner.add_routes(application)  # /owner: the owner PIN, then the owner's pages
        backup_routes(application, self, self.owner.owner_only, service_restart())  # the box's backup: the owner's
        if self.state_dir is not None:  # the Wi-Fi's and the updates' requests go to the state directory
            wifi_routes(application, self.owner.owner_only, self.state_dir)  # the home networks (page/wifi_routes.py)
            owner_link(application, "/wifi", "WLAN: Heimnetz hinzufügen", "Wi-Fi: add a home network")
            update_routes(application, self.owner.owner_only, state_dir=self.state_dir)  # firmware_host/update
        bgstats_route(application, self.journal, self._seated, HEADERS)  # a past game into BG Stats
        if self.extra_routes is not None:  # the simulator's virtual box (page/box.py)
            self.extra_routes(application)
        return application

    async def _join(self, request: web.Request) -> web.Response:
        remote = request.remote or "?"
        if not same_origin(request, self.names):
            return _answer(403, "origin")
        locked = self.lockout.attempt(remote)  # counted as wrong until it is right, before the body is read
        if locked:
            return _answer(429, "locked", retry=round(locked))
        try:
            join = parse_join(await request.read())
        except Refused as exc:
            return _answer(400, exc.reason)
        if not code_matches(join.code, self.code):
            log.info("table page: wrong code from %s", remote)
            locked = self.lockout.locked(remote)
            return _answer(429, "locked", retry=round(locked)) if locked else _answer(403, "code")
        self.lockout.succeeded(remote)
        players = self.views.players if self.views is not None else ()
        people = self.views.people if self.views is not None else ()
        seat = join.seat
        if join.name is not None:
            names = [p.casefold() for p in players]
            seat = names.index(join.name.casefold()) if join.name.casefold() in names else None
            if seat is None and (self.views is None or self.views.game is not None):
                return _answer(404, "no_such_name")
            if seat is None:  # a new player at the table without a game: the core seats it at the next
                # free seat (two phones joining at once get two seats); the token waits for its answer
                if len(players) >= MAX_PLAYERS:
                    return _answer(409, "full")
                claim = secrets.token_hex(8)
                token = self.tokens.wait(-1, claim)
                self.put(SeatJoin(join.name, claim, self.clock()))
                return _with_cookie(_answer(202, "", waiting=True), token)
        assert seat is not None
        if seat >= len(players):
            return _answer(400, "bad_seat")
        person = people[seat] if seat < len(people) else -1  # the phone is the person's who sits there
        mine = self.tokens.seat_of(request.cookies.get(COOKIE))
        if mine is not None and mine.active and mine.held == held(seat, person):
            return _answer(200, "", seat=seat, person=person)
        if self.tokens.holder_of(seat, person) is None:
            return _with_cookie(_answer(200, "", seat=seat, person=person), self.tokens.grant(seat, person))
        claim, other = self.claims.ask(seat, remote, request.cookies.get(COOKIE), person)
        if claim is None:  # asked too often, or another phone's claim for the person waits
            return _answer(429 if other == "slow_down" else 409, other or "claimed")
        if other is not None:
            self.tokens.drop_waiting([other])
        token = self.tokens.wait(seat, claim, person)
        self._tell_claims()
        asyncio.get_running_loop().call_later(CLAIM_S + 0.5, self._tell_claims)  # it lapses
        return _with_cookie(_answer(202, "", seat=seat, person=person, waiting=True), token)

    def _tell_claims(self) -> None:
        """Show the table the takeovers waiting (only shown: never journaled), once some lapsed too."""
        self.tokens.drop_waiting(self.claims.lapse())
        self.put(ClaimsPending(self.claims.pending(), self.clock()))

    async def _leave(self, request: web.Request) -> web.Response:
        if not same_origin(request, self.names):
            return _answer(403, "origin")
        self.tokens.release(request.cookies.get(COOKIE))
        response = _answer(200, "")
        response.del_cookie(COOKIE, path="/")
        return response

    async def _join_qr(self, request: web.Request) -> web.Response:
        """The join QR with the table code, for a seated phone to show a newcomer (anyone else: 403)."""
        if not self._seated(request):
            return _answer(403, "no_seat")
        address = self.address or ""
        svg = join_qr_svg(join_address(address, self.code), self.code, address.removeprefix("http://"))
        return web.Response(text=svg, content_type="image/svg+xml", headers=HEADERS)

    # --- past games (read-only) --------------------------------------------------------------------------

    def _seated(self, request: web.Request) -> bool:
        held = self.tokens.seat_of(request.cookies.get(COOKIE))
        return held is not None and held.active

    async def _past(self, request: web.Request, read: Callable[[Path], Any]) -> Any:
        if not self._seated(request):
            raise _Refusal(_answer(403, "no_seat"))
        if self.journal is None:
            raise _Refusal(_answer(404, "no_game"))
        journal = self.journal
        try:
            return await asyncio.get_running_loop().run_in_executor(None, read, journal)
        except PastGameError as exc:
            log.info("table page: past game refused: %s", exc.reason)
            raise _Refusal(_answer(404 if exc.reason == "no_game" else 500, exc.reason)) from None

    def _lang(self) -> str:
        return self.views.lang if self.views is not None else "de"

    async def _games(self, request: web.Request) -> web.Response:
        lang = self._lang()
        try:
            games = await self._past(request, lambda path: games_list(path, lang))
        except _Refusal as refusal:
            return refusal.response
        return _answer(200, "", games=games)

    async def _game(self, request: web.Request) -> web.Response:
        lang, game_id = self._lang(), int(request.match_info["id"])
        try:
            sheet = await self._past(request, lambda path: game_sheet(path, game_id, lang))
        except _Refusal as refusal:
            return refusal.response
        return _answer(200, "", **sheet)

    async def _record(self, request: web.Request) -> web.Response:
        game_id = int(request.match_info["id"])
        try:
            game, record = await self._past(request, lambda path: game_record(path, game_id))
        except _Refusal as refusal:
            return refusal.response
        headers = {**HEADERS, "Content-Disposition": f'attachment; filename="wordtable-{game_id}-{game}.jsonl"'}
        return web.Response(text=record, content_type="application/x-ndjson", charset="utf-8", headers=headers)

    # --- WebSocket ----------------------------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request, self.names):
            log.warning("table page: WebSocket from a foreign origin refused: %r", request.headers.get("Origin"))
            raise web.HTTPForbidden(text="origin")
        socket_ = web.WebSocketResponse(max_msg_size=MAX_MESSAGE + 1, heartbeat=30.0)  # aiohttp: size < max
        await socket_.prepare(request)
        client = _Client(socket_, request.cookies.get(COOKIE))
        self.clients.add(client)
        try:
            self._send_view(client)
            async for message in socket_:
                if message.type == WSMsgType.TEXT:
                    await self._message(client, message.data)
                elif message.type in (WSMsgType.BINARY, WSMsgType.ERROR):
                    await socket_.close(message=b"text only")
        finally:
            self.clients.discard(client)
        return socket_

    async def _message(self, client: _Client, raw: str) -> None:
        try:
            message = parse_message(raw, self.clock())
        except Refused as exc:
            await send_quietly(client.socket, _error(exc.reason))
            return
        if not isinstance(message, SeatEntry | SeatCommand):
            await send_quietly(client.socket, '{"type":"pong"}')
            return
        mine = self.tokens.seat_of(client.token)
        if mine is None or not mine.active:
            await send_quietly(client.socket, _error("no_seat"))
            return
        if mine.person >= 0:  # the person's seat in the game open; the core resolves it again by `person`
            seat = self.views.person_seat(mine.person) if self.views is not None else None
            message = replace(message, seat=message.seat if seat is None else seat, person=mine.person)
        elif message.seat != mine.seat:
            log.warning("table page: a page of seat %d wrote for seat %d: refused", mine.seat, message.seat)
            await send_quietly(client.socket, _error("not_your_seat"))
            return
        elif self.views is not None and not _seat_is_free_of_people(self.views, mine.seat):
            await send_quietly(client.socket, _error("no_seat"))  # a person sits there now: theirs
            return
        if not self.rates.allow(mine.held):
            await send_quietly(client.socket, _error("slow_down"))
            return
        self.put(message)  # its person (or seat) is the one the page's token holds (checked above)
        await send_quietly(client.socket, '{"type":"sent"}')


def _seat_is_free_of_people(views: PageViews, seat: int) -> bool:
    """Whether a seat's token (no person's) still holds `seat`: a seat of the table that no person sits
    at (a person's seat is their phone's, whichever it is)."""
    return 0 <= seat < len(views.players) and (seat >= len(views.people) or views.people[seat] < 0)


class _Refusal(Exception):
    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response


def _error(reason: str) -> str:
    return json.dumps({"type": "error", "reason": reason})


def _answer(status: int, error: str, **fields: Any) -> web.Response:
    body = {"error": error, **fields} if error else {"ok": True, **fields}
    return web.json_response(body, status=status, headers=HEADERS)


def _with_cookie(response: web.Response, token: str) -> web.Response:
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE_S, path="/", httponly=True, samesite="Strict")
    return response


SIOCGIFADDR = 0x8915
NET_CLASS = Path("/sys/class/net")


def _interfaces() -> list[str]:
    """The network interfaces' names. `if_nameindex` asks over netlink, which the unit's
    RestrictAddressFamilies= refuses (EAFNOSUPPORT): then sysfs lists them."""
    try:
        return [name for _, name in socket.if_nameindex()]
    except OSError:
        return sorted(entry.name for entry in NET_CLASS.iterdir()) if NET_CLASS.is_dir() else []


def lan_address(bind: str) -> str:
    """The address phones reach this machine at: `bind` when it names one, else the first private IPv4
    address of an interface (loopback last)."""
    if bind not in ("", "0.0.0.0", "::"):
        return f"[{bind}]" if ":" in bind else bind
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in _interfaces():
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    addresses = [ipaddress.ip_address(a) for a in found]
    private = [a for a in addresses if a.is_private and not a.is_loopback]
    return str(private[0]) if private else "127.0.0.1"
