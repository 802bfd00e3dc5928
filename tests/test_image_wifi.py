"""The box brings its own Wi-Fi (issue 41), on the flashable image in the emulated machine: real
NetworkManager and wpa_supplicant, simulated radios (`mac80211_hwsim`, which Debian's kernel carries).

Three radios: the box's stays with NetworkManager; the phone's and the home network's are moved into network
namespaces of their own. With no known network the box opens its access point; the phone joins it with the
name and password read from the `WIFI:` QR payload the service shows (its log), gets an address from the box
(NM's shared mode) and loads the table page; the home network (wpa_supplicant in access-point mode, as NM
itself runs the box's, and dnsmasq for its addresses) is added on the table page by the owner (the owner PIN
set on the box: here by its shell, as the menu would) and joined, its profile kept on wt-data (the root is
read-only); it is switched off and the box's access point comes back, and the phone joins it again.

Not part of the suite's default run (it takes minutes and an image): build one, then

    sudo bash systemd/image/build.sh
    WORDTABLE_IMAGE=build/wordtable.img .venv/bin/python -m pytest tests/test_image_wifi.py -s

It prints how long each step took in the machine and what NetworkManager and the watcher cost in memory."""

from __future__ import annotations

import base64
import json
import os
import re
import time
import urllib.request
from pathlib import Path

import pytest

from firmware_host.core.wifi_payload import WifiJoin, parse
from firmware_host.network.files import PROFILES_DIR
from firmware_host.page.owner import COOKIE
from tests.helpers.ports import free_port
from tests.helpers.vm import Machine, have_tools, prepared

IMAGE = os.environ.get("WORDTABLE_IMAGE")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not IMAGE, reason="WORDTABLE_IMAGE not set (an image to boot)")]
BOOT_TIMEOUT = float(os.environ.get("WORDTABLE_BOOT_TIMEOUT", "900"))
JOIN_TIMEOUT_S = 20  # the watcher's, in the machine: how long with no network before the access point opens
HOME = WifiJoin("Zuhause", "zuhause-geheim")
HELPER = Path(__file__).parent / "helpers" / "dhcp_lease.py"
PY = "/opt/wordtable/venv/bin/python"
PIN = "4711"
MORE = {
    "/etc/systemd/system/wordtable-wifi.service.d/vm.conf": (
        "[Service]\nExecStart=\n"
        "ExecStart=/opt/wordtable/venv/bin/wordtable wifi --state-dir /var/lib/wordtable watch"
        f" --join-timeout {JOIN_TIMEOUT_S}\n"),
    "/root/dhcp_lease.py": HELPER.read_text(),
}


def station_conf(join: WifiJoin, control: str, access_point: bool = False) -> str:
    lines = [f"ctrl_interface={control}", "network={", f'  ssid="{join.ssid}"', f'  psk="{join.password}"',
             "  key_mgmt=WPA-PSK", "  proto=RSN", "  pairwise=CCMP", "  group=CCMP"]
    if access_point:
        lines += ["  mode=2", "  frequency=2437"]
    return "\n".join([*lines, "}"]) + "\n"


class Steps:
    """Each step's seconds in the machine (wall clock here, the machine emulated), printed at the end."""

    def __init__(self) -> None:
        self.taken: list[tuple[str, float]] = []
        self.mark = time.monotonic()

    def done(self, name: str) -> None:
        now = time.monotonic()
        self.taken.append((name, now - self.mark))
        self.mark = now

    def report(self) -> str:
        return "\n".join(f"  {name}: {seconds:.1f} s" for name, seconds in self.taken)


def until(machine: Machine, command: str, pattern: str, timeout: float, every: float = 3.0) -> re.Match[str]:
    """Runs `command` in the machine until its output matches `pattern`."""
    deadline = time.monotonic() + timeout
    output = ""
    while time.monotonic() < deadline:
        output = machine.shell(command)
        found = re.search(pattern, output)
        if found:
            return found
        time.sleep(every)
    log = machine.shell("journalctl -b -u wordtable-wifi -u NetworkManager -o cat --no-pager | tail -40")
    raise AssertionError(f"no {pattern!r} from {command!r} within {timeout:.0f} s: {output!r}\n{log}")


