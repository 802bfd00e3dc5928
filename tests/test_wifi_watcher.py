"""The Wi-Fi watcher's loop (`network.watcher`) on a fake NetworkManager and a virtual clock: no known network
→ the box's access point; a network added from the table → joined; gone → the access point again after the
timeout; the status the table's service reads follows each step."""

from __future__ import annotations

from pathlib import Path

from firmware_host.network import files, nm
from firmware_host.network.decide import Link, Policy
from firmware_host.network.watcher import Watcher


class FakeNm:
    AP_NAME = nm.AP_NAME

    def __init__(self) -> None:
        self.link, self.connection = Link.DOWN, ""
        self.profiles: dict[str, str] = {}  # name -> ssid
        self.air: set[str] = set()  # the networks in reach
        self.calls: list[str] = []

    def radio(self) -> nm.Radio:
        address = {Link.AP: "10.42.0.1", Link.CLIENT: "192.168.77.20"}.get(self.link, "")
        return nm.Radio("wlan0", self.link, self.connection, address)

    def known(self) -> tuple[tuple[str, str], ...]:
        return tuple(self.profiles.items())

    def in_reach(self, device: str, rescan: bool) -> tuple[str, ...]:
        return tuple(sorted(self.air))

    def stations(self, device: str) -> int:
        return 0

    def ensure_access_point(self, point: files.AccessPoint) -> None:
        self.calls.append(f"ap profile {point.ssid}")

    def add_network(self, ssid: str, password: str) -> str:
        self.profiles[ssid] = ssid
        self.calls.append(f"add {ssid}")
        return ssid

    def up(self, name: str, device: str) -> None:
        self.calls.append(f"up {name}")
        if name == self.AP_NAME:
            self.link, self.connection = Link.AP, name
        elif self.profiles.get(name) in self.air:
            self.link, self.connection = Link.CLIENT, name
        else:
            self.link, self.connection = Link.DOWN, ""
            raise nm.NmError("no network")

    def down(self, name: str) -> None:
        self.calls.append(f"down {name}")
        self.link, self.connection = Link.DOWN, ""

    def gone(self, ssid: str) -> None:
        self.air.discard(ssid)
        if self.connection == ssid:
            self.link, self.connection = Link.DOWN, ""


def test_no_network_the_access_point_a_home_network_joined_then_gone(tmp_path: Path) -> None:
    fake, now = FakeNm(), [0.0]
    watcher = Watcher(tmp_path, "0123456789abcdef", Policy(join_timeout_s=45, probe_after_s=300), fake,
                      lambda: now[0])

    def look(at: float) -> files.Status | None:
        now[0] = at
        watcher.look()
        return files.read_status(tmp_path)

    assert look(1).link == "down" and look(40).link == "down"
    assert "up wordtable-ap" not in fake.calls
    look(46)  # no known network in time
    status = look(47)
    assert (status.link, status.ssid, status.address) == ("ap", watcher.point.ssid, "10.42.0.1")
    assert status.password == watcher.point.password

    fake.air.add("Zuhause")
    files.ask_to_add(tmp_path, "Zuhause", "zuhause-geheim")
    look(60)
    assert fake.calls[-2:] == ["add Zuhause", "up Zuhause"]
    status = look(61)
    assert (status.link, status.ssid, status.password) == ("client", "Zuhause", "")

    fake.gone("Zuhause")
    assert look(100).link == "down" and look(140).link == "down"
    look(146)  # 45 s without a network
    assert look(147).link == "ap" and fake.calls[-1] == "up wordtable-ap"

    look(447)  # 300 s of an empty access point: look for the known network again
    assert fake.calls[-1] == "down wordtable-ap"
    fake.air.add("Zuhause")
    look(448)
    assert fake.calls[-1] == "up Zuhause" and look(449).link == "client"


def test_the_table_asks_for_the_access_point(tmp_path: Path) -> None:
    fake, now = FakeNm(), [0.0]
    fake.profiles, fake.air, fake.link, fake.connection = {"Zuhause": "Zuhause"}, {"Zuhause"}, Link.CLIENT, "Zuhause"
    watcher = Watcher(tmp_path, "id", Policy(), fake, lambda: now[0])
    watcher.look()
    files.ask_for_ap(tmp_path)
    now[0] = 5
    watcher.look()
    assert fake.calls[-1] == "up wordtable-ap" and fake.link is Link.AP
