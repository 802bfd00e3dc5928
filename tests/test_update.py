"""`wordtable update` end to end on this machine, with real release files and real environments (issue 41's
acceptance, short of the emulated Pi: tests/test_image_update.py): a fake /opt/wordtable, a state
directory with a Quiddler game in progress, and the unit's life emulated — the start guard before each
start, `wordtable run` on mock pins with $NOTIFY_SOCKET, the guard's `ready` after READY=1 and its `stop`
with systemd's $SERVICE_RESULT.

- a good release: --check-only changes nothing; the update switches, the game resumes from the journal;
- a release that cannot start (its CLI raises at import): the health check refuses it, nothing switched;
- a release that passes the check but whose `run` fails: switched on trial, two failed starts, and the
  guard's third start runs the previous release;
the journal and the game intact every time. Building the releases needs pip and an index (as install.sh).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.update.layout import Layout
from firmware_host.update.release import build_release, this_machine

pytestmark = pytest.mark.slow  # pip, virtual environments, the service in subprocesses: minutes

SRC = Path(__file__).resolve().parents[1]
GUARD = SRC / "systemd" / "wordtable-guard"
QUIDDLER_ROUND_1 = "choose Quiddler\npress next\n" + "press start\n" * 5 + "expect ging raus\n"
IGNORED = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build", "dist", ".*_cache",
                                 ".hypothesis", "sim-state", "docs", "tests", "bench", "wiring")


def _source(work: Path, name: str, version: str, broken: dict[str, str] | None = None) -> Path:
    tree = work / name
    shutil.copytree(SRC, tree, ignore=IGNORED)
    for relative, old, new in (("pyproject.toml", 'version = "0.1.0"', f'version = "{version}"'),
                               ("firmware_host/__init__.py", '__version__ = "0.1.0"', f'__version__ = "{version}"')):
        path = tree / relative
        path.write_text(path.read_text().replace(old, new, 1))
    for relative, line in (broken or {}).items():
        path = tree / relative
        text = path.read_text()
        head, _, tail = text.partition("from __future__ import annotations\n")
        path.write_text(f"{head}from __future__ import annotations\n{line}\n{tail}")
    return tree


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("releases")
    cache = work / "wheels"
    made = {}
    for name, version, broken in (
        ("old", "0.1.0", None),
        ("good", "0.1.1", None),
        ("cannot-start", "0.1.2", {"firmware_host/cli.py": 'raise RuntimeError("broken release")'}),
        ("fails-at-run", "0.1.3", {"firmware_host/commands/run.py": 'raise RuntimeError("broken run")'}),
    ):
        made[name] = work / f"{name}.wtrelease"
        build_release(_source(work, name, version, broken), made[name], target=this_machine(), wheel_cache=cache)
    return made


def wordtable(layout: Layout, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(layout.prefix / "current" / "bin" / "wordtable"), *args], capture_output=True,
                          text=True, check=False, timeout=300)


def update(layout: Layout, state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host", "update", *args, "--prefix", str(layout.prefix),
                           "--state-dir", str(state), "--python", sys.executable, "--no-restart"],
                          capture_output=True, text=True, check=False, cwd=SRC, timeout=900)


def guard(layout: Layout, step: str, result: str = "") -> str:
    env = {"PATH": os.environ["PATH"], "WORDTABLE_PREFIX": str(layout.prefix), "WORDTABLE_PROBATION_S": "0",
           **({"SERVICE_RESULT": result} if result else {})}
    done = subprocess.run(["sh", str(GUARD), step], capture_output=True, text=True, env=env, check=True)
    return done.stderr


def service_start(layout: Layout, state: Path, tmp_path: Path) -> bool:
    """One start of the unit, emulated; True when READY came (then a clean stop), False when it failed."""
    guard(layout, "start")
    address = tmp_path / "notify.sock"
    address.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(str(address))
        notify.settimeout(1.0)
        child = subprocess.Popen(
            [str(layout.prefix / "current" / "bin" / "wordtable"), "run", "--profile", "sim", "--state-dir",
             str(state)], env={**os.environ, "NOTIFY_SOCKET": str(address)}, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        ready = False
        for _ in range(120):
            try:
                ready = b"READY=1" in notify.recv(4096)
            except TimeoutError:
                ready = False
            if ready or child.poll() is not None:
                break
    if not ready:
        child.kill()
        child.wait()
        guard(layout, "stop", "exit-code")
        return False
    guard(layout, "ready")
    child.send_signal(signal.SIGTERM)
    assert child.wait(30) == 0
    guard(layout, "stop", "success")
    return True


def export(layout: Layout, state: Path) -> str:
    done = wordtable(layout, "journal", "export", "--state-dir", str(state))
    assert done.returncode == 0, done.stderr
    return done.stdout


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def box(tmp_path: Path, releases: dict[str, Path]) -> Iterator[tuple[Layout, Path]]:
    """The old release installed and confirmed, and a Quiddler game in progress in its journal."""
    layout, state = Layout(tmp_path / "opt"), tmp_path / "state"
    done = update(layout, state, str(releases["old"]))
    assert done.returncode == 0, done.stderr
    assert service_start(layout, state, tmp_path) and layout.on_trial() is None
    (tmp_path / "setup.script").write_text(QUIDDLER_ROUND_1)
    played = wordtable(layout, "sim", "--profile", "sim", "--script", str(tmp_path / "setup.script"),
                       "--state-dir", str(state))
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-2000:]
    yield layout, state


def test_a_good_release_is_checked_then_installed_and_the_game_resumes(box, releases, tmp_path) -> None:
    layout, state = box
    game = export(layout, state)
    assert '"quiddler"' in game.lower()
    before = sorted(str(p) for p in layout.prefix.rglob("*"))
    checked = update(layout, state, str(releases["good"]), "--check-only")
    assert checked.returncode == 0, checked.stderr
    assert "changed wordtable 0.1.0 -> 0.1.1" in checked.stderr and "nothing changed" in checked.stderr
    assert sorted(str(p) for p in layout.prefix.rglob("*")) == before

    journal = digest(state / "journal.sqlite3")
    done = update(layout, state, str(releases["good"]))
    assert done.returncode == 0, done.stderr
    assert "healthy: wordtable 0.1.1, journal opened and replayed, first frame drawn" in done.stderr
    assert digest(state / "journal.sqlite3") == journal  # the check ran on a copy
    new = layout.pointed("current")
    assert new is not None and new.startswith("0.1.1-") and layout.on_trial() == new
    assert (layout.pointed("previous") or "").startswith("0.1.0-")
    assert service_start(layout, state, tmp_path)
    assert layout.on_trial() is None and layout.pointed("current") == new  # confirmed
    assert wordtable(layout, "--version").stdout.strip() == "wordtable 0.1.1"
    assert export(layout, state) == game  # the game in progress, every line of it


def test_a_release_that_cannot_start_is_refused_by_the_health_check(box, releases, tmp_path) -> None:
    layout, state = box
    game, current = export(layout, state), layout.pointed("current")
    journal = digest(state / "journal.sqlite3")
    done = update(layout, state, str(releases["cannot-start"]))
    assert done.returncode == 1
    assert "the health check of 0.1.2-" in done.stderr and "nothing switched" in done.stderr
    assert "broken release" in done.stderr  # the reason, from the new release's own words
    assert layout.pointed("current") == current and layout.on_trial() is None
    assert [name for name in layout.installed() if name.startswith("0.1.2-")] == []  # its environment removed
    assert digest(state / "journal.sqlite3") == journal and export(layout, state) == game


def test_a_release_that_fails_at_start_is_rolled_back_by_the_guard(box, releases, tmp_path) -> None:
    layout, state = box
    game, old = export(layout, state), layout.pointed("current")
    done = update(layout, state, str(releases["fails-at-run"]))
    assert done.returncode == 0, done.stderr  # `wordtable health` works: only `run` is broken
    broken = layout.pointed("current")
    assert broken is not None and broken.startswith("0.1.3-") and layout.on_trial() == broken
    assert not service_start(layout, state, tmp_path)
    assert not service_start(layout, state, tmp_path)
    assert layout.pointed("current") == broken  # two failed starts so far
    assert service_start(layout, state, tmp_path)  # the third: the guard went back first
    assert layout.pointed("current") == old
    assert f"release {broken} failed to start 2 times: back to {old}" in layout.rolled_back.read_text()
    assert export(layout, state) == game
