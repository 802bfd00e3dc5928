"""The table's service's side of the Wi-Fi (`wordtable run`): a thread that hands the watcher's status to the
core as a `WifiInfo` event whenever it differs from what the table shows, and carries the table's requests
for the box's access point (`WifiState.asked_ap`) out as request files. Without a watcher (the simulator, a
box on a wire) it only looks at a file that is not there."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from firmware_host.core.app.state import AppState
from firmware_host.core.events import Event, WifiInfo
from firmware_host.core.wifi_payload import WifiJoin, payload
from firmware_host.network import files

log = logging.getLogger("wordtable.wifi")
LOOK_EVERY_S = 2.0


class Table(Protocol):
    state: AppState

    def put(self, event: Event) -> None: ...


class WifiFeed:
    """Started at once; `close()` stops it (idempotent)."""

    def __init__(self, table: Table, directory: Path, clock: Callable[[], float]) -> None:
        self.table, self.directory, self.clock = table, directory, clock
        self.asked = table.state.wifi.asked_ap  # requests replayed from the journal were carried out then
        self.told: files.Status | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wifi-feed", daemon=True)
        self._thread.start()

    def look(self) -> None:
        wifi = self.table.state.wifi
        if wifi.asked_ap > self.asked:
            self.asked = wifi.asked_ap
            files.ask_for_ap(self.directory)
            log.info("wifi: the table asks for the box's access point")
        status = files.read_status(self.directory)
        if status is None or status == self.told:
            return
        self.told = status
        if status.link == "ap":
            log.info("wifi: the box's access point %s at %s, its QR: %s", status.ssid, status.address,
                     payload(WifiJoin(status.ssid, status.password)))
        else:
            log.info("wifi: %s %s %s", status.link, status.ssid, status.address)
        self.table.put(WifiInfo(status.link, status.ssid, status.password, status.address, self.clock()))

    def _run(self) -> None:
        while not self._stop.wait(LOOK_EVERY_S):
            try:
                self.look()
            except OSError as exc:
                log.warning("wifi: %s", exc)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=LOOK_EVERY_S * 2)
