"""Switching the appliance off ("Ausschalten") without privilege: ask logind over D-Bus.

The service runs as the unprivileged user `wordtable`; the polkit rule `systemd/50-wordtable-poweroff.rules`
(installed by systemd/install.sh) lets exactly that user call org.freedesktop.login1.Manager.PowerOff.
The call goes through `busctl` (part of systemd), so no D-Bus library is needed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence

POWER_OFF_COMMAND = (
    "busctl", "call", "--system", "--timeout=10",
    "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
    "PowerOff", "b", "false",  # interactive=false: never wait for a password prompt
)


class PowerOffError(Exception):
    """logind refused or could not be reached; the message says why (for the log and the OLED)."""


Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=20, check=False)


def power_off(run: Runner = _run) -> None:
    """Ask logind to power the machine off. Returns once asked; raises `PowerOffError` on refusal."""
    try:
        result = run(POWER_OFF_COMMAND)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PowerOffError(f"cannot ask logind to power off: {exc}") from None
    if result.returncode != 0:
        reason = (result.stderr or result.stdout).strip() or f"busctl exit status {result.returncode}"
        raise PowerOffError(f"logind refused to power off: {reason}")
