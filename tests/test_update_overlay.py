"""The read-only root lifted for an update (firmware_host/update/overlay.py): the lower file system made
writable around the update's writes and read-only again after, even when the update fails; nothing done
without an overlay; a file system that stays busy is left writable (the next boot mounts it read-only)."""

from __future__ import annotations

import contextlib
import subprocess
from pathlib import Path

import pytest

from firmware_host.update.overlay import RO_TRIES, lifted, mounted_read_only

LOWER = Path("/media/root-ro")


class Mounts:
    """A stand-in for mount(8): the calls, and how many read-only remounts fail (busy) before one works."""

    def __init__(self, busy: int = 0) -> None:
        self.calls: list[str] = []
        self.busy = busy

    def remount(self, path: Path, mode: str) -> None:
        self.calls.append(f"{path} {mode}")
        if mode == "ro" and self.busy > 0:
            self.busy -= 1
            raise subprocess.CalledProcessError(32, "mount", stderr="mount point is busy")


def test_a_read_only_lower_is_writable_inside_and_read_only_after(tmp_path: Path) -> None:
    lock = tmp_path / "root.lock"
    mounts = Mounts()
    with lifted(LOWER, lock=lock, is_mounted=lambda path: True, is_read_only=lambda path: True,
                 do_remount=mounts.remount, pause=lambda s: None) as did:
        assert did and mounts.calls == [f"{LOWER} rw"]
    assert mounts.calls == [f"{LOWER} rw", f"{LOWER} ro"]


def test_a_failed_update_still_leaves_it_read_only(tmp_path: Path) -> None:
    lock = tmp_path / "root.lock"
    mounts = Mounts()
    with pytest.raises(RuntimeError), \
            lifted(LOWER, lock=lock, is_mounted=lambda path: True, is_read_only=lambda path: True,
                 do_remount=mounts.remount, pause=lambda s: None):
        raise RuntimeError("the update failed")
    assert mounts.calls[-1] == f"{LOWER} ro"


def test_without_an_overlay_nothing_is_remounted(tmp_path: Path) -> None:
    mounts = Mounts()
    assert not mounted_read_only(tmp_path)  # a directory, no mount point
    with lifted(tmp_path, lock=tmp_path / "root.lock", do_remount=mounts.remount) as did:
        assert not did
    assert mounts.calls == []


def test_a_busy_file_system_is_tried_again_then_left_writable(tmp_path: Path, caplog: pytest.LogCaptureFixture
                                                                  ) -> None:
    lock = tmp_path / "root.lock"
    mounts = Mounts(busy=2)
    with lifted(LOWER, lock=lock, is_mounted=lambda path: True, is_read_only=lambda path: True,
                 do_remount=mounts.remount, pause=lambda s: None):
        pass
    assert mounts.calls.count(f"{LOWER} ro") == 3  # two busy, the third took
    mounts = Mounts(busy=RO_TRIES)
    with lifted(LOWER, lock=lock, is_mounted=lambda path: True, is_read_only=lambda path: True,
                 do_remount=mounts.remount, pause=lambda s: None):
        pass
    assert mounts.calls.count(f"{LOWER} ro") == RO_TRIES
    assert "stays writable until the next boot" in caplog.text


def test_overlapping_writers_leave_it_read_only_only_when_the_last_one_is_out(tmp_path: Path) -> None:
    """The update restarts the service while it holds the root writable; the start guard (flock -s on the
    same lock) writes meanwhile: whichever leaves first must not make it read-only under the other."""
    mounts, lock, state = Mounts(), tmp_path / "root.lock", {"ro": True}

    def remount(path: Path, mode: str) -> None:
        mounts.remount(path, mode)
        state["ro"] = mode == "ro"

    def writer() -> contextlib.AbstractContextManager[bool]:
        return lifted(LOWER, lock=lock, is_mounted=lambda path: True, is_read_only=lambda path: state["ro"],
                      do_remount=remount, pause=lambda s: None)

    with writer():  # the update
        with writer():  # the guard, as the update restarts the service
            pass
        assert not state["ro"] and mounts.calls == [f"{LOWER} rw"]  # the guard left it to the update
        guard = subprocess.Popen(["flock", "-s", str(lock), "sh", "-c", "echo held; cat"],  # the guard's shell
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert guard.stdout is not None and guard.stdout.readline() == b"held\n"
    assert not state["ro"]  # the update out first: the guard still writes
    guard.communicate(b"")  # the guard done
    with writer():
        pass
    assert state["ro"] and mounts.calls == [f"{LOWER} rw", f"{LOWER} ro"]  # the last one out: read-only

