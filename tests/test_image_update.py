"""Updates in the emulated machine (issue 41's acceptance): the image booted as in tests/test_image_boot.py,
release files for the Pi (aarch64, built here from this checkout) copied into the disk by debugfs, a
Quiddler game in progress in the journal, then with the real unit and its start guard:

- a good release: `wordtable update` checks, installs, health-checks, switches; the service runs it;
- a release that passes the check but whose `run` fails: two failed starts, then the guard goes back;
- a release that cannot start: its health check refuses it, nothing switched;
the journal and the game intact every time. Prints the cost of each update (seconds, from the console).

    WORDTABLE_IMAGE=build/wordtable.img .venv/bin/python -m pytest tests/test_image_update.py -s
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from firmware_host.update.layout import PROBATION_S
from firmware_host.update.release import PI_64, build_release
from tests.helpers.ports import free_port
from tests.helpers.vm import Machine, have_tools, partitions, prepared
from tests.test_update import QUIDDLER_ROUND_1, _source

IMAGE = os.environ.get("WORDTABLE_IMAGE")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not IMAGE, reason="WORDTABLE_IMAGE not set (an image to boot)")]
BOOT_TIMEOUT = float(os.environ.get("WORDTABLE_BOOT_TIMEOUT", "900"))
WORDTABLE = "/opt/wordtable/current/bin/wordtable"
RELEASES = {
    "good": ("0.1.1", None),
    "cannot-start": ("0.1.2", {"firmware_host/cli.py": 'raise RuntimeError("broken release")'}),
    "fails-at-run": ("0.1.3", {"firmware_host/commands/run.py": 'raise RuntimeError("broken run")'}),
}


def _copy_in(disk: Path, files: dict[str, Path]) -> None:
    root = partitions(disk)[1]
    commands = [f"write {local} /root/{name}" for name, local in files.items()]
    subprocess.run(["debugfs", "-w", "-f", "-", f"{disk}?offset={root.start}"], input="\n".join(commands) + "\n",
                   check=True, capture_output=True, text=True)


def _timed(machine: Machine, command: str, timeout: float) -> tuple[str, float]:
    started = time.monotonic()
    out = machine.shell(command, timeout=timeout)
    return out, time.monotonic() - started


def _settled(machine: Machine, timeout: float = 900) -> str:
    """Waits until the unit is active or failed (not starting, not auto-restarting); its state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = machine.shell("systemctl is-active wordtable; true")
        if state in ("active", "failed"):
            return state
        time.sleep(5)
    raise AssertionError("wordtable.service did not settle")


def test_updates_in_the_emulated_machine(tmp_path: Path) -> None:
    missing = have_tools()
    if missing:
        pytest.skip(f"{missing} is missing (apt install qemu-system-arm mtools e2fsprogs fdisk)")
    files = {}
    for name, (version, broken) in RELEASES.items():
        files[f"{name}.wtrelease"] = tmp_path / f"{name}.wtrelease"
        build_release(_source(tmp_path, name, version, broken), files[f"{name}.wtrelease"], target=PI_64,
                      wheel_cache=tmp_path / "wheels")
    (tmp_path / "setup.script").write_text(QUIDDLER_ROUND_1)
    files["setup.script"] = tmp_path / "setup.script"
    disk, kernel, initrd = prepared(Path(IMAGE or ""), tmp_path)
    _copy_in(disk, files)
    machine = Machine(disk, kernel, initrd, free_port(), console=tmp_path / "console.log")
    try:
        machine.wait_for_page(BOOT_TIMEOUT)
        machine.wait_for(r"root@wordtable:~# ", 300)
        first = machine.shell("readlink /opt/wordtable/current")
        machine.shell("systemctl stop wordtable")
        machine.shell("install -m 0644 /root/setup.script /tmp/setup.script")  # /root is root's only
        played = machine.shell(f"runuser -u wordtable -- {WORDTABLE} sim --profile sim --script /tmp/setup.script "
                               "--state-dir /var/lib/wordtable >/dev/null; echo exit=$?", timeout=600)
        assert played.endswith("exit=0"), played
        machine.shell("systemctl start wordtable", timeout=600)
        export = f"runuser -u wordtable -- {WORDTABLE} journal export --state-dir /var/lib/wordtable | sha256sum"
        game = machine.shell(export, timeout=300)

        checked, _ = _timed(machine, f"{WORDTABLE} update /root/good.wtrelease --check-only 2>&1", 600)
        assert "changed wordtable 0.1.0 -> 0.1.1" in checked, checked
        out, seconds = _timed(machine, f"{WORDTABLE} update /root/good.wtrelease 2>&1; echo exit=$?", 1800)
        print(f"\nthe good update: {seconds:.0f} s in the emulated machine\n{out}")
        assert out.endswith("exit=0") and "healthy: wordtable 0.1.1" in out, out
        assert _settled(machine) == "active"
        good = machine.shell("readlink /opt/wordtable/current")
        assert good.startswith("releases/0.1.1-") and good != first
        assert machine.shell(f"{WORDTABLE} --version") == "wordtable 0.1.1"
        assert machine.shell(export, timeout=300) == game
        # 0.1.1 proves itself by running PROBATION_S after its first frame; until then an update keeps the release
        # before it as the one to go back to (layout.Layout.last_good), and the guard would go back there
        time.sleep(PROBATION_S + 5)

        out, seconds = _timed(machine, f"{WORDTABLE} update /root/fails-at-run.wtrelease 2>&1; echo exit=$?", 1800)
        print(f"\nthe release that fails at its start: {seconds:.0f} s\n{out}")
        assert out.endswith("exit=0"), out
        assert _settled(machine) == "active"
        assert machine.shell("readlink /opt/wordtable/current") == good  # the guard went back by itself
        guard = machine.shell("journalctl -b -u wordtable --no-pager | grep wordtable-guard")
        print(f"\nthe guard:\n{guard}")
        assert re.search(r"failed to start 2 times: rolled back to 0\.1\.1-", guard), guard
        assert machine.shell(export, timeout=300) == game
        out, seconds = _timed(machine, f"{WORDTABLE} update /root/cannot-start.wtrelease 2>&1; echo exit=$?", 1800)
        print(f"\nthe release that cannot start: {seconds:.0f} s\n{out}")
        assert out.endswith("exit=1") and "nothing switched" in out and "broken release" in out, out
        assert machine.shell("readlink /opt/wordtable/current") == good
        assert machine.shell("systemctl is-active wordtable") == "active"

        sizes = machine.shell("du -sh /opt/wordtable/releases/*; df -h /opt | tail -1")
        print(f"\non the disk:\n{sizes}")
        machine.poweroff()
    finally:
        machine.kill()
