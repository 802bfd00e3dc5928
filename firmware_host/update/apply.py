"""`wordtable update`'s steps, in this order, each failure said with its reason and nothing switched:

1. check the release file against its manifest (`release.unpack_release`) and that it is for this machine;
2. say what would change (versions, packages added, removed, changed) — all of `--check-only`;
3. install it into a new environment `releases/<release>` offline (`pip --no-index --find-links`, the
   lock's hashes checked), complete once its manifest is written into it;
4. run the new release's health check (`wordtable health`) against a *copy* of the state directory, as
   the service's user when run as root: the real journal is never opened by the new release here;
5. switch `current` to it on trial (`layout.Layout.switch`) and restart the service; the start guard
   (systemd/wordtable-guard) goes back to `previous` by itself if it then fails to start twice;
6. keep `current` and `previous`, remove older releases.

Runs as root on the box (it writes /opt/wordtable); every path is a parameter, so tests use a fake root.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_host.network.files import PROFILES_DIR
from firmware_host.update.health import HEALTHY
from firmware_host.update.layout import Layout
from firmware_host.update.packages import RELEASE_JSON, compare, installed
from firmware_host.update.release import Unpacked, pip_env, unpack_release

log = logging.getLogger("wordtable.update")

SERVICE_USER = "wordtable"
HEALTH_TIMEOUT_S = 600.0  # a Pi Zero 2 W opens a long journal slowly; an emulated Pi slower still


class UpdateError(Exception):
    """An update that stopped; nothing was switched. The message says which step and why."""


@dataclass(frozen=True, slots=True)
class Box:
    """Where the update works: the releases, the state directory the service uses, its config."""

    layout: Layout
    state_dir: Path
    config: Path | None
    python: str  # the interpreter new environments are made with (the system's python3)


def update(file: Path, box: Box, *, check_only: bool, restart: Callable[[], None], say: Callable[[str], None]) -> bool:
    """Carry out steps 1–6 (1–2 with `check_only`); False when nothing was to be done. Raises
    UpdateError (or ReleaseError) when a step fails, with nothing switched."""
    old_venv = box.layout.prefix / "venv"
    if old_venv.is_dir() and not old_venv.is_symlink():
        raise UpdateError(f"{box.layout.prefix} has the layout from before releases (one {old_venv}): run "
                          "systemd/install.sh from a checkout once, it sets up releases and the start guard")
    box.layout.releases.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".unpack-", dir=box.layout.releases) as work:
        unpacked = unpack_release(file, Path(work))
        manifest = unpacked.manifest
        machine = os.uname().machine
        if manifest.machine != machine:
            raise UpdateError(f"{file.name} is a release for {manifest.machine}; this machine is {machine}")
        current = box.layout.pointed("current")
        old = installed(box.layout.release_dir(current)) if current else {}
        say(f"installed: {current or 'nothing'} (wordtable {old.get('wordtable', '?')})")
        say(f"in {file.name}: {manifest.release} (wordtable {manifest.version}, {len(manifest.packages)} packages,"
            f" every member checked)")
        for line in compare(old, manifest.packages).lines():
            say(line)
        if manifest.release == current:
            say("that release is running already: nothing to do")
            return False
        if check_only:
            say("--check-only: nothing changed")
            return False
        target = _install(unpacked, box)
    check_health(target, box, say)
    box.layout.rolled_back.unlink(missing_ok=True)
    old_current = box.layout.switch(manifest.release)
    say(f"switched: current -> {manifest.release} (on trial; previous -> {old_current or 'none'})")
    restart()
    removed = prune(box.layout)
    if removed:
        say(f"removed old releases: {', '.join(removed)}")
    return True


def _install(unpacked: Unpacked, box: Box) -> Path:
    """The release's environment, made where it stays (a venv's scripts name its path); complete once its
    manifest is written into it, last: one without is an interrupted install and made again."""
    release = unpacked.manifest.release
    target = box.layout.release_dir(release)
    if (target / RELEASE_JSON).is_file() and (target / "bin" / "wordtable").exists():
        log.info("release %s is installed already (kept as previous): used again", release)
        return target
    shutil.rmtree(target, ignore_errors=True)
    python = str(target / "bin" / "python")
    offline = ["--no-index", "--find-links", str(unpacked.wheels), "--no-cache-dir", "--quiet"]
    try:
        _step("make the environment", [box.python, "-m", "venv", "--system-site-packages", str(target)])
        _step("install the locked dependencies", [python, "-m", "pip", "install", *offline, "--require-hashes",
                                                   "-r", str(unpacked.lock)])
        _step("install wordtable", [python, "-m", "pip", "install", *offline, "--no-deps",
                                    str(unpacked.project_wheel())])
    except UpdateError:
        shutil.rmtree(target, ignore_errors=True)
        raise
    (target / RELEASE_JSON).write_text(unpacked.manifest.to_json(), encoding="utf-8")
    return target


def _step(what: str, command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=pip_env())
    if done.returncode != 0:
        raise UpdateError(f"{what} failed: {(done.stdout + done.stderr).strip()[-2000:]}")


def check_health(target: Path, box: Box, say: Callable[[str], None]) -> None:
    """Step 4: the release in `target` runs `wordtable health` on a copy of the state directory. Raises
    UpdateError (and removes `target`) unless it answers healthy."""
    user = _service_user()
    with tempfile.TemporaryDirectory(prefix="wordtable-health-") as work:
        copy = Path(work) / "state"
        copy_state(box.state_dir, copy)
        if user is not None:
            for path in [Path(work), *Path(work).rglob("*")]:
                os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)
        command = [str(target / "bin" / "wordtable"), "health", "--state-dir", str(copy)]
        if box.config is not None:
            command += ["--config", str(box.config)]
        env = {key: value for key, value in os.environ.items() if key not in ("NOTIFY_SOCKET", "STATE_DIRECTORY")}
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False, env=env, cwd=work,
                                  timeout=HEALTH_TIMEOUT_S, user=user.pw_uid if user else None,
                                  group=user.pw_gid if user else None, extra_groups=[] if user else None)
        except subprocess.TimeoutExpired as exc:
            shutil.rmtree(target, ignore_errors=True)
            raise UpdateError(f"the health check of {target.name} did not end in {HEALTH_TIMEOUT_S:.0f} s; "
                              "nothing switched, the new environment removed") from exc
    answer = done.stdout.strip().splitlines()
    if done.returncode != 0 or not any(line.startswith(HEALTHY) for line in answer):
        shutil.rmtree(target, ignore_errors=True)
        detail = "\n".join([*answer, *done.stderr.strip().splitlines()[-15:]])
        raise UpdateError(f"the health check of {target.name} failed (exit {done.returncode}); nothing switched, "
                          f"the new environment removed:\n{detail}")
    say(f"health check of {target.name}: {answer[-1]}")


def _service_user() -> pwd.struct_passwd | None:
    """The service's user when run as root (the new release's first start is not root's), else None."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVICE_USER)
    except KeyError:
        return None


