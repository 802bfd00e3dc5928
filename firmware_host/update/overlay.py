"""The read-only root of the image (systemd/image/README.md): overlayroot mounts the root's file system
read-only at `LOWER` with a RAM overlay over it as `/`, and `/opt/wordtable` is a bind mount of the lower
file system's own directory (opt-wordtable.mount), so releases written there outlive the boot. An
update writes them: `lifted()` makes the lower file system writable for that time and read-only again
after, as the start guard (systemd/wordtable-guard) does around its own writes. The two overlap (an update
restarts the service, whose guard writes while the update waits for it), so each writer holds a shared
lock on `LOCK` while it writes and only the last one out, the one that gets the lock exclusively, makes
the file system read-only again. Without an overlay (Raspberry Pi OS, a test's fake root) it does nothing."""

from __future__ import annotations

import fcntl
import logging
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger("wordtable.update")

LOWER = Path("/media/root-ro")  # where overlayroot's initramfs script leaves the root's own file system
LOCK = Path("/run/wordtable-root.lock")  # shared by the writers of the lower file system (and the guard's flock)
RO_TRIES = 5  # remount read-only again: a writer still busy (EBUSY) gets this many tries, a second apart


def mounted_read_only(path: Path) -> bool:
    """`path` is a mount point, mounted read-only."""
    return os.path.ismount(path) and bool(os.statvfs(path).f_flag & os.ST_RDONLY)


def remount(path: Path, mode: str) -> None:
    """`mount -o remount,MODE path` (MODE rw or ro); CalledProcessError when it fails."""
    subprocess.run(["mount", "-o", f"remount,{mode}", str(path)], check=True, capture_output=True, text=True)


@contextmanager
def lifted(lower: Path = LOWER, *, lock: Path = LOCK, is_mounted: Callable[[Path], bool] = os.path.ismount,
           is_read_only: Callable[[Path], bool] = mounted_read_only,
           do_remount: Callable[[Path, str], None] = remount, pause: Callable[[float], None] = time.sleep,
           ) -> Iterator[bool]:
    """While inside, the file system at `lower` writable (when it is a mount point: the overlay's lower; else
    nothing is done); after, even on an error, synced, and read-only again unless another writer still holds
    `lock`: that one does it when it leaves. Yields whether `lower` is the overlay's. If it cannot be made
    read-only again it is logged and left writable: the next boot mounts it read-only anyway."""
    if not is_mounted(lower):
        yield False
        return
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_SH)
        if is_read_only(lower):
            do_remount(lower, "rw")
            log.info("the root's file system (%s) writable for the update", lower)
        try:
            yield True
        finally:
            os.sync()
            fcntl.flock(held, fcntl.LOCK_UN)
            try:
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                log.info("the root's file system (%s) stays writable for the other writer", lower)
            else:
                _read_only_again(lower, do_remount, pause)


def _read_only_again(lower: Path, do_remount: Callable[[Path, str], None], pause: Callable[[float], None]) -> None:
    for attempt in range(1, RO_TRIES + 1):
        try:
            do_remount(lower, "ro")
            log.info("the root's file system (%s) read-only again", lower)
            return
        except (subprocess.CalledProcessError, OSError) as exc:
            if attempt == RO_TRIES:
                log.warning("the root's file system (%s) stays writable until the next boot: %s", lower,
                            getattr(exc, "stderr", "") or exc)
            else:
                pause(1.0)
