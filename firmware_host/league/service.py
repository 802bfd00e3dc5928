"""`wordtable league`: the venue's league — an MQTT subscriber, its SQLite store and the live board.

One asyncio loop in a thread of its own holds the store, the tables' live state and the board's
WebSockets; paho's network thread only hands messages over. Once a game is committed in the store (or
was already there: a repeat) the league acknowledges it to its box — the ids of the table's last
`ACK_IDS` stored games, retained, on the table's ack topic, so a box that is away meanwhile finds it when
it subscribes — and only then to the broker (manual PUBACK): a league that dies in between gets it
again. The session is persistent (clean start off, a long session expiry), so games published while the
league is down wait in the broker for it; state and status are subscribed at QoS 0 (retained: the
latest is all a board needs), so they never fill that queue.

The board shows the timer as the box sent it: the box's wall-clock deadline is moved onto the league's
clock by the box's own send time (`deadline - sent_at` after receipt), so a box whose clock is off still
counts down right; the page gets the league's time with every message and corrects for the TV's clock.
"""

from __future__ import annotations

import contextlib
import html
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from aiohttp import WSMsgType, web
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from firmware_host.config import LeagueConfig
from firmware_host.core.games import registry
from firmware_host.core.games.registry import parse_record
from firmware_host.core.history.people import minutes_seconds
from firmware_host.core.i18n import DEFAULT_LANGUAGE
from firmware_host.league.publisher import make_client
from firmware_host.league.store import TIMED, LeagueStore, PayloadError, evening_start
from firmware_host.league.topics import (
    ACK,
    FROM_TABLES,
    GAMES,
    MAX_PAYLOAD,
    QOS,
    STATE,
    STATUS,
    split,
    topic,
    venue_filter,
)
from firmware_host.league.validate import problems
from firmware_host.web import ThreadedSite, file_routes, listen, security_headers

log = logging.getLogger("wordtable.league")

STATIC = resources.files("firmware_host.league") / "static"
SESSION_EXPIRY_S = 7 * 24 * 3600  # the broker keeps the league's queued games this long while it is away
ACK_IDS = 50  # the ack names this many of the table's latest games: more than a box sends at once
STANDINGS_EVERY_S = 0.5  # standings are sent at most this often (computing them reads the whole season)
HEADERS = security_headers()
SCHEMA_OF = {STATE: "state", STATUS: "status", GAMES: "game"}  # a topic kind's message schema (league/validate.py)


@dataclass
class TableLive:
    table: str
    online: bool = False
    state: dict[str, Any] | None = None
    deadline: float | None = None  # the running timer's end on the league's wall clock
    received: float = 0.0
    invalid: str | None = None  # why the table's last state or status was dropped; None: it was valid

    def message(self, lang: str) -> dict[str, Any]:
        state = self.state or {}
        game = state.get("game")
        kit = registry.kit(game) if isinstance(game, str) else None
        return {"type": "table", "table": self.table, "online": self.online, "state": state,
                "title": kit.name(lang) if kit is not None else None, "deadline": self.deadline,
                "invalid": self.invalid}