def write_file(machine: Machine, path: str, text: str) -> None:
    """`text` into the machine's `path`, in one line on the console (a here-document cannot be followed by the
    shell helper's end mark on its last line)."""
    machine.shell(f"echo {base64.b64encode(text.encode()).decode()} | base64 -d > {path}")


def in_ns(space: str, command: str) -> str:
    return f"ip netns exec {space} {command}"


def phone_joins(machine: Machine, join: WifiJoin, page: str) -> str:
    """The phone's radio (namespace `phone`) joins `join`, leases an address, loads `page`: the lease line."""
    write_file(machine, "/tmp/phone.conf", station_conf(join, "/run/wpa-phone"))
    running = machine.shell(in_ns("phone", "wpa_cli -p /run/wpa-phone -i wlan1 ping 2>/dev/null"))
    if "PONG" in running:
        machine.shell(in_ns("phone", "wpa_cli -p /run/wpa-phone -i wlan1 reconfigure"))
    else:
        machine.shell(in_ns("phone", "wpa_supplicant -B -D nl80211 -i wlan1 -c /tmp/phone.conf"))
    until(machine, in_ns("phone", "wpa_cli -p /run/wpa-phone -i wlan1 status"), r"wpa_state=COMPLETED", 120)
    machine.shell(in_ns("phone", "ip addr flush dev wlan1"))
    lease = machine.shell(in_ns("phone", f"{PY} /root/dhcp_lease.py wlan1"), timeout=120)
    assert "leased 10.42.0." in lease, lease
    status = machine.shell(in_ns("phone", f"{PY} -c \"import urllib.request; "
                                          f"print('page', urllib.request.urlopen('{page}', timeout=30).status)\""))
    assert "page 200" in status, status
    return lease


def add_on_the_page(machine: Machine, join: WifiJoin) -> int:
    """The owner adds `join` on the table page: the owner PIN set on the box, the owner's login and the Wi-Fi
    form's request, from the page's own origin; the form's answer (202: the watcher was asked)."""
    machine.shell(f"runuser -u wordtable -- {PY} -c \"from pathlib import Path; from firmware_host.owner_pin "
                  f"import save_pin; save_pin(Path('/var/lib/wordtable'), '{PIN}')\"")

    def post(path: str, body: dict[str, str], cookie: str = "") -> tuple[int, str]:
        headers = {"Origin": machine.url, "Content-Type": "application/json"}
        if cookie:
            headers["Cookie"] = cookie
        request = urllib.request.Request(machine.url + path, json.dumps(body).encode(), headers)
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.headers.get("Set-Cookie", "")

    status, set_cookie = post("/api/owner", {"pin": PIN})
    session = re.search(rf"{COOKIE}=[^;]+", set_cookie)
    assert status == 200 and session, set_cookie
    return post("/api/wifi/networks", {"ssid": join.ssid, "password": join.password}, session.group(0))[0]


