"""The read-only root against power cuts (issue 41's acceptance), on the flashable image in the emulated
machine: a phone books points through the table page while the sand runs, and the machine is killed at a
random moment — between bookings or with one in flight — `WORDTABLE_POWERCUTS` times (20 unless told).
After each cut the machine boots again and: the root was mounted read-only under the RAM overlay and needs
no repair (the initramfs's fsck says clean, the superblock has no journal to recover), the data partition's
check repaired nothing, and the game is there with every point the page had acknowledged (the one in flight
at the cut may be there or not, never half). At the end, after a clean power-off, `e2fsck -fn` finds both
ext4 partitions clean. Prints one line per cut.

    WORDTABLE_IMAGE=build/wordtable.img .venv/bin/python -m pytest tests/test_image_powercuts.py -s
    (WORDTABLE_POWERCUTS=3 for a short run; WORDTABLE_POWERCUTS_SEED for another sequence of moments)
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest

from tests.helpers.ports import free_port
from tests.helpers.vm import Machine, fsck, have_tools, prepared
from tests.test_image_boot import board_of, booted, join_phones, read_only_root

IMAGE = os.environ.get("WORDTABLE_IMAGE")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not IMAGE, reason="WORDTABLE_IMAGE not set (an image to boot)")]
CUTS = int(os.environ.get("WORDTABLE_POWERCUTS", "20"))
SEED = int(os.environ.get("WORDTABLE_POWERCUTS_SEED", "41"))
NAME = "Anna"


def shown(total: int) -> str:
    return f"document.getElementById('board').textContent.includes({NAME + str(total)!r})"


def test_power_cuts_leave_the_root_clean_and_every_acknowledged_point(tmp_path: Path) -> None:
    missing = have_tools()
    if missing:
        pytest.skip(f"{missing} is missing (apt install qemu-system-arm mtools e2fsprogs fdisk)")
    from tests.helpers.browser import launch, require_browser

    playwright = require_browser()
    rng = random.Random(SEED)
    disk, kernel, initrd = prepared(Path(IMAGE or ""), tmp_path)
    port = free_port()
    machine = Machine(disk, kernel, initrd, port, console=tmp_path / "console.log")
    print(f"\n{CUTS} power cuts, seed {SEED}")
    try:
        booted(machine, "first boot")
        code = json.loads(machine.shell("cat /var/lib/wordtable/page-seats.json"))["code"]
        with playwright.sync_playwright() as driver:
            browser = launch(driver)
            phone = join_phones(browser, machine.url, code, [NAME])[NAME]
            phone.evaluate("socket.send(JSON.stringify({type: 'command', seat: 0, command: 'timer', value: 'start'}))")
            acknowledged = 0
            for cut in range(1, CUTS + 1):
                for _ in range(rng.randint(1, 3)):  # bookings the page acknowledges (the board shows them)
                    points = rng.randint(1, 9)
                    phone.evaluate(f"socket.send(JSON.stringify({{type: 'command', seat: 0, command: 'points', "
                                   f"value: '+{points}'}}))")
                    phone.wait_for_function(shown(acknowledged + points), timeout=60_000)
                    acknowledged += points
                in_flight = rng.randint(1, 9) if rng.random() < 0.5 else 0
                if in_flight:
                    phone.evaluate(f"socket.send(JSON.stringify({{type: 'command', seat: 0, command: 'points', "
                                   f"value: '+{in_flight}'}}))")
                time.sleep(rng.uniform(0.0, 1.5))
                machine.kill()

                machine = Machine(disk, kernel, initrd, port, console=tmp_path / "console.log")
                times = booted(machine, f"cut {cut}")
                root = read_only_root(machine)
                data = machine.shell("journalctl -b --no-pager -o cat -u 'systemd-fsck@*' | grep -i wt-data")
                assert "UNEXPECTED INCONSISTENCY" not in data and "MODIFIED" not in data, data
                phone.reload()
                phone.wait_for_function(f"document.getElementById('board').textContent.includes({NAME!r})",
                                        timeout=120_000)
                board = int(board_of(phone)[NAME])
                assert board in (acknowledged, acknowledged + in_flight), (board, acknowledged, in_flight)
                kept = "kept" if board > acknowledged else ("lost (never acknowledged)" if in_flight else "none")
                acknowledged = board
                print(f"cut {cut:2d}: {NAME} {board} points after the boot (in flight at the cut: {in_flight or '-'}, "
                      f"{kept}); first frame {times['first frame']:.0f} s, page {times['page']:.0f} s; "
                      f"root {root['fsck'].splitlines()[0]}; data: {data.splitlines()[-1] if data else 'checked'}")
            browser.close()
        machine.poweroff()
    finally:
        machine.kill()
    for label, code_, last in fsck(disk):
        print(f"e2fsck -fn {label}: exit {code_}: {last}")
        assert code_ == 0, (label, last)