class League(ThreadedSite):
    """The league of `venue` on `config`'s broker, stored in `db`, its board on `bind`:`port` (0: any)."""

    def __init__(self, config: LeagueConfig, venue: str, db: Path, *, bind: str = "0.0.0.0", port: int = 8090,
                 lang: str = DEFAULT_LANGUAGE, client_id: str | None = None,
                 wall: Callable[[], float] = time.time, reconnect: tuple[int, int] = (1, 30)) -> None:
        super().__init__()
        self.config, self.venue, self.db_path = config, venue, db
        self.bind, self.port, self.lang = bind, port, lang
        self.wall = wall
        self.tables: dict[str, TableLive] = {}
        self.sockets: set[web.WebSocketResponse] = set()
        self.received = 0  # games messages taken in (repeats included)
        self.stored = 0  # games new to the store
        self.flagged = 0  # games whose record does not score
        self.on_stored: Callable[[str], None] | None = None  # tests and the bench: a game id was stored
        self.client, self._host, self._port = make_client(client_id or f"wordtable-league-{venue}", config)
        self.client.manual_ack_set(True)
        self.client.reconnect_delay_set(reconnect[0], reconnect[1])
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._store: LeagueStore | None = None
        self._runner: web.AppRunner | None = None
        self.connected = threading.Event()
        self._standings_due = False

    # -- life ----------------------------------------------------------------------------------------

    def start(self) -> str:
        """Serve the board and subscribe; returns the board's URL once it listens."""
        self._start_thread("league")
        properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
        self.client.connect_async(self._host, self._port, keepalive=30, clean_start=False, properties=properties)
        self.client.loop_start()
        return self.url

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.bind in ("0.0.0.0", "::") else self.bind
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self._stop_thread()

    async def _listen(self) -> None:
        self._store = LeagueStore(self.db_path)  # in the loop's thread: sqlite3's connections stay in theirs
        app = web.Application(client_max_size=64 * 1024)
        file_routes(app, STATIC, HEADERS)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/api/board", self._board_json)
        app.router.add_get("/game/{id}", self._sheet)
        app.router.add_get("/game/{id}/record.jsonl", self._record)
        self._runner, self.port = await listen(app, self.bind, self.port)

    async def _shutdown(self) -> None:
        for socket in list(self.sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._store is not None:
            self._store.close()

    # -- MQTT (paho's thread: hand over only) ----------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("the broker refused the league: %s", reason)
            return
        client.subscribe([(venue_filter(self.venue, kind), QOS[kind]) for kind in FROM_TABLES])
        log.info("league %s: subscribed on %s:%d", self.venue, self._host, self._port)
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # not acknowledged: the broker sends it again
        received = self.wall()
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._take, message, received)

    # -- the loop's thread ----------------------------------------------------------------------------

    def _take(self, message: mqtt.MQTTMessage, received: float) -> None:
        try:
            self._handle(message.topic, message.payload, received)
        except Exception:
            log.exception("league: the message on %s is set aside", message.topic)
        if message.qos > 0:
            self.client.ack(message.mid, message.qos)

    def _handle(self, name: str, payload: bytes | bytearray, received: float) -> None:
        parts = split(name)
        if parts is None or parts[0] != self.venue:
            return
        _, table, kind = parts
        if kind not in FROM_TABLES:
            return
        if not payload:  # a retained message cleared
            if kind == STATE and table in self.tables:
                del self.tables[table]
                self._send_all({"type": "gone", "table": table})
            return
        if len(payload) > MAX_PAYLOAD:
            log.warning("league: a %d-byte message on %s is dropped", len(payload), name)
            return
        try:
            data = json.loads(payload)
        except ValueError:
            log.warning("league: no JSON on %s", name)
            return
        invalid = problems(SCHEMA_OF[kind], data)
        if invalid:
            self._invalid(table, kind, invalid)
            return
        if kind == GAMES:
            self._game(table, data)
            return
        live = self.tables.setdefault(table, TableLive(table))
        live.invalid = None
        if kind == STATUS:
            live.online = data.get("online") is True
        elif kind == STATE:
            live.state, live.received, live.online = data, received, data.get("online", True) is True
            live.deadline = _moved_deadline(data, received)
        self._send_all(live.message(self.lang))

    def _invalid(self, table: str, kind: str, invalid: list[str]) -> None:
        """A message against its schema: logged with its table and dropped; the board hears only that the
        table sent one (a game's table is not marked: its next state says how the table is)."""
        log.warning("league: table %s sent an invalid %s message, dropped: %s", table, kind, "; ".join(invalid[:5]))
        if kind == GAMES:
            return
        live = self.tables.setdefault(table, TableLive(table))
        live.invalid = invalid[0]
        self._send_all(live.message(self.lang))

    def _game(self, table: str, data: dict[str, Any]) -> None:
        assert self._store is not None
        self.received += 1
        if data.get("table") != table or data.get("venue") != self.venue:
            log.warning("league: a game on %s's topic names %s/%s; dropped", table, data.get("venue"),
                        data.get("table"))
            return
        try:
            got = self._store.ingest(data)
        except PayloadError as exc:
            log.warning("league: a games message from %s is no game: %s", table, exc)
            return
        self._acknowledge(table, got.id)
        if not got.new:
            log.info("league: game %s from %s again; kept once", got.id, table)
            return
        self.stored += 1
        if got.problem is not None:
            self.flagged += 1
            log.warning("league: game %s from %s does not score: %s", got.id, table, got.problem)
        stored = self._store.game(got.id)
        self._send_all({"type": "game", "game": _game_line(stored, self.lang) if stored else None})
        if not self._standings_due and self._loop is not None:  # one standings message for a burst of games
            self._standings_due = True
            self._loop.call_later(STANDINGS_EVERY_S, self._send_standings)
        if self.on_stored is not None:
            self.on_stored(got.id)

    def _acknowledge(self, table: str, game_id: str) -> None:
        """Tell the table that `game_id` and its latest games are stored (retained: see the module)."""
        assert self._store is not None
        ids = self._store.latest_ids(self.venue, table, ACK_IDS)
        if game_id not in ids:  # an old game sent again
            ids.append(game_id)
        payload = json.dumps({"venue": self.venue, "table": table, "ids": ids})
        self.client.publish(topic(self.venue, table, ACK), payload, qos=QOS[ACK], retain=True)

    def _send_standings(self) -> None:
        self._standings_due = False
        self._send_all({"type": "standings", "standings": self._standings()})

    def _standings(self) -> dict[str, Any]:
        assert self._store is not None
        return {"evening": self._store.standings(evening_start()), "season": self._store.standings()}

    def _snapshot(self) -> dict[str, Any]:
        assert self._store is not None
        games = [_game_line(game, self.lang) for game in self._store.games(evening_start())]
        return {"type": "hello", "venue": self.venue, "lang": self.lang, "now": self.wall(),
                "titles": {kit.id: kit.name(self.lang) for kit in registry.GAMES}, "timed": sorted(TIMED),
                "tables": [live.message(self.lang) for live in sorted(self.tables.values(), key=lambda t: t.table)],
                "games": games[-50:], "standings": self._standings()}

    def _send_all(self, data: dict[str, Any]) -> None:
        text = json.dumps({**data, "now": self.wall()}, ensure_ascii=False)
        for socket in list(self.sockets):
            if socket.closed:
                self.sockets.discard(socket)
                continue
            self._send_soon(socket, text)

    # -- HTTP ----------------------------------------------------------------------------------------

    async def _board_json(self, request: web.Request) -> web.Response:
        return web.json_response(self._snapshot(), headers=HEADERS)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=4096)
        await socket.prepare(request)
        self.sockets.add(socket)
        await socket.send_str(json.dumps(self._snapshot(), ensure_ascii=False))
        try:
            async for message in socket:  # the board sends nothing; anything else closes it
                if message.type != WSMsgType.TEXT:
                    break
        finally:
            self.sockets.discard(socket)
        return socket

    async def _record(self, request: web.Request) -> web.Response:
        assert self._store is not None
        game = self._store.game(request.match_info["id"])
        if game is None:
            raise web.HTTPNotFound()
        return web.Response(text=game["record"], content_type="application/x-ndjson", charset="utf-8",
                            headers=HEADERS)

    async def _sheet(self, request: web.Request) -> web.Response:
        assert self._store is not None
        game = self._store.game(request.match_info["id"])
        if game is None:
            raise web.HTTPNotFound()
        return web.Response(text=sheet_html(game, self._store.results(game["id"]), self.lang),
                            content_type="text/html", headers=HEADERS)


