"""The table page under load, on loopback: the real appliance (sim profile, mock pins) with its page server,
six phones as WebSocket clients (aiohttp), each joined to a seat.

Prints:
- box event → all 6 pages updated: a NEXT press (the timer's length changes) put on the shell's queue until
  the sixth page has its new view; p50/p99/max over N presses (target p99 ≤ 50 ms);
- phone entry → OLED frame: an entry sent on a page's WebSocket until the display has a new frame (the box
  refuses it outside a game, naming the seat: each alternate seat changes the OLED); target p99 ≤ 30 ms;
- idle CPU of the whole process (appliance, page server and the six idle clients) over 10 s, in % of a core
  (target ≤ 1 %);
- RSS added by the page: before the page module is imported vs. with six pages connected (the clients'
  own memory included, so it is an upper bound; target ≤ 20 MB).

    python bench/bench_page.py [--events 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_host.appliance import open_appliance
from firmware_host.config import PageConfig, resolve
from firmware_host.core.events import Button, Press

PAGES = 6


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def line(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{name}: n={len(ms)} p50={statistics.median(ms):.2f} ms p99={p99:.2f} ms max={ms[-1]:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-page-"))
    config = scratch / "config.toml"
    config.write_text('[scoreboard]\nplayers = ["A", "B", "C", "D", "E", "F"]\n')
    resolved = resolve("sim", config, environ={})
    resolved = type(resolved)(resolved.profile, type(resolved.config)(
        **{**{f: getattr(resolved.config, f) for f in resolved.config.__dataclass_fields__},
           "page": PageConfig(True, 0, "127.0.0.1")}))
    frames: list[float] = []
    holder: dict[str, Any] = {}
    ready = threading.Event()
    rss: dict[str, float] = {}

    def hook(outputs: Any) -> Any:
        from dataclasses import replace

        def on_frame(screen: Any, image: Any) -> None:
            frames.append(time.perf_counter())

        return replace(outputs, on_frame=on_frame)

    def serve() -> None:
        appliance = open_appliance(resolved, scratch / "state", outputs_hook=hook, power_off=lambda: None)
        rss["before"] = rss_mb()  # the appliance running, the page not yet imported
        from firmware_host.page.attach import serve_page

        holder["appliance"], holder["page"] = appliance, serve_page(appliance, resolved, scratch / "state")
        ready.set()
        try:
            appliance.shell.run()
        finally:
            holder["page"].close()
            appliance.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(30)
    shell, page = holder["appliance"].shell, holder["page"]
    url = page.address
    import aiohttp

    async def phones() -> None:
        sessions, sockets = [], []
        arrivals: list[list[float]] = [[] for _ in range(PAGES)]
        for seat in range(PAGES):
            session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            async with session.post(f"{url}/api/join", headers={"Origin": url},
                                    data=json.dumps({"code": page.code, "seat": seat})) as response:
                assert response.status == 200, await response.text()
            sockets.append(await session.ws_connect(f"{url}/ws", headers={"Origin": url}))
            sessions.append(session)

        async def listen(seat: int) -> None:
            async for message in sockets[seat]:
                if json.loads(message.data)["type"] == "view":
                    arrivals[seat].append(time.perf_counter())

        listeners = [asyncio.create_task(listen(seat)) for seat in range(PAGES)]
        await asyncio.sleep(0.5)
        print(f"RSS: {rss['before']:.1f} MB with the appliance before the page, {rss_mb():.1f} MB with {PAGES} "
              f"pages connected (+{rss_mb() - rss['before']:.1f} MB, the clients' sessions included)")
        updates = []
        for _ in range(args.events):
            counts = [len(a) for a in arrivals]
            sent = time.perf_counter()
            shell.put(Press(Button.NEXT, time.monotonic()))
            while any(len(a) == c for a, c in zip(arrivals, counts, strict=True)):
                await asyncio.sleep(0.0005)
                if time.perf_counter() - sent > 2:
                    raise SystemExit("a page got no update within 2 s")
            updates.append(max(a[c] for a, c in zip(arrivals, counts, strict=True)) - sent)
            await asyncio.sleep(0.01)
        print(line(f"box event → all {PAGES} pages updated", updates))
        entries = []
        for i in range(args.events):
            page.rates.buckets.clear()  # the rate limit is not what is measured here
            before = len(frames)
            sent = time.perf_counter()
            await sockets[i % 2].send_str(json.dumps({"type": "entry", "seat": i % 2, "text": "WORT"}))
            while len(frames) == before:
                await asyncio.sleep(0.0005)
                if time.perf_counter() - sent > 2:
                    raise SystemExit("no OLED frame within 2 s")
            entries.append(frames[before] - sent)
            await asyncio.sleep(0.01)
        print(line("phone entry → OLED frame", entries))
        await asyncio.sleep(1.0)
        usage0, wall0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        await asyncio.sleep(10.0)
        usage1, wall1 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        cpu = (usage1.ru_utime + usage1.ru_stime) - (usage0.ru_utime + usage0.ru_stime)
        print(f"idle CPU with {PAGES} idle pages: {100 * cpu / (wall1 - wall0):.2f} % of a core "
              f"(whole process, clients included)")
        for task in listeners:
            task.cancel()
        for ws, session in zip(sockets, sessions, strict=True):
            await ws.close()
            await session.close()

    asyncio.run(phones())
    shell.stop()
    thread.join(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
