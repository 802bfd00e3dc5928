"""`wordtable run` as systemd runs it: READY, the watchdog petted by the loop, SIGTERM a clean stop."""

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.journal import Journal
from firmware_host.paths import journal_path

pytestmark = pytest.mark.slow  # runs the service in a subprocess

ROOT = Path(__file__).resolve().parent.parent


def test_run_notifies_pets_the_watchdog_and_stops_cleanly_on_sigterm(tmp_path):
    address = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(15)
    env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="400000", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_host", "run", "--profile", "sim", "--state-dir", str(tmp_path / "state")],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        messages = []
        while sum(m == "WATCHDOG=1" for m in messages) < 3:  # idle: the loop still wakes to pet the watchdog
            messages += sock.recv(4096).decode().split("\n")
        assert any(m == "READY=1" for m in messages)
        assert messages.index("READY=1") < messages.index("WATCHDOG=1")
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=15)
        assert proc.returncode == 0, err
        assert "stopped" in err
        messages += sock.recv(4096).decode().split("\n")
        assert "STOPPING=1" in messages
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    with Journal.open(journal_path(tmp_path / "state"), readonly=True) as journal:  # the service kept its session
        assert [game.game for game in journal.games()] == ["appliance"]


def test_run_with_a_bad_profile_lists_every_error_and_exits_2(tmp_path):
    profile = tmp_path / "bad.toml"
    text = (ROOT / "hw" / "profiles" / "sim.toml").read_text()
    profile.write_text(text.replace("start = 26", "start = 5").replace('driver = "dummy"', 'driver = "oled9000"'))
    result = subprocess.run([sys.executable, "-m", "firmware_host", "run", "--profile", str(profile)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "buttons.start" in result.stderr and "led_bar.pins[0]" in result.stderr
    assert "display.driver" in result.stderr
    assert "Traceback" not in result.stderr
