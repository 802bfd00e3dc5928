"""Shared helpers for the hardware tests: profile text edits and bounded polling (no fixed sleeps)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

DEFAULT_TOML = (Path(__file__).parent.parent / "hw" / "profiles" / "default.toml").read_text(encoding="utf-8")


def edited(old: str, new: str, text: str = DEFAULT_TOML) -> str:
    """The default profile with one exact line replaced (fails loudly if the line is not there)."""
    assert old in text, old
    return text.replace(old, new, 1)


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll `condition` until true or `timeout` seconds passed; returns the last result."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.002)
    return True
