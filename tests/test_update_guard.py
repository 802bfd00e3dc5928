"""The start guard (systemd/wordtable-guard) as the unit runs it around each start — `start` before,
`ready` after READY, `stop` after every stop with systemd's $SERVICE_RESULT — on a fake /opt/wordtable:
two failed starts of a release on trial and the third start runs the previous release."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from firmware_host.update.layout import Layout

pytestmark = pytest.mark.slow  # a shell script in a subprocess per step

GUARD = Path(__file__).resolve().parents[1] / "systemd" / "wordtable-guard"


def _box(tmp_path: Path) -> Layout:
    layout = Layout(tmp_path / "opt")
    for release in ("0.1.0-good", "0.2.0-new"):
        program = layout.release_dir(release) / "bin" / "wordtable"
        program.parent.mkdir(parents=True)
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
    layout.switch("0.1.0-good")
    layout.trial.unlink()  # confirmed long ago
    layout.switch("0.2.0-new")
    return layout


def guard(layout: Layout, step: str, result: str = "", probation: int = 3600, status: str = "") -> str:
    env = {"PATH": os.environ["PATH"], "WORDTABLE_PREFIX": str(layout.prefix), "WORDTABLE_PROBATION_S": str(probation)}
    if result:
        env["SERVICE_RESULT"] = result
    if status:
        env["EXIT_STATUS"] = status
    done = subprocess.run(["sh", str(GUARD), step], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_two_failed_starts_and_the_third_runs_the_previous_release(tmp_path: Path) -> None:
    layout = _box(tmp_path)
    guard(layout, "start")
    guard(layout, "stop", "exit-code")  # crashed before READY
    assert layout.pointed("current") == "0.2.0-new"
    said = guard(layout, "start")
    assert "start 1 failed" in said and layout.pointed("current") == "0.2.0-new"  # one more try
    guard(layout, "stop", "timeout")  # no READY within TimeoutStartSec
    said = guard(layout, "start")
    assert "rolled back to 0.1.0-good" in said
    assert layout.pointed("current") == "0.1.0-good" and layout.on_trial() is None
    assert "0.2.0-new failed to start 2 times" in layout.rolled_back.read_text()
    assert guard(layout, "start") == ""  # the previous release starts as any day


def test_a_power_cut_during_a_start_counts_as_a_failed_start(tmp_path: Path) -> None:
    layout = _box(tmp_path)
    guard(layout, "start")  # no stop: the power went
    guard(layout, "start")
    guard(layout, "start")
    assert layout.pointed("current") == "0.1.0-good"


def test_a_release_that_runs_its_probation_after_ready_is_confirmed(tmp_path: Path) -> None:
    layout = _box(tmp_path)
    guard(layout, "start", probation=0)
    assert "first frame drawn" in guard(layout, "ready", probation=0)
    assert "confirmed" in guard(layout, "stop", "signal", probation=0)  # a crash after the trial: Restart='s
    assert layout.on_trial() is None and layout.pointed("current") == "0.2.0-new"
    for _ in range(3):
        guard(layout, "start", probation=0)
        guard(layout, "stop", "exit-code", probation=0)
    assert layout.pointed("current") == "0.2.0-new"  # confirmed: never rolled back by the guard


def test_a_crash_soon_after_ready_counts_and_a_clean_stop_does_not(tmp_path: Path) -> None:
    layout = _box(tmp_path)
    guard(layout, "start")
    guard(layout, "ready")
    guard(layout, "stop", "success")  # systemctl stop, within the probation: no failure
    guard(layout, "start")
    guard(layout, "ready")
    guard(layout, "stop", "exit-code", status="75")  # a restore from the page asks for a new start
    guard(layout, "start")
    guard(layout, "ready")
    guard(layout, "stop", "core-dump")  # crashed a few seconds after its first frame
    assert "start 1 failed" in guard(layout, "start")
    guard(layout, "ready")
    guard(layout, "stop", "watchdog")
    assert "rolled back" in guard(layout, "start")
    assert layout.pointed("current") == "0.1.0-good"


def test_without_a_previous_release_the_trial_ends_and_current_stays(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "opt")
    layout.releases.mkdir(parents=True)
    layout.switch("0.1.0-first")
    for _ in range(2):
        guard(layout, "start")
        guard(layout, "stop", "exit-code")
    assert "no previous release" in guard(layout, "start")
    assert layout.pointed("current") == "0.1.0-first" and layout.on_trial() is None


def test_a_trial_of_a_release_no_longer_current_is_dropped(tmp_path: Path) -> None:
    layout = _box(tmp_path)
    layout.point("current", "0.1.0-good")  # `wordtable update --rollback` by hand, say
    assert "trial of 0.2.0-new ended" in guard(layout, "start")
    assert layout.on_trial() is None and layout.pointed("current") == "0.1.0-good"
