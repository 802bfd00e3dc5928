"""kill -9 in the middle of a session, restart: every acknowledged event is there, the state matches."""

import os
import random
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.events import Resumed
from firmware_host.core.settings import Settings
from tests.helpers.killable import session_events

pytestmark = pytest.mark.slow  # kills a child process

ROOT = Path(__file__).resolve().parent.parent


def expected_state(acked: int) -> app.AppState:
    """The state a fresh appliance reaches after the first `acked` events, then a restart."""
    state, _ = app.initial(Settings())
    clock = 0.0
    for pause, make in session_events()[:acked]:
        clock += pause
        state, _ = app.step(state, make(clock))
    return app.step(state, Resumed(0.0))[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sigkill_at_a_random_point_loses_no_acknowledged_event(tmp_path, make_sim, seed):
    stop_after = random.Random(seed).randrange(5, len(session_events()) - 5)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.killable", str(tmp_path)], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    acked = -1
    for line in child.stdout:
        acked = int(line.split()[1])
        if acked >= stop_after:
            child.send_signal(signal.SIGKILL)
            break
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.read()
    sim = make_sim()
    resumed = sim.state
    want = expected_state(acked + 1)
    # Events past the last "ack" may also have been journaled (killed between journal and print).
    candidates = [want, expected_state(acked + 2)]
    # The footer is a passing notice ("Fortgesetzt …" or the last change); the rest must match.
    assert any(
        resumed.board == w.board and replace(app.screen(resumed), footer="") == replace(app.screen(w), footer="")
        and resumed.timer.left(resumed.now) == pytest.approx(w.timer.left(w.now))
        for w in candidates
    ), (app.screen(resumed), app.screen(want))

