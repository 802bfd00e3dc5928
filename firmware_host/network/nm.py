"""NetworkManager through `nmcli` (its command-line client, over D-Bus): what the radio is doing, the known
Wi-Fi networks and those in reach, and the few changes the watcher makes — the box's access point as one
connection profile (`AP_NAME`, shared IPv4: NM runs dnsmasq for the phones), a network added as another.
The only I/O with NetworkManager; `NmError` when nmcli fails."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_host.core.wifi_payload import split_escaped
from firmware_host.network.decide import Link
from firmware_host.network.files import AccessPoint

AP_NAME = "wordtable-ap"
NMCLI = "nmcli"
ACTIVATE_TIMEOUT_S = 40
JOINING_STATES = range(40, 100)  # NM_DEVICE_STATE_PREPARE … SECONDARIES: on the way to connected
CONNECTED = 100


class NmError(RuntimeError):
    """nmcli failed: its words."""


@dataclass(frozen=True, slots=True)
class Radio:
    """The Wi-Fi device: its name, link, connection profile ("" none) and IPv4 address ("" none)."""

    device: str
    link: Link
    connection: str = ""
    address: str = ""


def nmcli(*args: str, timeout: float = 60.0) -> str:
    try:
        done = subprocess.run([NMCLI, *args], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NmError(f"nmcli {' '.join(args[:3])}: {exc}") from exc
    if done.returncode != 0:
        raise NmError(f"nmcli {' '.join(args[:3])}: {(done.stderr or done.stdout).strip()}")
    return done.stdout


def split_terse(line: str) -> list[str]:
    """A line of `nmcli -t` output as its fields (`:` separates, `\\:` and `\\\\` are escaped)."""
    return split_escaped(line, ":")


def show_fields(text: str) -> dict[str, str]:
    """The `KEY:value` lines of `nmcli -t … show` (a list's first item for `KEY[1]`)."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        found.setdefault(key.split("[")[0], value)
    return found


def _padded(fields: list[str], count: int) -> list[str]:
    return [*fields, *[""] * count][:count]


def radio() -> Radio | None:
    """The first Wi-Fi device NM knows (None: none)."""
    for line in nmcli("-t", "-f", "DEVICE,TYPE", "device").splitlines():
        device, kind = _padded(split_terse(line), 2)
        if kind == "wifi":
            return _radio(device)
    return None


def _radio(device: str) -> Radio:
    shown = show_fields(nmcli("-t", "-f", "GENERAL.STATE,GENERAL.CONNECTION,IP4.ADDRESS", "device", "show", device))
    state, connection = shown.get("GENERAL.STATE", ""), shown.get("GENERAL.CONNECTION", "")
    address = shown.get("IP4.ADDRESS", "")
    number = int(state.split()[0]) if state.split() and state.split()[0].isdigit() else 0
    address = address.split("|")[0].split("/")[0].strip()
    if number == CONNECTED:
        link = Link.AP if connection == AP_NAME else Link.CLIENT
    elif number in JOINING_STATES:
        link = Link.JOINING
    else:
        link = Link.DOWN
    return Radio(device, link, connection if connection != "--" else "", address)


def known() -> tuple[tuple[str, str], ...]:
    """The known Wi-Fi networks (not the box's own): (profile name, SSID), the most recently used last."""
    rows = []
    for line in nmcli("-t", "-f", "NAME,TYPE,TIMESTAMP", "connection", "show").splitlines():
        name, kind, stamp = _padded(split_terse(line), 3)
        if kind == "802-11-wireless" and name != AP_NAME:
            ssid = nmcli("-g", "802-11-wireless.ssid", "connection", "show", name).strip()
            rows.append((int(stamp) if stamp.isdigit() else 0, name, ssid))
    return tuple((name, ssid) for _, name, ssid in sorted(rows))


def in_reach(device: str, rescan: bool) -> tuple[str, ...]:
    """The SSIDs the radio sees: after a new scan when `rescan` (NM refuses one right after another, and
    while the access point is up: then what it saw last)."""
    def listed(how: str) -> str:
        return nmcli("-t", "-f", "SSID", "device", "wifi", "list", "--rescan", how, "ifname", device)

    try:
        out = listed("yes" if rescan else "no")
    except NmError:
        if not rescan:
            raise
        out = listed("no")
    return tuple(sorted({split_terse(line)[0] for line in out.splitlines() if line}))


# 2437 MHz: access points may use it in every regulatory domain, the "world" one a Pi starts with included;
# left to NetworkManager it picks any 2.4 GHz channel, 12 and 13 too, where that domain allows no access point
# (seen in the emulated machine: "Hotspot network creation took too long").
AP_CHANNEL = "6"


def ensure_access_point(point: AccessPoint) -> None:
    """The profile of the box's access point, as `point` says (made or changed; not started)."""
    settings: Sequence[str] = (
        "connection.autoconnect", "no", "802-11-wireless.ssid", point.ssid, "802-11-wireless.mode", "ap",
        "802-11-wireless.band", "bg", "802-11-wireless.channel", AP_CHANNEL,
        "ipv4.method", "shared", "ipv6.method", "disabled",
        "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.psk", point.password, "wifi-sec.proto", "rsn",
        "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp",
    )
    names = {split_terse(line)[0] for line in nmcli("-t", "-f", "NAME", "connection", "show").splitlines()}
    if AP_NAME in names:
        nmcli("connection", "modify", AP_NAME, *settings)
    else:
        nmcli("connection", "add", "type", "wifi", "ifname", "*", "con-name", AP_NAME, *settings)


def up(name: str, device: str) -> None:
    """Bring the profile `name` up on `device` (whatever was on it goes down)."""
    nmcli("--wait", str(ACTIVATE_TIMEOUT_S), "connection", "up", name, "ifname", device,
          timeout=ACTIVATE_TIMEOUT_S + 10)


def down(name: str) -> None:
    nmcli("connection", "down", name)


def add_network(ssid: str, password: str) -> str:
    """A profile for the network `ssid` (WPA2-PSK, or open without a password), joined automatically from
    now on; its name."""
    name = ssid  # as `nmcli device wifi connect` names it
    security = ("wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.psk", password) if password else ()
    existing = [split_terse(line)[0] for line in nmcli("-t", "-f", "NAME", "connection", "show").splitlines()]
    if name in existing:
        nmcli("connection", "delete", name)
    nmcli("connection", "add", "type", "wifi", "ifname", "*", "con-name", name, "ssid", ssid,
          "connection.autoconnect", "yes", *security)
    return name


def stations(device: str) -> int:
    """The phones on the box's access point (`iw dev DEVICE station dump`)."""
    try:
        done = subprocess.run(["iw", "dev", device, "station", "dump"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in done.stdout.splitlines() if line.startswith("Station "))
