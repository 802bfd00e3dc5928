"""The flashable image booted in an emulated machine (issue 42): QEMU's `virt` machine with the image's own
Debian arm64 kernel; systemd starts wordtable.service; two phones (Debian's Chromium) join through the table
page on a forwarded port and play a round of the free scoreboard with the sand timer; the machine is killed
mid-game (a power cut) and booted again: the game is there with every point, the file systems are clean and
`wordtable doctor` reports.

Not part of the suite's default run (it takes minutes and an image): build one, then

    sudo bash systemd/image/build.sh
    WORDTABLE_IMAGE=build/wordtable.img .venv/bin/python -m pytest tests/test_image_boot.py -s

It prints the times from power-on to the first frame and to the page answering."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.helpers.ports import free_port
from tests.helpers.vm import Machine, fsck, have_tools, prepared

IMAGE = os.environ.get("WORDTABLE_IMAGE")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not IMAGE, reason="WORDTABLE_IMAGE not set (an image to boot)")]
BOOT_TIMEOUT = float(os.environ.get("WORDTABLE_BOOT_TIMEOUT", "900"))  # emulated, on a loaded machine
PEOPLE = {"Anna": 3, "Ben": 5}


def booted(machine: Machine, label: str) -> dict[str, float]:
    """Waits for the page and the console's shell; the boot's times in seconds (printed)."""
    page = machine.wait_for_page(BOOT_TIMEOUT)
    machine.wait_for(r"root@wordtable:~# ", 300)
    line = machine.shell("journalctl -b -u wordtable -o short-monotonic --no-pager | grep -m1 'ready in'")
    found = re.search(r"\[\s*([\d.]+)\].*ready in (\d+) ms", line)
    assert found, line
    times = {"first frame": float(found.group(1)), "page": page}
    print(f"\n{label}: power-on → first frame {times['first frame']:.1f} s (kernel clock; the service ready in "
          f"{found.group(2)} ms), → page answering {page:.1f} s (wall, from starting QEMU)")
    return times


def board_of(page) -> dict[str, str]:
    rows = page.locator("#board tr").all_inner_texts()
    return dict(row.split("\t")[:2] for row in rows if "\t" in row)


def join_phones(browser, url: str, code: str, names: list[str]) -> dict:
    """One phone (a Chromium page) per name, joined to the table by the page's code: name -> page."""
    phones = {}
    for name in names:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE", bypass_csp=True)
        page = phones[name] = context.new_page()
        page.goto(f"{url}/j/{code}")
        page.wait_for_selector("#byname button", timeout=60_000)
        page.fill("#name", name)
        page.click("#byname button")
        page.wait_for_function(f"document.getElementById('me').textContent === {name!r}", timeout=60_000)
    return phones


def read_only_root(machine: Machine) -> dict[str, str]:
    """How the root is mounted (overlayroot: a RAM overlay as /, the root's file system read-only under it)
    and what the initramfs's fsck said of it: asserted, and returned for printing."""
    seen = {"/": machine.shell("findmnt -n -o FSTYPE,OPTIONS /"),
            "lower": machine.shell("findmnt -n -o SOURCE,FSTYPE,OPTIONS /media/root-ro"),
            "releases": machine.shell("findmnt -n -o SOURCE /opt/wordtable; touch /opt/wordtable/.probe 2>&1"),
            "fsck": machine.shell("cat /run/initramfs/fsck.log | grep -v '^Log of\\|^$' | tail -3"),
            "state": machine.shell("tune2fs -l /dev/disk/by-label/wt-root | grep -E 'state|features'")}
    assert seen["/"].startswith("overlay "), seen
    assert seen["lower"].split()[1] == "ext4" and seen["lower"].split()[2].startswith("ro,"), seen
    assert "[/opt/wordtable]" in seen["releases"] and "Read-only file system" in seen["releases"], seen
    assert "clean" in seen["fsck"] and "needs_recovery" not in seen["state"], seen
    return seen


def test_the_image_boots_plays_survives_a_power_cut_and_checks_clean(tmp_path: Path) -> None:
    missing = have_tools()
    if missing:
        pytest.skip(f"{missing} is missing (apt install qemu-system-arm mtools e2fsprogs fdisk)")
    from tests.helpers.browser import launch, require_browser

    playwright = require_browser()
    disk, kernel, initrd = prepared(Path(IMAGE or ""), tmp_path)
    port = free_port()
    machine = Machine(disk, kernel, initrd, port)
    try:
        booted(machine, "first boot")
        assert machine.shell("systemctl is-active wordtable") == "active"
        seats = json.loads(machine.shell("cat /var/lib/wordtable/page-seats.json"))
        code = seats["code"]
        print("\nthe root:", read_only_root(machine))
        with playwright.sync_playwright() as driver:
            browser = launch(driver)
            phones = join_phones(browser, machine.url, code, list(PEOPLE))
            first = phones["Anna"]
            first.evaluate("socket.send(JSON.stringify({type: 'command', seat: 0, command: 'timer', value: 'start'}))")
            for seat, (name, points) in enumerate(PEOPLE.items()):
                phones[name].evaluate(f"socket.send(JSON.stringify({{type: 'command', seat: {seat}, "
                                      f"command: 'points', value: '+{points}'}}))")
                shows = f"document.getElementById('board').textContent.includes({name + str(points)!r})"
                first.wait_for_function(shows, timeout=60_000)
            before = board_of(first)
            assert before == {name: str(points) for name, points in PEOPLE.items()}, before
            machine.kill()  # the power cut, mid-game: the sand running, points booked

            machine = Machine(disk, kernel, initrd, port)
            booted(machine, "after the power cut")
            first.reload()
            first.wait_for_function("document.getElementById('board').textContent.includes('Ben5')", timeout=120_000)
            assert board_of(first) == before
            browser.close()
        print("\nthe root after the power cut:", read_only_root(machine))
        fsck_log = machine.shell("journalctl -b --no-pager -u 'systemd-fsck*' | tail -20")
        print("\nfsck at the second boot:\n" + fsck_log)
        assert "UNEXPECTED INCONSISTENCY" not in fsck_log and "FILE SYSTEM WAS MODIFIED" not in fsck_log
        doctor = machine.shell("/opt/wordtable/venv/bin/wordtable doctor; echo exit=$?", timeout=300)
        print("\nwordtable doctor in the machine:\n" + doctor)
        assert "exit=" in doctor
        machine.poweroff()
    finally:
        machine.kill()
    for label, code_, last in fsck(disk):
        print(f"e2fsck -fn {label}: exit {code_}: {last}")
        assert code_ == 0, (label, last)