def copy_state(source: Path, into: Path) -> None:
    """Copy a state directory the running service may be writing: SQLite files by SQLite's backup (a
    consistent snapshot, WAL included), everything else as files, but not NetworkManager's profiles (the
    Wi-Fi passwords, root's: the copy goes to the service's user); a missing source gives an empty copy."""
    into.mkdir(parents=True)
    if not source.is_dir():
        return
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if relative.parts[0] == PROFILES_DIR:
            continue
        target = into / relative
        if path.is_dir():
            target.mkdir(exist_ok=True)
        elif path.name.endswith(("-wal", "-shm", "-journal")):
            continue
        elif path.suffix in (".sqlite3", ".sqlite", ".db"):
            _sqlite_copy(path, target)
        elif path.is_file():
            shutil.copy2(path, target)


def _sqlite_copy(path: Path, target: Path) -> None:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as source, sqlite3.connect(target) as copy:
            source.backup(copy)
    except sqlite3.Error:  # damaged: the new release must cope with it as the running one did (salvage)
        target.unlink(missing_ok=True)
        shutil.copy2(path, target)


def prune(layout: Layout) -> list[str]:
    """Remove every release but `current` and `previous`; their names."""
    keep = {layout.pointed("current"), layout.pointed("previous")}
    removed = [name for name in layout.installed() if name not in keep]
    for name in removed:
        shutil.rmtree(layout.release_dir(name), ignore_errors=True)
    return removed


def roll_back(layout: Layout, restart: Callable[[], None], say: Callable[[str], None]) -> None:
    """By hand: `current` back to `previous` (and the other way round), no trial; restart."""
    current, previous = layout.pointed("current"), layout.pointed("previous")
    if previous is None or not (layout.release_dir(previous) / "bin" / "wordtable").exists():
        raise UpdateError("there is no previous release to go back to")
    layout.trial.unlink(missing_ok=True)
    layout.point("current", previous)
    if current is not None:
        layout.point("previous", current)
    say(f"rolled back: current -> {previous} (previous -> {current})")
    restart()


def systemctl_restart() -> None:
    """Restart the service; waits for READY (Type=notify). A failed start is reported, not raised: the
    start guard takes it from there."""
    done = subprocess.run(["systemctl", "restart", "wordtable.service"], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        log.error("wordtable.service did not start with the new release (%s); the start guard goes back to "
                  "the previous one after a second failed start", done.stderr.strip() or done.returncode)


def python_for_environments() -> str:
    return "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