def test_the_box_opens_its_own_wifi_joins_a_home_network_and_falls_back(tmp_path: Path) -> None:
    missing = have_tools()
    if missing:
        pytest.skip(f"{missing} is missing (apt install qemu-system-arm mtools e2fsprogs fdisk)")
    disk, kernel, initrd = prepared(Path(IMAGE or ""), tmp_path, MORE)
    machine = Machine(disk, kernel, initrd, free_port(), console=tmp_path / "console.log")
    steps = Steps()
    try:
        machine.wait_for_page(BOOT_TIMEOUT)
        machine.wait_for(r"root@wordtable:~# ", 300)
        steps.done("boot to the page answering")
        assert machine.shell("systemctl is-active NetworkManager wordtable-wifi wordtable").split() == ["active"] * 3
        code = json.loads(machine.shell("cat /var/lib/wordtable/page-seats.json"))["code"]

        machine.shell("dmesg -n 1")  # the kernel's messages (the new radios') off the console the test reads
        radios = machine.shell(
            "modprobe mac80211_hwsim radios=3 && sleep 2 && ip netns add phone && ip netns add home"
            " && iw phy $(cat /sys/class/net/wlan1/phy80211/name) set netns name phone"
            " && iw phy $(cat /sys/class/net/wlan2/phy80211/name) set netns name home && iw dev | grep Interface")
        assert re.findall(r"^\s*Interface (\S+)$", radios, re.M) == ["wlan0"], radios  # the phone's, home's gone
        steps.done("three simulated radios, two moved out")

        shown = until(machine, "journalctl -b -u wordtable -o cat --no-pager | grep 'its QR: WIFI:' | tail -1",
                      r"at (\S+), its QR: (WIFI:.*;;)", 240)
        address, join = shown.group(1), parse(shown.group(2))
        assert re.fullmatch(r"wordtable-[0-9A-F]{4}", join.ssid) and len(join.password) >= 8, join
        steps.done(f"no known network: the box's access point {join.ssid} up and shown")

        page = f"http://{address}:8080/j/{code}"
        print("\nthe phone:", phone_joins(machine, join, page))
        steps.done("the phone joins with the QR's credentials, leases an address, loads the page")

        write_file(machine, "/tmp/home.conf", station_conf(HOME, "/run/wpa-home", True))
        machine.shell(in_ns("home", "ip addr add 192.168.77.1/24 dev wlan2") + " && "
                      + in_ns("home", "wpa_supplicant -B -D nl80211 -i wlan2 -c /tmp/home.conf -P /run/wpa-home.pid")
                      + " && " + in_ns("home", "dnsmasq --conf-file=/dev/null --interface=wlan2 --bind-interfaces"
                                               " --port=0 --dhcp-range=192.168.77.10,192.168.77.50,12h"
                                               " --pid-file=/run/dnsmasq-home.pid"
                                               " --dhcp-leasefile=/run/dnsmasq-home.leases"))
        assert add_on_the_page(machine, HOME) == 202
        until(machine, "/opt/wordtable/venv/bin/wordtable wifi status", r'"link": "client", "ssid": "Zuhause"', 240)
        home = machine.shell("ip -4 -o addr show wlan0")
        assert "192.168.77." in home, home
        steps.done("the home network added on the table page (owner PIN) and joined")
        kept = machine.shell(f"ls /var/lib/wordtable/{PROFILES_DIR}; ls /etc/NetworkManager/system-connections")
        print(f"\nNetworkManager's profiles (on wt-data; none in /etc):\n{kept}")
        assert f"{HOME.ssid}.nmconnection" in kept.split(), kept
        served = machine.shell(in_ns("home", f"{PY} -c \"import urllib.request; print('page', urllib.request"
                                             f".urlopen('http://{home.split()[3].split('/')[0]}:8080/', "
                                             "timeout=30).status)\""))
        assert "page 200" in served, served

        machine.shell("kill $(cat /run/wpa-home.pid)")
        until(machine, "/opt/wordtable/venv/bin/wordtable wifi status", r'"link": "ap"', 300)
        steps.done("the home network switched off: the box's access point back")
        print("the phone again:", phone_joins(machine, join, page))
        steps.done("the phone joins again and loads the page")

        memory = machine.shell(
            "for unit in NetworkManager wordtable-wifi wpa_supplicant wordtable; do"
            " echo $unit $(systemctl show -p MemoryCurrent --value $unit); done;"
            " ps -o rss=,comm= -C NetworkManager,wpa_supplicant,dnsmasq,wordtable")
        boot = machine.shell("systemd-analyze blame --no-pager | grep -E 'NetworkManager|wordtable|wpa_supplicant'")
        print(f"\nsteps in the emulated machine:\n{steps.report()}\nmemory (bytes; RSS in KiB):\n{memory}\n"
              f"start-up (systemd-analyze blame):\n{boot}")
        machine.poweroff()
    finally:
        machine.kill()
