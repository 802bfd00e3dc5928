"""Starts that fail, each set up as a user meets it, and what the mock OLED shows then (issue 11).

`start_image(case, tmp)` really starts: `wordtable run` in-process (the config cases) or the appliance on
the sim profile (the state-directory cases), and returns the frame on luma's dummy panel; None when the
case cannot be set up on this machine (a size-limited tmpfs needs root). `tests/test_startup_failures.py`
compares the frames with `tests/reference/startup_<case>_128x64.png`; `python -m tests.update_references`
writes them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

from PIL import Image

CASES = ("config_nested", "config_huge", "state_readonly", "state_full", "state_missing")
EXIT_CODES = {"config_nested": 2, "config_huge": 2}  # the others start (unsaved) and run


def start_image(case: str, tmp: Path) -> tuple[Image.Image, str] | None:
    """The frame shown after a start in `case` and the screen as text (or None: not possible here)."""
    if case.startswith("config_"):
        return _run_with_config(case, tmp)
    with _state_dir(case, tmp) as state:
        if state is None:
            return None
        return _start_sim(state)


def _run_with_config(case: str, tmp: Path) -> tuple[Image.Image, str]:
    from luma.core.device import dummy

    from firmware_host.commands import run

    config = tmp / "config.toml"
    if case == "config_nested":
        config.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    else:
        config.write_text('[appliance]\nlanguage = "' + "x" * 10_000_000 + '"\n')
    device = dummy(width=128, height=64, mode="1")
    args = argparse.Namespace(profile="sim", config=config, state_dir=tmp / "state")
    code = run.run(args, display_device=device)
    assert code == EXIT_CODES[case], code
    return device.image.copy(), f"exit {code}"


@contextlib.contextmanager
def _state_dir(case: str, tmp: Path) -> Iterator[Path | None]:
    if case == "state_missing":  # the config's state_dir lies under a file: it cannot be made
        blocker = tmp / "not-a-directory"
        blocker.write_text("")
        yield blocker / "wordtable"
    elif case == "state_readonly":
        state = tmp / "readonly"
        state.mkdir()
        locked = _lock(state)
        try:
            yield state
        finally:
            _unlock(state, locked)
    else:  # state_full: a 16 KiB tmpfs, filled
        state = tmp / "full"
        state.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(state)],
                          capture_output=True, check=False).returncode != 0:
            yield None
            return
        try:
            with contextlib.suppress(OSError), (state / "filler").open("wb") as filler:
                filler.write(b"\0" * 64 * 1024)
            yield state
        finally:
            subprocess.run(["umount", str(state)], capture_output=True, check=False)


def _lock(directory: Path) -> str:
    """Make `directory` read-only even for root (chattr +i); plain permissions for anyone else."""
    if os.geteuid() == 0 and subprocess.run(["chattr", "+i", str(directory)], capture_output=True,
                                            check=False).returncode == 0:
        return "chattr"
    directory.chmod(0o500)
    return "chmod"


def _unlock(directory: Path, how: str) -> None:
    if how == "chattr":
        subprocess.run(["chattr", "-i", str(directory)], capture_output=True, check=False)
    else:
        directory.chmod(0o700)


def _start_sim(state: Path) -> tuple[Image.Image, str]:
    from firmware_host.config import resolve
    from firmware_host.simulator import Simulator

    sim = Simulator(resolve("sim", None, environ={}), state)
    try:
        return sim.image.copy(), sim.screen_text()
    finally:
        sim.close()