def _moved_deadline(state: dict[str, Any], received: float) -> float | None:
    timer = state.get("timer")
    if not isinstance(timer, dict) or not timer.get("running"):
        return None
    deadline, sent = timer.get("deadline"), state.get("sent_at")
    if not isinstance(deadline, (int, float)) or not isinstance(sent, (int, float)):
        return None
    return received + (float(deadline) - float(sent))


def _game_line(game: dict[str, Any], lang: str) -> dict[str, Any]:
    kit = registry.kit(game["game"])
    report = game["report"] or {}
    return {"id": game["id"], "table": game["table"], "game": game["game"],
            "title": kit.name(lang) if kit is not None else game["game"], "players": game["players"],
            "winners": report.get("winners", []), "finished": game["finished"], "problem": game["problem"],
            "complete": game["complete"]}


SHEET_TEXT = {
    "de": {"back": "Zur Tafel", "table": "Tisch", "record": "Spielprotokoll (JSONL)", "problem": "Nicht wertbar",
           "finished": "Beendet"},
    "en": {"back": "Back to the board", "table": "Table", "record": "Game record (JSONL)",
           "problem": "Does not score", "finished": "Finished"},
}


def sheet_html(game: dict[str, Any], results: dict[str, int], lang: str) -> str:
    """A finished game's sheet: its players' points (a timed game's time thought, m:ss) and the score
    table `wordtable score` prints."""
    words = SHEET_TEXT.get(lang, SHEET_TEXT["en"])
    kit = registry.kit(game["game"])
    title = kit.name(lang) if kit is not None else game["game"]
    try:
        table = registry.score(parse_record(game["record"])).text(lang)
    except Exception as exc:  # a record that does not score shows why (RecordError among others)
        table = str(exc)
    timed = game["game"] in TIMED  # milliseconds thought: shown as m:ss, the fastest first
    rows = "".join(f"<tr><td>{html.escape(player)}</td><td class=num>{minutes_seconds(points) if timed else points}"
                   "</td></tr>" for player, points in sorted(results.items(), key=lambda item: item[1] if timed
                                                             else -item[1]))
    problem = f'<p class="problem">{words["problem"]}: {html.escape(game["problem"])}</p>' if game["problem"] else ""
    gid = html.escape(game["id"])
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape(title)} · {html.escape(game["table"])}</title>
<link rel="stylesheet" href="/static/board.css"></head>
<body class="sheet"><p><a href="/">← {words["back"]}</a></p>
<h1>{html.escape(title)}</h1>
<p>{words["table"]} {html.escape(game["table"])} · {words["finished"]} {html.escape(game["finished"] or "?")}</p>
{problem}<table class="results">{rows}</table>
<pre id="score">{html.escape(table)}</pre>
<p><a href="/game/{gid}/record.jsonl">{words["record"]}</a></p>
</body></html>
"""
