"""The loop of `wordtable wifi watch` (wordtable-wifi.service, root): every few seconds it looks at
NetworkManager (`nm`), takes the table's requests (`files`), lets `decide` choose and carries the choice
out, and publishes the Wi-Fi's status for the table's service. Stops on SIGTERM between two looks."""

from __future__ import annotations

import logging
import signal
import threading
import time
from pathlib import Path

from firmware_host.network import decide, files, nm
from firmware_host.network.decide import Action, CloseAp, Join, Link, OpenAp, Policy, Request, Seen

log = logging.getLogger("wordtable.wifi")
LOOK_EVERY_S = 3.0
RESCAN_EVERY_S = 15.0


class Watcher:
    """One box's Wi-Fi: `look()` once, `run()` until stopped."""

    def __init__(self, directory: Path, machine_id: str, policy: Policy) -> None:
        self.directory, self.policy = directory, policy
        self.point = files.access_point(directory, machine_id)
        self.link, self.changed = Link.ABSENT, time.monotonic()
        self.request = Request.NONE
        self.last_scan = -RESCAN_EVERY_S
        self.reach: tuple[str, ...] = ()
        self.published: files.Status | None = None
        self.stop = threading.Event()
        nm.ensure_access_point(self.point)
        log.info("the box's access point is %s", self.point.ssid)

    def look(self) -> Action:
        radio = nm.radio()
        if radio is None:
            return self._decided(Seen(Link.ABSENT, 0.0), None)
        if radio.link is not self.link:
            log.info("wifi %s: %s -> %s %s", radio.device, self.link.value, radio.link.value, radio.connection)
            self.link, self.changed = radio.link, time.monotonic()
        wants_ap, added = files.take_requests(self.directory)
        for network in added:
            log.info("a network added: %s", nm.add_network(network.ssid, network.password))
            self.request = Request.JOIN
        if wants_ap:
            self.request = Request.AP
        known = nm.known()
        now = time.monotonic()
        if radio.link is Link.DOWN and now - self.last_scan >= RESCAN_EVERY_S:
            self.reach, self.last_scan = self._scan(radio.device, True), now
        seen = Seen(radio.link, now - self.changed, tuple(ssid for _, ssid in known), self.reach,
                    nm.stations(radio.device) if radio.link is Link.AP else 0, self.request)
        self._publish(radio)
        return self._decided(seen, radio, dict((ssid, name) for name, ssid in known))

    def _decided(self, seen: Seen, radio: nm.Radio | None, profiles: dict[str, str] | None = None) -> Action:
        action, rule = decide.decide(seen, self.policy)
        if radio is None or not rule or action == decide.Wait():
            return action
        log.info("%s: %s", rule, action)
        try:
            if isinstance(action, OpenAp):
                nm.up(nm.AP_NAME, radio.device)
            elif isinstance(action, Join):
                nm.up((profiles or {}).get(action.ssid, action.ssid), radio.device)
            elif isinstance(action, CloseAp):
                nm.down(nm.AP_NAME)
                self.reach = self._scan(radio.device, True)
                self.last_scan = time.monotonic()
        except nm.NmError as exc:
            log.warning("%s", exc)
        self.request = Request.NONE
        self.link, self.changed = Link.DOWN, time.monotonic()  # the next look says what it became
        return action

    def _scan(self, device: str, rescan: bool) -> tuple[str, ...]:
        try:
            return nm.in_reach(device, rescan)
        except nm.NmError as exc:
            log.info("no scan: %s", exc)
            return ()

    def _publish(self, radio: nm.Radio) -> None:
        if radio.link is Link.AP:
            status = files.Status("ap", self.point.ssid, radio.address, self.point.password)
        else:
            status = files.Status(radio.link.value, radio.connection if radio.link is Link.CLIENT else "",
                                  radio.address if radio.link is Link.CLIENT else "")
        if status != self.published:
            files.write_status(self.directory, status)
            self.published = status
            log.info("status: %s %s %s", status.link, status.ssid, status.address)

    def run(self) -> None:
        signal.signal(signal.SIGTERM, lambda *_: self.stop.set())
        while not self.stop.is_set():
            try:
                self.look()
            except nm.NmError as exc:
                log.warning("%s", exc)
            self.stop.wait(LOOK_EVERY_S)
