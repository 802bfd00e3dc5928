"""The resident memory of the whole `wordtable run --profile sim` process, as the Pi would count it.

    python bench/bench_rss.py [--runs 3] [--root DIR] [--pi]

Starts the real service (`python -m firmware_host run`, its own state directory) and reads its
/proc/PID/status once it is ready and has settled: VmRSS idle (page and league off); with the table page
and the league on (a local Mosquitto broker); with 8 phones joined to the page (WebSocket clients in this
process); the first two also split into RssAnon (Python's objects and code, malloc's arenas) and RssFile
(libraries, fonts); and around the first build of the German word index (/usr/share/dict/ngerman, a fresh state
directory: VmHWM, the service's peak, while it builds, and VmRSS once the list is open). `--root DIR`
runs another checkout's service (the code before a change). Rows in MB, p50/p99/max over `--runs`
starts; `--pi` runs the service pinned at a Pi Zero 2 W core's share (bench/pi_speed.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pi_speed import add_pi_argument, pi_or_run, row

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GERMAN = Path("/usr/share/dict/ngerman")
PHONES = 8
STARTED: list[Service] = []  # every service started, stopped at the end whatever happened


class Service:
    """`wordtable run` in a child process, its log lines collected."""

    def __init__(self, root: Path, state: Path, config: str) -> None:
        state.mkdir(parents=True, exist_ok=True)
        path = state.parent / f"{state.name}.toml"
        path.write_text(config)
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.child = subprocess.Popen(
            [sys.executable, "-m", "firmware_host", "run", "--profile", "sim", "--config", str(path),
             "--state-dir", str(state)], cwd=root, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
            text=True)
        self.lines: list[str] = []
        self.cond = threading.Condition()
        STARTED.append(self)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.child.stderr is not None
        for line in self.child.stderr:
            with self.cond:
                self.lines.append(line.rstrip())
                self.cond.notify_all()

    def wait_for(self, pattern: str, timeout_s: float = 120) -> re.Match[str]:
        regex = re.compile(pattern)
        with self.cond:
            found: list[re.Match[str]] = []

            def seen() -> bool:
                found[:] = [m for line in self.lines if (m := regex.search(line))]
                return bool(found)

            if not self.cond.wait_for(seen, timeout_s):
                raise SystemExit(f"no {pattern!r} from the service:\n" + "\n".join(self.lines[-20:]))
            return found[0]

    def status(self, key: str) -> float:
        with open(f"/proc/{self.child.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith(f"{key}:")) / 1024

    def stop(self) -> None:
        self.child.send_signal(signal.SIGTERM)
        try:
            self.child.wait(20)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.wait()


def broker(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    from tests.helpers.ports import free_port

    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = directory / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\n" + ("user root\n" if os.geteuid() == 0 else "")
                    + "persistence false\nallow_anonymous true\n")
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    child = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return child, port


async def join_phones(url: str, code: str, phones: int, hold_s: float, measure: Any) -> None:
    import aiohttp

    sessions, sockets = [], []
    try:
        for seat in range(phones):
            session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            sessions.append(session)
            # the table's four seats, then newcomers by name (the core seats them at the next free seat)
            join = {"code": code, "seat": seat} if seat < 4 else {"code": code, "name": f"Gast{seat + 1}"}
            async with session.post(f"{url}/api/join", headers={"Origin": url}, data=json.dumps(join)) as response:
                if response.status not in (200, 202):  # 202: a newcomer waits for the seat the core gives
                    raise SystemExit(f"phone {seat} not joined: {response.status} {await response.text()}")
            sockets.append(await session.ws_connect(f"{url}/ws", headers={"Origin": url}))
        await asyncio.sleep(hold_s)
        measure()
    finally:
        for socket in sockets:
            await socket.close()
        for session in sessions:
            await session.close()


def pieces(results: dict[str, list[float]], label: str, service: Service) -> None:
    """The rows that split a VmRSS: anonymous memory (Python's objects and code, malloc's arenas) and
    mapped files (libpython, the extension modules and their libraries, fonts)."""
    for key, what in (("RssAnon", "anonymous"), ("RssFile", "files mapped")):
        results.setdefault(f"  {label}: {what} ({key})", []).append(service.status(key))


def one_run(root: Path, scratch: Path, results: dict[str, list[float]], settle_s: float) -> None:
    """One start of each kind on one state directory: the first builds the word index (the German list
    is the system's, as on the box), the others open it."""
    from tests.helpers.ports import free_port

    state = scratch / "state"
    lists = GERMAN.exists()
    build = Service(root, state, "[page]\nenabled = false\n")
    build.wait_for(r"ready in")
    if lists:
        build.wait_for(r"word list: ", 600)
        results.setdefault("peak (VmHWM) through the first word index build", []).append(build.status("VmHWM"))
        time.sleep(settle_s)
        results.setdefault("after that build (the list open)", []).append(build.status("VmRSS"))
    build.stop()

    off = Service(root, state, "[page]\nenabled = false\n")
    off.wait_for(r"ready in")
    if lists:
        off.wait_for(r"word list: ")
    time.sleep(settle_s)
    results.setdefault("idle (page and league off)", []).append(off.status("VmRSS"))
    pieces(results, "idle", off)
    off.stop()

    mqtt, port = broker(scratch / "broker")
    try:
        page_port = free_port()
        config = (f'[page]\nenabled = true\nbind = "127.0.0.1"\nport = {page_port}\n'
                  f'[league]\nbroker = "mqtt://127.0.0.1:{port}"\nvenue = "bench"\ntable = "t1"\n')
        on = Service(root, state, config)
        found = on.wait_for(r"table page at (\S+) \(code (\S+)\)")
        on.wait_for(r"ready in")
        if lists:
            on.wait_for(r"word list: ")
        time.sleep(settle_s)
        results.setdefault("with the page and the league on", []).append(on.status("VmRSS"))
        pieces(results, "page + league", on)
        code = found.group(2)
        url = f"http://127.0.0.1:{page_port}"

        def measured() -> None:
            results.setdefault(f"with page, league and {PHONES} phones", []).append(on.status("VmRSS"))

        asyncio.run(join_phones(url, code, PHONES, settle_s, measured))
        on.stop()
    finally:
        mqtt.terminate()
        mqtt.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--settle", type=float, default=2.0, help="seconds to wait before reading")
    add_pi_argument(parser)
    args = parser.parse_args()

    def bench() -> None:
        results: dict[str, list[float]] = {}
        try:
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="wordtable-rss-", ignore_cleanup_errors=True) as scratch:
                    one_run(args.root, Path(scratch), results, args.settle)
        finally:
            for service in STARTED:
                if service.child.poll() is None:
                    service.stop()
        print(f"RSS of `wordtable run --profile sim` (children on {args.root}), {args.runs} starts:")
        for label, values in results.items():
            row(label, values, "MB")

    pi_or_run(args, bench)


if __name__ == "__main__":
    main()
