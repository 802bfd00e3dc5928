"""The box's league publisher (docs/league.md): the shell side's MQTT client. Nothing here decides game
logic; it sends what the core's `league_view` and the journal's outbox hold.

Threads: paho's network loop (`loop_start`) and one worker of ours. The shell only hands over its state
(`state_changed`) and says a game was queued (`wake`): both put an item on a queue and return — a broker
that is down, slow or unreachable never blocks the timer or the loop. The worker computes the view,
publishes the retained state when it changed (and only while connected: a stale state is never queued),
sends every game in the outbox with QoS 1 and deletes it when its PUBACK arrives. paho keeps a QoS 1
message it has not had acknowledged and sends it again after a reconnect; a restart sends the outbox
again from the journal. The league keeps a game once by its id, so a repeat is harmless.
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
from firmware_host.league.outbox import Outbox
from firmware_host.league.topics import GAMES, STATE, STATUS, parse_broker, topic

log = logging.getLogger("wordtable.league")

RECONNECT_S = (1, 30)  # paho's reconnect delay: first try after 1 s, doubling up to 30 s
KEEPALIVE_S = 30  # the broker sends the Last Will ~1.5 keep-alives after a box went silent


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
        client.will_set(will[0], will[1], qos=1, retain=True)
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
                 keepalive: int = KEEPALIVE_S) -> None:
        self.config = config
        self._journal = journal
        self._clock, self._wall = clock, wall
        self._keepalive = keepalive
        self._topics = {kind: topic(config.venue, config.table, kind) for kind in (STATE, STATUS, GAMES)}
        offline = json.dumps({"venue": config.venue, "table": config.table, "online": False})
        self._client, self._host, self._port = make_client(
            f"wordtable-{config.venue}-{config.table}", config, will=(self._topics[STATUS], offline))
        low, high = reconnect or RECONNECT_S
        self._client.reconnect_delay_set(low, high)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._items: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._worker = threading.Thread(target=self._work, name="league-publisher", daemon=True)
        self._connected = False
        self._state: app.AppState | None = None
        self._view: dict[str, Any] | None = None  # the last view published (its monotonic deadline)
        self._in_flight: dict[int, str] = {}  # paho's message id -> league game id
        self._sent: set[str] = set()  # handed to paho in this process (it retries them itself)
        self._seq = 0
        self.published = 0  # messages handed to paho (for tests and the bench)
        self.acknowledged = 0  # games the broker acknowledged

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
        self._items.put(("connected", None))

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self._items.put(("disconnected", reason))

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._items.put(("acked", (mid, reason)))

    # -- the worker ----------------------------------------------------------------------------------

    def _work(self) -> None:
        outbox = Outbox(self._journal) if self._journal is not None else None
        try:
            while True:
                kind, value = self._items.get()
                stop = self._take(kind, value, outbox)
                while not stop:  # everything waiting, then one state message for all of it
                    try:
                        kind, value = self._items.get_nowait()
                    except queue.Empty:
                        break
                    stop = self._take(kind, value, outbox)
                if stop:
                    break
                self._publish_state(force=False)
        except Exception:  # the league must never take the table down
            log.exception("the league publisher stopped")
        finally:
            if outbox is not None:
                outbox.close()

    def _take(self, kind: str, value: Any, outbox: Outbox | None) -> bool:
        if kind == "state":
            self._state = value
        elif kind == "connected":
            self._connected = True
            log.info("league: connected to %s:%d", self._host, self._port)
            self._send(STATUS, {"online": True}, retain=True)
            self._publish_state(force=True)
            self._send_outbox(outbox)
        elif kind == "disconnected":
            if self._connected:
                log.warning("league: disconnected (%s); the outbox keeps the games", value)
            self._connected = False
        elif kind == "outbox":
            self._send_outbox(outbox)
        elif kind == "acked":
            mid, reason = value
            self._acked(mid, reason, outbox)
        elif kind == "stop":
            if self._connected:
                self._send(STATUS, {"online": False}, retain=True)
            self._client.disconnect()
            return True
        return False

    def _send(self, kind: str, data: dict[str, Any], *, retain: bool = False) -> mqtt.MQTTMessageInfo:
        payload = {"venue": self.config.venue, "table": self.config.table, **data}
        self.published += 1
        return self._client.publish(self._topics[kind], json.dumps(payload, ensure_ascii=False), qos=1, retain=retain)

    def _publish_state(self, *, force: bool) -> None:
        if self._state is None or not self._connected:
            return
        view = league_view(self._state)
        if view == self._view and not force:
            return
        self._view = view
        self._seq += 1
        self._send(STATE, state_message(view, self._seq, self._wall(), self._clock()), retain=True)

    def _send_outbox(self, outbox: Outbox | None) -> None:
        if outbox is None:
            return
        for game_id, payload in outbox.pending():
            if game_id in self._sent:
                continue
            info = self._send(GAMES, payload)
            self._sent.add(game_id)
            self._in_flight[info.mid] = game_id

    def _acked(self, mid: int, reason: Any, outbox: Outbox | None) -> None:
        game_id = self._in_flight.pop(mid, None)
        if game_id is None or outbox is None:
            return
        if getattr(reason, "is_failure", False):  # e.g. the ACL forbids the topic: kept for a later start
            log.error("league: the broker refused game %s (%s); it stays in the outbox", game_id, reason)
            return
        outbox.acknowledged(game_id)
        self.acknowledged += 1
        log.info("league: game %s acknowledged", game_id)
