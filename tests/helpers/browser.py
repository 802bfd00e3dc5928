"""Debian's Chromium through Playwright for the browser tests: a test module calls `require_browser()` at
its top level (it is skipped when either is missing); the `browser` fixture (tests/conftest.py) launches
the browser once per module."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def require_browser() -> Any:
    """Playwright's sync API; skips the calling test module without Playwright or the system Chromium."""
    playwright = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip("no system Chromium (apt-get install chromium): the browser tests need one",
                    allow_module_level=True)
    return playwright


def launch(driver: Any) -> Any:
    """The system Chromium, headless, from a running `playwright.sync_playwright()`."""
    return driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
