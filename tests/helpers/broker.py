"""A real Mosquitto broker for the league's tests: on 127.0.0.1, on a free port, with a generated config
(persistence in its own directory; optional password file and ACL), with the queue and packet limits of the
config `wordtable league acl` generates for a venue of `tables` tables. Skips the test without mosquitto."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from firmware_host.league.acl import MAX_INFLIGHT, MAX_PACKET, MAX_QUEUED_BYTES, queue_limit
from tests.helpers.ports import free_port

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)


class Broker:
    def __init__(self, directory: Path, *, password_file: Path | None = None, acl_file: Path | None = None,
                 tables: int = 12) -> None:
        if MOSQUITTO is None:
            pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        lines = [
            f"listener {self.port} 127.0.0.1",
            *(["user root"] if os.geteuid() == 0 else []),  # else it drops to "mosquitto": no access to directory
            "persistence true",
            f"persistence_location {directory}/",
            f"log_dest file {directory}/mosquitto.log",
            "log_type error",
            "log_type warning",
            "log_type notice",
            # the limits `wordtable league acl` writes for a venue (never kinder than what ships)
            f"max_queued_messages {queue_limit(tables)}",
            f"max_queued_bytes {MAX_QUEUED_BYTES}",
            f"max_inflight_messages {MAX_INFLIGHT}",
            f"max_packet_size {MAX_PACKET}",
        ]
        if password_file is not None:
            lines += ["allow_anonymous false", f"password_file {password_file}"]
        else:
            lines += ["allow_anonymous true"]
        if acl_file is not None:
            lines += [f"acl_file {acl_file}"]
        self.config = directory / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Broker:
        assert MOSQUITTO is not None
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def kill(self) -> None:
        """A crash: SIGKILL, no goodbye to anyone."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def log(self) -> str:
        path = self.directory / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""
