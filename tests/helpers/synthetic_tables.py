"""Many synthetic tables for the league's load tests, in a child process of their own (a thousand sockets
in the test's process would put paho's select() past its 1024 descriptors): each table its own MQTT
client with its own credentials, all in one thread (paho's loop driven by a selector), each publishing a
retained QoS 0 state every `STATE_EVERY_S`, as a box does.

    python -m tests.helpers.synthetic_tables PORT PASSWORDS.json   # {table: password}; SIGTERM stops it
"""

from __future__ import annotations

import heapq
import json
import random
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

STATE_EVERY_S = 10.0
ROOT = Path(__file__).resolve().parents[2]


class SyntheticTables:
    """`SYNTHETIC` tables, each its own MQTT client with its own credentials, in one thread (paho's loop
    driven by a selector): each publishes a retained QoS 0 state every `STATE_EVERY_S`, as a box does."""

    def __init__(self, port: int, passwords: dict[str, str]) -> None:
        self.clients: dict[str, mqtt.Client] = {}
        self.published = 0
        self._stop = threading.Event()
        self._selector = selectors.DefaultSelector()
        for table, password in passwords.items():
            client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"wordtable-cafe-{table}",
                                 protocol=mqtt.MQTTv5)
            client.username_pw_set(f"cafe.{table}", password)
            client.connect("127.0.0.1", port, keepalive=60)
            self._selector.register(client.socket(), selectors.EVENT_READ, client)
            self.clients[table] = client
        self._thread = threading.Thread(target=self._run, name="synthetic-tables", daemon=True)
        self._thread.start()

    def _state(self, table: str, seq: int) -> str:
        return json.dumps({"venue": "cafe", "table": table, "online": True, "mode": "timer", "game": None,
                           "players": [], "timer": {"running": False, "alarmed": False, "duration": 60,
                                                    "deadline": None, "left": 60},
                           "seq": seq, "sent_at": round(time.time(), 3)})

    def _run(self) -> None:
        start = time.monotonic()
        due = sorted((start + random.uniform(0, STATE_EVERY_S), table) for table in self.clients)
        seq = dict.fromkeys(self.clients, 0)
        last_misc = start
        while not self._stop.is_set():
            wait = min(0.5, max(0.0, due[0][0] - time.monotonic()))
            for key, _ in self._selector.select(wait):
                key.data.loop_read()
            now = time.monotonic()
            while due[0][0] <= now:
                at, table = heapq.heappop(due)
                client = self.clients[table]
                seq[table] += 1
                client.publish(f"wordtable/cafe/{table}/state", self._state(table, seq[table]), qos=0, retain=True)
                if client.want_write():
                    client.loop_write()
                self.published += 1
                heapq.heappush(due, (at + STATE_EVERY_S, table))
            if now - last_misc > 5:  # keep-alive pings
                last_misc = now
                for client in self.clients.values():
                    client.loop_misc()
                    if client.want_write():
                        client.loop_write()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for client in self.clients.values():
            client.disconnect()
            client.loop_write()




class SyntheticChild:
    """The tables in a child process; `close()` stops it and returns how many states they published."""

    def __init__(self, port: int, passwords: dict[str, str], directory: Path) -> None:
        path = directory / "synthetic-passwords.json"
        path.write_text(json.dumps(passwords), encoding="utf-8")
        self.process = subprocess.Popen([sys.executable, "-m", "tests.helpers.synthetic_tables", str(port), str(path)],
                                        cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        ready = self.process.stdout.readline()
        if not ready.startswith("connected"):
            raise RuntimeError(f"the synthetic tables did not start: {ready!r}")

    def close(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=30)
        return int(out.split()[-1]) if out.strip() else 0


def main(argv: list[str]) -> int:
    passwords = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    tables = SyntheticTables(int(argv[0]), passwords)
    print("connected", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    tables.close()
    print("published", tables.published, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
