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
  its own) published as fast as a client can with QoS 1 until the league has stored and re-scored all;
- the board in headless Chromium (Debian's, through Playwright): its main thread's busy share (CDP
  Performance metrics: TaskDuration over wall time, for 15 s) at 10, 200 and 1000 tables, each table's
  state changing every 5 s on average (a third with a running sand timer), fed the league's own table
  messages by a WebSocket of this process, on the full board at 1920×1080 and in the TV mode; and the
  time until every card is drawn (target ≤ 20 % busy at 1000 tables).

    python bench/bench_league.py [--tables 50] [--events 500] [--rate 50] [--games 2000]
                                 [--board 10,200,1000] [--board-only]
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
from aiohttp import web  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from firmware_host.config import LeagueConfig  # noqa: E402
from firmware_host.core import app  # noqa: E402
from firmware_host.core.events import Button, Press  # noqa: E402
from firmware_host.core.settings import Settings  # noqa: E402
from firmware_host.league.publisher import Publisher  # noqa: E402
from firmware_host.league.service import HEADERS, STATIC, TableLive  # noqa: E402
from firmware_host.web import file_routes  # noqa: E402
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
        payload = {"venue": VENUE, "table": f"t{n % 50 + 1}", "id": f"{n:08x}-0000-4000-8000-000000000000",
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


BOARD_CHANGE_S = 5.0  # each table's state changes this often on average
BOARD_MEASURE_S = 15.0


def board_live(n: int, change: int, now: float) -> dict[str, Any]:
    """Table n's message after its `change`-th state change (the league's `TableLive.message`)."""
    running = n % 3 == 0
    state = {"venue": VENUE, "table": str(n), "online": True, "mode": "game", "game": GAMES[n % len(GAMES)],
             "players": [{"name": f"Person {n}-{k}", "total": change * (k + 1)} for k in range(4)],
             "timer": {"running": running, "alarmed": False, "duration": 60,
                       "deadline": now + 60 if running else None, "left": None if running else 60},
             "seq": change + 1, "sent_at": now}
    live = TableLive(str(n), True, state, now + 60 if running else None, now)
    return live.message("de")


class BoardFeed:
    """The board's files and a WebSocket that says hello with `tables` tables, then changes a random one
    `tables / BOARD_CHANGE_S` times a second (in bursts every 20 ms), in a thread of its own."""

    def __init__(self, tables: int) -> None:
        self.tables, self.port = tables, free_port()
        self.sent = 0
        self._ready = threading.Event()
        threading.Thread(target=lambda: asyncio.run(self._serve()), daemon=True).start()
        self._ready.wait(10)

    async def _serve(self) -> None:
        app = web.Application()
        file_routes(app, STATIC, HEADERS)
        app.router.add_get("/ws", self._socket)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", self.port).start()
        self._ready.set()
        await asyncio.Event().wait()

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        now = time.time()
        changes = [0] * (self.tables + 1)
        await socket.send_str(json.dumps({
            "type": "hello", "venue": VENUE, "lang": "de", "now": now, "titles": {}, "timed": ["zugzeit"],
            "tables": [board_live(n, 0, now) for n in range(1, self.tables + 1)], "games": [],
            "standings": {"evening": {}, "season": {}}}))
        pick = random.Random(7)
        owed = 0.0
        while not socket.closed:
            await asyncio.sleep(0.02)
            owed += 0.02 * self.tables / BOARD_CHANGE_S
            while owed >= 1:
                owed -= 1
                n = pick.randrange(1, self.tables + 1)
                changes[n] += 1
                try:
                    await socket.send_str(json.dumps({**board_live(n, changes[n], time.time()), "now": time.time()}))
                except ConnectionError:  # the page was closed
                    return socket
                self.sent += 1
        return socket


def board_busy(browser: Any, tables: int, tv: bool) -> tuple[float, float, float]:
    """(main-thread busy share, table messages per second, seconds until every card is drawn)."""
    feed = BoardFeed(tables)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
    page = context.new_page()
    started = time.perf_counter()
    page.goto(f"http://127.0.0.1:{feed.port}/{'?tv=1' if tv else ''}")
    page.wait_for_function(f"document.querySelectorAll('#tables article').length >= {tables}", timeout=120_000)
    drawn = time.perf_counter() - started
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    time.sleep(2)  # past the first burst

    def task() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))

    busy0, sent0, wall0 = task(), feed.sent, time.perf_counter()
    time.sleep(BOARD_MEASURE_S)
    busy1, sent1, wall1 = task(), feed.sent, time.perf_counter()
    context.close()
    return (busy1 - busy0) / (wall1 - wall0), (sent1 - sent0) / (wall1 - wall0), drawn


def board_figures(counts: list[int]) -> None:
    from playwright.sync_api import sync_playwright

    from tests.helpers.browser import launch

    with sync_playwright() as driver:
        browser = launch(driver)
        for tables in counts:
            for tv in (False, True):
                busy, rate, drawn = board_busy(browser, tables, tv)
                print(f"board main thread ({tables} tables, {rate:.0f} table messages/s, "
                      f"{'TV mode' if tv else 'full board'}, 1920x1080): {busy * 100:.1f} % busy; "
                      f"every card drawn {drawn:.2f} s after loading")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--rate", type=float, default=50.0, help="events per second across all tables")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--board", default="10,200,1000", help="table counts for the board's busy share")
    parser.add_argument("--board-only", action="store_true", help="only the board's busy share")
    args = parser.parse_args()
    board_figures([int(count) for count in args.board.split(",")])
    if args.board_only:
        return
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
