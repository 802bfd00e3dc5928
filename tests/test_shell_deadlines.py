"""The loop's deadlines are one list — the core's wake-up, the next page of a long text, the panel's dimming,
and any added later: `run` waits until the earliest on the real clock, `advance` moves a virtual clock
through them, each acting in the list's order when several are due at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from firmware_host.core import app
from firmware_host.core.events import Button, Press
from firmware_host.core.settings import Settings
from firmware_host.panel import DIM_CONTRAST
from firmware_host.shell import Deadline, Outputs, Shell, VirtualClock, advance, advance_once
from tests.test_word_check import Null, Recorder


def bare_shell(clock: Callable[[], float]) -> Shell:
    null = Null()
    outputs = Outputs(bar=null, sounder=null, display=null, renderer=lambda s, size, page=0: None,
                      pager=lambda s, size: 1, save_settings=lambda settings: None, power_off=lambda: None,
                      on_frame=lambda screen, image: None, on_sound=lambda pattern, notes: None,
                      keep=lambda name, data: None, check_words=lambda words: None,
                      word_lists=lambda language: None, owner_pin=lambda pin: None)
    state, effects = app.initial(Settings(), clock())
    shell = Shell(state, outputs, clock=clock, journal=Recorder())
    shell.start(effects)
    return shell


class Once:
    """A deadline source that is due once, at `at`, and records when it acted."""

    def __init__(self, at: float | None) -> None:
        self.at = at
        self.acted: list[float] = []

    def deadline(self) -> Deadline:
        return Deadline("once", lambda: self.at, self.act)

    def act(self, now: float) -> None:
        self.acted.append(now)
        self.at = None


def test_an_added_deadline_acts_at_its_moment_after_the_wake_up_due_then() -> None:
    clock = VirtualClock(0.0)
    shell = bare_shell(clock)
    shell.handle(Press(Button.START, 0.0))  # the sand runs: the core asks to be woken
    wake = shell.wake_at
    assert wake is not None and wake > 0.0
    once = Once(wake)
    shell.add_deadline(once.deadline())
    assert shell.next_due() == wake
    assert advance_once(shell, clock, wake)
    assert clock.now == wake and once.acted == []  # the core's wake-up first
    assert shell.wake_at is not None and shell.wake_at > wake
    assert advance_once(shell, clock, wake)
    assert once.acted == [wake]
    assert not advance_once(shell, clock, wake) and clock.now == wake


def test_advance_leaves_a_deadline_after_its_end_alone() -> None:
    clock = VirtualClock(0.0)
    shell = bare_shell(clock)
    once = Once(30.0)
    shell.add_deadline(once.deadline())
    advance(shell, clock, 29.5)
    assert clock.now == 29.5 and once.acted == []
    advance(shell, clock, 40.0)
    assert once.acted == [30.0] and clock.now == 40.0


def test_the_panel_dims_on_the_virtual_clock_at_its_moment_without_an_input(make_sim, tmp_path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[screen]\ndim_after_min = 2\nblank_after_min = 3\n", encoding="utf-8")
    sim = make_sim(state_dir=tmp_path / "state", config=config)
    panel = sim.appliance.shell.panel
    start = sim.clock.now
    sim.wait_until(start + 119.5)
    assert panel.level == 255 and not panel.blank
    sim.wait_until(start + 150.0)
    assert panel.level == DIM_CONTRAST and not panel.blank
    sim.wait_until(start + 200.0)
    assert panel.blank and panel.next_at() is None


def test_run_wakes_for_an_added_deadline_when_nothing_else_is_due() -> None:
    shell = bare_shell(time.monotonic)
    assert shell.next_due() is None  # idle: without the deadline the loop would block on the queue
    once = Once(time.monotonic() + 0.05)
    due = once.at
    shell.add_deadline(Deadline("stop", lambda: once.at, lambda now: (once.act(now), shell.stop())))
    loop = threading.Thread(target=shell.run, daemon=True)
    loop.start()
    loop.join(timeout=10.0)
    if loop.is_alive():  # never woken: end it before failing
        shell.stop()
        loop.join(timeout=10.0)
    assert len(once.acted) == 1 and due is not None and once.acted[0] >= due
