"""The loop of `wordtable wifi watch` (wordtable-wifi.service, root): every few seconds it looks at
NetworkManager (`nm`), takes the table's requests (`files`), lets `decide` choose and carries the choice
out, and publishes the Wi-Fi's status for the table's service. Stops on SIGTERM between two looks."""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, cast

from firmware_host.network import decide, files, nm
from firmware_host.network.decide import Action, CloseAp, Join, Link, OpenAp, Policy, Request, Seen, Wait

log = logging.getLogger("wordtable.wifi")
LOOK_EVERY_S = 3.0
RESCAN_EVERY_S = 15.0


class Network(Protocol):
    """What the watcher asks of NetworkManager (`nm`, the module; a fake in tests)."""

    AP_NAME: str

    def radio(self) -> nm.Radio | None: ...
    def known(self) -> tuple[tuple[str, str], ...]: ...
    def in_reach(self, device: str, rescan: bool) -> tuple[str, ...]: ...
    def stations(self, device: str) -> int: ...
    def ensure_access_point(self, point: files.AccessPoint) -> None: ...
    def add_network(self, ssid: str, password: str) -> str: ...
    def up(self, name: str, device: str) -> None: ...
    def down(self, name: str) -> None: ...


class Watcher:
    """One box's Wi-Fi: `look()` once, `run()` until stopped."""

    def __init__(self, directory: Path, machine_id: str, policy: Policy, network: Network | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.directory, self.policy, self.clock = directory, policy, clock
        self.nm: Network = network if network is not None else cast(Network, nm)
        self.point = files.access_point(directory, machine_id)
        self.link = Link.ABSENT
        self.since = clock()  # on no network: since when; the access point up: since when
        self.request = Request.NONE
        self.last_scan = -RESCAN_EVERY_S
        self.reach: tuple[str, ...] = ()
        self.published: files.Status | None = None
        self.stop = threading.Event()
        self.nm.ensure_access_point(self.point)
        log.info("the box's access point is %s", self.point.ssid)

    def look(self) -> Action:
        """Look at NetworkManager once, decide and act; the action taken."""
        radio = self.nm.radio()
        if radio is None:
            return Wait()
        now = self.clock()
        if radio.link is not self.link:
            log.info("wifi %s: %s -> %s %s", radio.device, self.link.value, radio.link.value, radio.connection)
            offline = (Link.DOWN, Link.JOINING)
            if not (radio.link in offline and self.link in offline):  # down <-> joining: still no network
                self.since = now
            self.link = radio.link
        wants_ap, added = files.take_requests(self.directory)
        for network in added:
            log.info("a network added: %s", self.nm.add_network(network.ssid, network.password))
            self.request = Request.JOIN
        if wants_ap:
            self.request = Request.AP
        known = self.nm.known()
        if radio.link is Link.DOWN and now - self.last_scan >= RESCAN_EVERY_S:
            self.reach, self.last_scan = self._scan(radio.device), now
        elif radio.link not in (Link.DOWN, Link.JOINING):
            self.reach = ()  # a scan from before says nothing now
        seen = Seen(radio.link, now - self.since, tuple(ssid for _, ssid in known), self.reach,
                    self.nm.stations(radio.device) if radio.link is Link.AP else 0, self.request)
        self._publish(radio)
        return self._act(seen, radio.device, {ssid: name for name, ssid in known})

    def _act(self, seen: Seen, device: str, profiles: dict[str, str]) -> Action:
        action, rule = decide.decide(seen, self.policy)
        if isinstance(action, Wait):
            return action
        log.info("%s: %s", rule, action)
        self.request = Request.NONE
        try:
            if isinstance(action, OpenAp):
                self.nm.up(self.nm.AP_NAME, device)
            elif isinstance(action, Join):
                self.nm.up(profiles.get(action.ssid, action.ssid), device)
            elif isinstance(action, CloseAp):
                self.nm.down(self.nm.AP_NAME)
        except nm.NmError as exc:
            log.warning("%s", exc)
        if not isinstance(action, Join):  # a join that failed leaves the time without a network running
            self.since = self.clock()
        self.last_scan = -RESCAN_EVERY_S  # scan at the next look on no network
        return action

    def _scan(self, device: str) -> tuple[str, ...]:
        try:
            return self.nm.in_reach(device, True)
        except nm.NmError as exc:
            log.info("no scan: %s", exc)
            return ()

    def _publish(self, radio: nm.Radio) -> None:
        if radio.link is Link.AP:
            status = files.Status("ap", self.point.ssid, radio.address, self.point.password)
        elif radio.link is Link.CLIENT:
            status = files.Status("client", radio.connection, radio.address)
        else:
            status = files.Status(radio.link.value)
        if status != self.published:
            files.write_status(self.directory, status)
            self.published = status
            log.info("status: %s %s %s", status.link, status.ssid, status.address)

    def run(self) -> None:
        signal.signal(signal.SIGTERM, lambda *_: self.stop.set())
        while not self.stop.is_set():
            try:
                self.look()
            except (nm.NmError, OSError) as exc:
                log.warning("%s", exc)
            self.stop.wait(LOOK_EVERY_S)
