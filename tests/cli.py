"""The program as a user runs it: `python -m firmware_host ARGS` in a subprocess, from the checkout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def wordtable(*args: str, cwd: Path = ROOT, timeout: float = 120, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run `wordtable ARGS` (stdin empty unless given); the result has text stdout and stderr."""
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run([sys.executable, "-m", "firmware_host", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False, **kwargs)
