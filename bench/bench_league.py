"""The league on loopback: a real Mosquitto, `wordtable league` in its own process, and 50 tables publishing
through the box's own league client (`firmware_host.league.publisher.Publisher`, each fed the states of the
pure app as the shell would hand them over).

Prints:
- box event → live board: a NEXT press on a random table (its timer's length changes) from the moment the
  shell would hand the new state to the publisher until the board's WebSocket (a client in this process)
  has that table's new state; p50/p99/max over N events at ~R events/s across the 50 tables
  (target p99 ≤ 100 ms);
- the box's client idle: a separate process runs the real appliance (sim profile) with `[league]` set,
  connected and idle, and reports the CPU of the whole process over 10 s and the RSS the league client
  added (RSS of the appliance without it vs. with it connected), and how much of that is Python's `ssl`
  module (paho imports it; the table page, on by default on the Pi, has it loaded already); targets
  ≤ 0.2 % of a core, ≤ 5 MB (the CPU is the whole appliance's idle CPU: an upper bound of the client's);
- league ingest: M finished games (the documented example records of the four games, each with an id of
  its own) published as fast as a client can with QoS 1 until the league has stored and re-scored all.

    python bench/bench_league.py [--tables 50] [--events 500] [--rate 50] [--games 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from firmware_host.config import LeagueConfig  # noqa: E402
from firmware_host.core import app  # noqa: E402
from firmware_host.core.events import Button, Press  # noqa: E402
from firmware_host.core.settings import Settings  # noqa: E402
from firmware_host.league.publisher import Publisher  # noqa: E402
from tests.helpers.broker import Broker  # noqa: E402
from tests.helpers.ports import free_port  # noqa: E402

VENUE = "bench"
GAMES = ("perfektes-wort", "quiddler", "perfect-words", "knack-das-wort")


def line(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{name}: n={len(ms)} p50={statistics.median(ms):.2f} ms p99={p99:.2f} ms max={ms[-1]:.2f} ms"


class BoardWatcher:
    """A board client: the time each (table, timer duration) was first seen on the WebSocket."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: dict[tuple[str, float], float] = {}
        self.ready = threading.Event()
        self.lock = threading.Lock()
        threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True).start()

    async def _run(self) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.url) as socket:
            async for message in socket:
                now = time.perf_counter()
                data = json.loads(message.data)
                tables = data.get("tables", []) if data["type"] == "hello" else [data]
                with self.lock:
                    for live in tables:
                        state = live.get("state") or {}
                        timer = state.get("timer") or {}
                        if "duration" in timer:
                            self.seen.setdefault((live["table"], timer["duration"]), now)
                self.ready.set()


def start_league(broker: Broker, db: Path, port: int) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "league", "--broker", broker.url, "--venue", VENUE,
         "--db", str(db), "--bind", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    ready = process.stdout.readline()
    if "board at" not in ready:
        raise RuntimeError(f"the league did not start: {ready!r}")
    return process


def latency(broker: Broker, board: str, tables: int, events: int, rate: float) -> list[float]:
    publishers = []
    states = []
    for n in range(tables):
        config = LeagueConfig(broker.url, VENUE, f"t{n + 1}", None, None, None)
        publisher = Publisher(config, None)
        state = app.initial(Settings())[0]
        publisher.state_changed(state)
        publisher.start()
        publishers.append(publisher)
        states.append(state)
    watcher = BoardWatcher(board.replace("http", "ws") + "ws")
    watcher.ready.wait(10)
    end = time.monotonic() + 20
    while time.monotonic() < end:  # every table's first state on the board
        with watcher.lock:
            if len({table for table, _ in watcher.seen}) >= tables:
                break
        time.sleep(0.05)
    samples = []
    pick = random.Random(21)
    for _ in range(events):
        n = pick.randrange(tables)
        state, _effects = app.step(states[n], Press(Button.NEXT, time.monotonic()))
        states[n] = state
        key = (f"t{n + 1}", state.timer.countdown.duration)
        with watcher.lock:
            watcher.seen.pop(key, None)
        sent = time.perf_counter()
        publishers[n].state_changed(state)  # what the shell's on_state does after the step
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with watcher.lock:
                got = watcher.seen.get(key)
            if got is not None:
                samples.append(got - sent)
                break
            time.sleep(0.0005)
        time.sleep(max(0.0, 1 / rate - (time.perf_counter() - sent)))
    for publisher in publishers:
        publisher.close()
    return samples


