"""The systemd notify protocol (sd_notify(3)) in the standard library: readiness, watchdog, status.

Every call is a no-op returning False when the program does not run under systemd (no $NOTIFY_SOCKET)
and never raises: a failed notification is logged, the loop goes on. With `Type=notify` and
`WatchdogSec=`, call `ready()` once the first frame is shown, `watchdog()` from the loop at least every
`watchdog_interval()` seconds (it returns half of WatchdogSec, the interval sd_watchdog_enabled(3)
recommends), and `stopping()` when a clean stop begins.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger("wordtable.sdnotify")


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send one datagram of `KEY=value` lines to $NOTIFY_SOCKET. True when it was sent."""
    address = (os.environ if env is None else env).get("NOTIFY_SOCKET", "")
    if address.startswith("@"):
        address = "\0" + address[1:]  # the abstract namespace
    elif not address.startswith("/"):
        return False  # not under systemd (or a vsock address, which a Pi service never gets)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("cannot notify systemd at %r: %s", address, exc)
        return False
    return True


def ready(status: str | None = None) -> bool:
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def watchdog() -> bool:
    return notify("WATCHDOG=1")


def stopping() -> bool:
    return notify("STOPPING=1")


def status(text: str) -> bool:
    return notify("STATUS=" + text.replace("\n", " "))


def extend_timeout(seconds: float) -> bool:
    """Ask for more time to start or stop (e.g. a long journal replay)."""
    return notify(f"EXTEND_TIMEOUT_USEC={int(seconds * 1_000_000)}")


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between `watchdog()` calls (half of WatchdogSec), or None when no watchdog watches us."""
    environ = os.environ if env is None else env
    pid = environ.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None  # the watchdog is meant for another process (we were started by the service)
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2_000_000 if usec > 0 else None
