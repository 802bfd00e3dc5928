"""The service with its table page as a child process (tests/helpers/page_service.py: the sim profile's
mock pins, the page on 127.0.0.1) for the tests that drive it from outside: its buttons, its screen, kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


class Service:
    """The child service: `ask` sends one command line and returns its answer line."""

    def __init__(self, state_dir: Path, port: int) -> None:
        self.state_dir, self.port = state_dir, port
        self.start()

    def start(self) -> None:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "tests.helpers.page_service", str(self.state_dir), str(self.port)], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        assert self.child.stdout is not None
        line = self.child.stdout.readline()
        assert line.startswith("ready "), line
        self.url = line.split()[1]

    def ask(self, command: str) -> str:
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(command + "\n")
        self.child.stdin.flush()
        return self.child.stdout.readline().strip()

    def press(self, button: str, times: int = 1) -> None:
        for _ in range(times):
            assert self.ask(f"press {button}") == "done"

    @property
    def code(self) -> str:
        return self.ask("code").split()[1]

    @property
    def screen(self) -> str:
        return self.ask("screen").removeprefix("screen ")

    def wait_screen(self, text: str, timeout: float = 10.0) -> str:
        """The box's screen once it shows `text` (the page answers a phone before the box's loop has
        handled what the phone sent); fails after `timeout` with the screen it shows."""
        deadline = time.monotonic() + timeout
        while text not in (screen := self.screen):
            assert time.monotonic() < deadline, screen
            time.sleep(0.05)
        return screen

    def kill(self) -> None:
        self.child.send_signal(signal.SIGKILL)
        self.child.wait(10)

    def stop(self) -> None:
        if self.child.poll() is None:
            self.ask("quit")
            self.child.wait(10)
