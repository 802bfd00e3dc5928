"""The table's service's side of the Wi-Fi (`network.feed`): the watcher's status reaches the core as a
`WifiInfo` once per change, and the table's request for the access point becomes a request file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from firmware_host.core import app
from firmware_host.core.events import Event, WifiInfo
from firmware_host.core.settings import Settings
from firmware_host.network import files
from firmware_host.network.feed import WifiFeed


class FakeTable:
    def __init__(self) -> None:
        self.state, _ = app.initial(Settings())
        self.put_events: list[Event] = []

    def put(self, event: Event) -> None:
        self.put_events.append(event)


def test_the_status_goes_in_once_per_change_and_a_request_goes_out(tmp_path: Path) -> None:
    table = FakeTable()
    feed = WifiFeed(table, tmp_path, lambda: 7.0)
    try:
        feed.look()
        assert table.put_events == []  # no watcher: nothing to tell
        files.write_status(tmp_path, files.Status("ap", "wordtable-3F2A", "10.42.0.1", "k7hq2m9xpr4z"))
        feed.look()
        feed.look()
        assert table.put_events == [WifiInfo("ap", "wordtable-3F2A", "k7hq2m9xpr4z", "10.42.0.1", 7.0)]
        table.state = replace(table.state, wifi=replace(table.state.wifi, asked_ap=1))
        feed.look()
        assert files.take_requests(tmp_path) == (True, [])
    finally:
        feed.close()
