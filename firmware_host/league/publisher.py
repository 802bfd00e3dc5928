"""The box's league publisher (docs/league.md): the shell side's MQTT client. Nothing here decides game
logic; it sends what the core's `league_view` and the journal's outbox hold.

Threads: paho's network loop (`loop_start`) and one worker of ours. The shell only hands over its state
(`state_changed`) and says a game was queued (`wake`): both put an item on a queue and return — a broker
that is down, slow or unreachable never blocks the timer or the loop. The worker computes the view,
publishes the retained state (QoS 0) when it changed (and only while connected: a stale state is never
queued), and sends every game in the outbox with QoS 1 until the league acknowledges it: the league
publishes the ids of the table's games it has stored, retained, on the table's ack topic, which the box
subscribes to on every connect. Only then does a game leave the outbox. A PUBACK is no delivery: "no
matching subscribers" means no league will get it, so it is sent again with a backoff (`outbox.Resends`);
a PUBACK that reached a subscriber's queue waits longer; every (re)connect sends all that wait. The
league keeps a game once by its id, so a repeat is harmless.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.config import LeagueConfig
from firmware_host.core import app
from firmware_host.core.league_view import league_view
from firmware_host.league.outbox import SETTLE_S, Outbox, Resends
from firmware_host.league.topics import ACK, GAMES, MAX_PAYLOAD, QOS, STATE, STATUS, parse_broker, topic

log = logging.getLogger("wordtable.league")

RECONNECT_S = (1, 30)  # paho's reconnect delay: first try after 1 s, doubling up to 30 s
KEEPALIVE_S = 30  # the broker sends the Last Will ~1.5 keep-alives after a box went silent
NO_SUBSCRIBERS = 0x10  # MQTT 5's PUBACK "No matching subscribers": the broker dropped the message


def make_client(client_id: str, config: LeagueConfig, *, will: tuple[str, str] | None = None,
                clean_start: bool = True) -> tuple[mqtt.Client, str, int]:
    """A paho client (MQTT 5) set up from `config`: credentials, TLS for mqtts://, Last Will. Returns it
    with the host and port to connect to."""
    assert config.broker is not None
    broker = parse_broker(config.broker)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    username = config.username or broker.username
    if username is not None:
        client.username_pw_set(username, config.password or broker.password)
    if broker.tls:
        client.tls_set(ca_certs=None if config.ca_file is None else str(config.ca_file))
    if will is not None:
        client.will_set(will[0], will[1], qos=QOS[STATUS], retain=True)
    return client, broker.host, broker.port


def state_message(view: dict[str, Any], seq: int, wall_now: float, now: float) -> dict[str, Any]:
    """The state topic's payload less venue and table: `league_view` with the running timer's monotonic
    deadline as wall time (Unix seconds) for other machines, the send time and a sequence number."""
    timer = dict(view["timer"])
    if timer["deadline"] is not None:
        timer["deadline"] = round(wall_now + timer["deadline"] - now, 3)
    return {**view, "timer": timer, "online": True, "seq": seq, "sent_at": round(wall_now, 3)}


class Publisher:
    def __init__(self, config: LeagueConfig, journal: Path | None, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, reconnect: tuple[int, int] | None = None,
                 keepalive: int = KEEPALIVE_S, resends: Resends | None = None,
                 timer: Callable[[], float] = time.monotonic) -> None:
        """`clock` is the shell's (the view's deadlines are on it); `timer` times the resends in real
        seconds, as the worker waits for them (a simulator's clock is virtual)."""
        self.config = config
        self._journal = journal
        self._clock, self._wall, self._timer = clock, wall, timer
        self._keepalive = keepalive
        self._topics = {kind: topic(config.venue, config.table, kind) for kind in (STATE, STATUS, GAMES, ACK)}
        offline = json.dumps({"venue": config.venue, "table": config.table, "online": False})
        self._client, self._host, self._port = make_client(
            f"wordtable-{config.venue}-{config.table}", config, will=(self._topics[STATUS], offline))
        low, high = reconnect or RECONNECT_S
        self._client.reconnect_delay_set(low, high)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._items: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._worker = threading.Thread(target=self._work, name="league-publisher", daemon=True)
        self._connected = False
        self._state: app.AppState | None = None
        self._view: dict[str, Any] | None = None  # the last view published (its monotonic deadline)
        self._waiting: dict[str, dict[str, Any]] = {}  # the outbox as last read: league id -> payload
        self._resends = resends or Resends()
        self._in_flight: dict[int, str] = {}  # paho's message id -> league game id, until its PUBACK
        self._seq = 0
        self.published = 0  # messages handed to paho (for tests and the bench)
        self.sent = 0  # games handed to paho, repeats included
        self.acknowledged = 0  # games the league acknowledged (and that left the outbox)

    # -- the shell's side: never blocks --------------------------------------------------------------

    def start(self) -> None:
        self._worker.start()
        self._client.connect_async(self._host, self._port, keepalive=self._keepalive)
        self._client.loop_start()

    def state_changed(self, state: app.AppState) -> None:
        self._items.put(("state", state))

    def wake(self) -> None:
        """A game was queued in the outbox."""
        self._items.put(("outbox", None))

    def close(self, timeout: float = 2.0) -> None:
        """Say offline (a clean disconnect sends no Last Will), stop both threads."""
        self._items.put(("stop", None))
        self._worker.join(timeout)
        self._client.loop_stop()

    # -- paho's thread: only hands over ----------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("league broker %s:%d refused the connection: %s", self._host, self._port, reason)
            return
        client.subscribe(self._topics[ACK], qos=QOS[ACK])  # its retained message comes with the SUBACK
        self._items.put(("connected", None))

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self._items.put(("disconnected", reason))

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._items.put(("puback", (mid, reason)))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._topics[ACK]:
            self._items.put(("ack", bytes(message.payload)))

    # -- the worker ----------------------------------------------------------------------------------

    def _work(self) -> None:
        outbox = Outbox(self._journal) if self._journal is not None else None
        try:
            while True:
                try:
                    kind, value = self._items.get(timeout=self._wait_s())
                except queue.Empty:
                    kind, value = "due", None
                stop = self._take(kind, value, outbox)
                while not stop:  # everything waiting, then one state message for all of it
                    try:
                        kind, value = self._items.get_nowait()
                    except queue.Empty:
                        break
                    stop = self._take(kind, value, outbox)
                if stop:
                    break
                self._send_due()
                self._publish_state(force=False)
        except Exception:  # the league must never take the table down
            log.exception("the league publisher stopped")
        finally:
            if outbox is not None:
                outbox.close()

    def _wait_s(self) -> float | None:
        """How long the worker may sleep: until the next game is due, for ever with none (or offline)."""
        at = self._resends.next_at() if self._connected else None
        return None if at is None else max(0.0, at - self._timer())

    def _take(self, kind: str, value: Any, outbox: Outbox | None) -> bool:
        if kind == "state":
            self._state = value
        elif kind == "connected":
            self._connected = True
            log.info("league: connected to %s:%d", self._host, self._port)
            self._send(STATUS, {"online": True}, retain=True)
            self._publish_state(force=True)
            self._in_flight.clear()
            self._read_outbox(outbox)
            self._resends.reset(list(self._waiting), self._timer() + SETTLE_S)
        elif kind == "disconnected":
            if self._connected:
                log.warning("league: disconnected (%s); the outbox keeps the games", value)
            self._connected = False
        elif kind == "outbox":
            self._resends.add(self._read_outbox(outbox), self._timer())
        elif kind == "puback":
            self._puback(*value)
        elif kind == "ack":
            self._league_has(value, outbox)
        elif kind == "stop":
            if self._connected:
                self._send(STATUS, {"online": False}, retain=True)
            self._client.disconnect()
            return True
        return False

    def _send(self, kind: str, data: dict[str, Any], *, retain: bool = False) -> mqtt.MQTTMessageInfo:
        payload = {"venue": self.config.venue, "table": self.config.table, **data}
        self.published += 1
        return self._client.publish(self._topics[kind], json.dumps(payload, ensure_ascii=False), qos=QOS[kind],
                                    retain=retain)

    def _publish_state(self, *, force: bool) -> None:
        if self._state is None or not self._connected:
            return
        view = league_view(self._state)
        if view == self._view and not force:
            return
        self._view = view
        self._seq += 1
        self._send(STATE, state_message(view, self._seq, self._wall(), self._clock()), retain=True)

    def _read_outbox(self, outbox: Outbox | None) -> list[str]:
        """The outbox read again; returns the ids new since the last read."""
        if outbox is None:
            return []
        before = self._waiting
        self._waiting = dict(outbox.pending())
        return [game_id for game_id in self._waiting if game_id not in before]

    def _send_due(self) -> None:
        if not self._connected:
            return
        now = self._timer()
        for game_id in self._resends.due(now):
            payload = self._waiting.get(game_id)
            if payload is None:
                self._resends.done(game_id)
                continue
            message = {**payload, "sent_at": round(self._wall(), 3)}
            if len(json.dumps(message, ensure_ascii=False).encode()) > MAX_PAYLOAD:
                log.error("league: game %s is larger than %d bytes; it stays in the outbox, unsent", game_id,
                          MAX_PAYLOAD)
                self._resends.done(game_id)
                continue
            info = self._send(GAMES, message)
            self.sent += 1
            self._in_flight[info.mid] = game_id
            self._resends.sent(game_id, now)

    def _puback(self, mid: int, reason: Any) -> None:
        game_id = self._in_flight.pop(mid, None)
        if game_id is None:
            return
        if getattr(reason, "is_failure", False):  # e.g. the ACL forbids the topic: tried again later
            log.error("league: the broker refused game %s (%s); it stays in the outbox", game_id, reason)
        elif getattr(reason, "value", 0) == NO_SUBSCRIBERS:
            log.info("league: no league is subscribed yet for game %s; it is sent again", game_id)
        else:
            self._resends.queued(game_id, self._timer())

    def _league_has(self, payload: bytes, outbox: Outbox | None) -> None:
        """The league's ack: every game of ours it names has been stored and leaves the outbox."""
        ids = ack_ids(payload)
        for game_id in [game_id for game_id in self._waiting if game_id in ids]:
            del self._waiting[game_id]
            self._resends.done(game_id)
            if outbox is not None and outbox.delivered(game_id):
                self.acknowledged += 1
                log.info("league: game %s stored by the league", game_id)


def ack_ids(payload: bytes) -> set[str]:
    """The game ids an ack message names (docs/league-ack.schema.json); none for anything else."""
    try:
        data = json.loads(payload)
    except ValueError:
        return set()
    ids = data.get("ids") if isinstance(data, dict) else None
    return {game_id for game_id in ids if isinstance(game_id, str)} if isinstance(ids, list) else set()
