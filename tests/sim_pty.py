"""The live `wordtable sim` on a pseudo-terminal, as a person at a terminal meets it: a child process whose
terminal this side writes keys into and reads the screen from (drained by a thread, so the child never
blocks on output)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import struct
import sys
import termios
import threading
import time
from pathlib import Path

from firmware_host.core.event_codec import decode
from firmware_host.core.events import Event
from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from firmware_host.shell_journal import INPUT, SESSION


class LiveSim:
    def __init__(self, state_dir: Path, *args: str, size: tuple[int, int] = (80, 24),
                 env: dict[str, str] | None = None) -> None:
        self.state_dir = state_dir
        pid, fd = pty.fork()
        if pid == 0:  # the child: the real command line, on the pty as its terminal (no display unless given)
            os.environ.pop("DISPLAY", None)
            os.environ.pop("WAYLAND_DISPLAY", None)
            os.environ.update(env or {})
            os.execv(sys.executable, [sys.executable, "-m", "firmware_host.cli", "sim",
                                      "--state-dir", str(state_dir), *args])
        self.pid, self.fd = pid, fd
        self.resize(*size)
        self.output = bytearray()
        self._lock = threading.Lock()
        self.exit_status: int | None = None
        threading.Thread(target=self._drain, daemon=True).start()

    def resize(self, columns: int, lines: int) -> None:
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self.output += data

    def text(self) -> str:
        with self._lock:
            return self.output.decode("utf-8", "replace")

    def wait_for(self, needle: str, timeout: float = 20.0, since: int = 0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if needle in self.text()[since:]:
                return True
            time.sleep(0.05)
        return False

    def write(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait_exit(self, timeout: float = 20.0) -> int | None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.exit_status = os.waitstatus_to_exitcode(status)
                return self.exit_status
            time.sleep(0.05)
        return None

    def kill(self) -> None:
        if self.exit_status is None:
            try:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def journal_inputs(self) -> list[Event]:
        """The inputs journaled in the appliance's sessions, oldest first (clock ticks left out)."""
        with Journal.open(journal_path(self.state_dir), readonly=True) as journal:
            sessions = [g.id for g in journal.games() if g.game == SESSION]
            entries = [e for s in sessions for e in journal.events(s, [INPUT])]
        events = [decode(e.payload) for e in sorted(entries, key=lambda e: e.seq)]
        return [e for e in events if type(e).__name__ not in ("Tick", "Resumed")]
