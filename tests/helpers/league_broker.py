"""Debian's Mosquitto as a venue runs it: Debian's own /etc/mosquitto/mosquitto.conf with its paths moved
into a directory of the test's, including a conf.d that holds exactly the snippet `wordtable league acl`
generated — nothing kinder. Run as root it drops to the user `mosquitto`, as on the Pi, so the directory
is one that user can enter. Skips the test without mosquitto."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.helpers.broker import MOSQUITTO

DEBIAN_CONF = Path("/etc/mosquitto/mosquitto.conf")
DEBIAN_DEFAULT = """pid_file /run/mosquitto/mosquitto.pid
persistence true
persistence_location /var/lib/mosquitto/
log_dest file /var/log/mosquitto/mosquitto.log
include_dir /etc/mosquitto/conf.d
"""


def broker_directory() -> Path:
    """A fresh directory under /tmp the broker's user can enter (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="wordtable-league-", dir="/tmp"))
    path.chmod(0o755)
    return path


class GeneratedBroker:
    def __init__(self, directory: Path, snippet: Path, port: int) -> None:
        if MOSQUITTO is None:
            pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
        self.directory, self.port = directory, port
        self.url = f"mqtt://127.0.0.1:{port}"
        for name in ("conf.d", "data", "log", "run"):
            (directory / name).mkdir(parents=True, exist_ok=True)
        shutil.copy(snippet, directory / "conf.d" / snippet.name)
        if os.geteuid() == 0:  # the broker drops to "mosquitto": its data, log and pid are its own
            user = pwd.getpwnam("mosquitto")
            for name in ("data", "log", "run"):
                os.chown(directory / name, user.pw_uid, grp.getgrnam("mosquitto").gr_gid)
        moved = {"pid_file": f"{directory}/run/mosquitto.pid", "persistence_location": f"{directory}/data/",
                 "log_dest": f"file {directory}/log/mosquitto.log", "include_dir": f"{directory}/conf.d"}
        debian = DEBIAN_CONF.read_text() if DEBIAN_CONF.is_file() else DEBIAN_DEFAULT
        lines = []
        for line in debian.splitlines():
            key = line.split(" ", 1)[0]
            lines.append(f"{key} {moved[key]}" if key in moved else line)
        self.config = directory / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> GeneratedBroker:
        assert MOSQUITTO is not None
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, cwd=self.directory)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited {self.process.returncode}: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)

    def log(self) -> str:
        path = self.directory / "log" / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""