IDLE_CHILD = r"""
import json, resource, sys, tempfile, time
from pathlib import Path
def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
from firmware_host.config import resolve
from firmware_host.simulator import Simulator
from firmware_host.core.events import Tick
import firmware_host.core.league_view
state = Path(tempfile.mkdtemp())
plain = Simulator(resolve("sim", None, environ={}), state / "plain")
plain.close()
before = rss()
import ssl  # paho imports it; the table page's aiohttp (on by default on the Pi) has it loaded already
with_ssl = rss()
config = state / "c.toml"
config.write_text('[league]\nbroker = "%s"\nvenue = "bench"\ntable = "idle"\n')
sim = Simulator(resolve("sim", config, environ={}), state / "box")
time.sleep(3)
connected = sim.appliance.league.published > 0
after = rss()
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu0, wall0 = usage.ru_utime + usage.ru_stime, time.monotonic()
time.sleep(10)
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu = (usage.ru_utime + usage.ru_stime - cpu0) / (time.monotonic() - wall0)
print(json.dumps({"connected": connected, "rss_added_mb": after - before, "ssl_mb": with_ssl - before,
                  "cpu_percent": cpu * 100}))
sim.close()
"""


def idle(broker: Broker) -> dict[str, Any]:
    result = subprocess.run([sys.executable, "-c", IDLE_CHILD % broker.url], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=True)
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def ingest(broker: Broker, db: Path, games: int) -> tuple[float, int]:
    records = {game: (ROOT / "docs" / "examples" / f"{game}.jsonl").read_text(encoding="utf-8") for game in GAMES}
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.max_inflight_messages_set(100)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    store = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    before = store.execute("SELECT count(*) FROM games").fetchone()[0]
    started = time.perf_counter()
    for n in range(games):
        game = GAMES[n % len(GAMES)]
        payload = {"venue": VENUE, "table": f"t{n % 50 + 1}", "id": f"bench-{n:06d}-0000-0000-0000-000000000000"[:36],
                   "game": game, "players": [], "started": "", "finished": "", "winner": None,
                   "record": records[game]}
        client.publish(f"wordtable/{VENUE}/t{n % 50 + 1}/games", json.dumps(payload), qos=1)
    deadline = time.monotonic() + 300
    count = before
    while time.monotonic() < deadline:
        count = store.execute("SELECT count(*) FROM games").fetchone()[0]
        if count - before >= games:
            break
        time.sleep(0.02)
    elapsed = time.perf_counter() - started
    client.disconnect()
    client.loop_stop()
    return elapsed, count - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--rate", type=float, default=50.0, help="events per second across all tables")
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="bench-league-"))
    broker = Broker(directory / "broker").start()
    db = directory / "league.sqlite"
    port = free_port()
    league = start_league(broker, db, port)
    try:
        board = f"http://127.0.0.1:{port}/"
        samples = latency(broker, board, args.tables, args.events, args.rate)
        print(line(f"box event -> live board ({args.tables} tables, {args.rate:.0f} events/s)", samples))
        lost = args.events - len(samples)
        if lost:
            print(f"  {lost} events not seen on the board within 5 s")
        figures = idle(broker)
        print(f"box's league client idle: CPU {figures['cpu_percent']:.3f} % of a core (the whole appliance, "
              f"over 10 s), RSS added {figures['rss_added_mb']:.2f} MB (connected: {figures['connected']}); "
              f"{figures['ssl_mb']:.2f} MB of it is Python's ssl module, which the table page (on by default on "
              f"the Pi) loads anyway: {figures['rss_added_mb'] - figures['ssl_mb']:.2f} MB beside it")
        elapsed, stored = ingest(broker, db, args.games)
        print(f"league ingest: {stored} games stored and re-scored in {elapsed:.2f} s = {stored / elapsed:.0f} games/s")
    finally:
        league.terminate()
        try:
            league.wait(20)
        except subprocess.TimeoutExpired:
            league.kill()
        broker.stop()


if __name__ == "__main__":
    main()
