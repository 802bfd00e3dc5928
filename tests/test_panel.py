"""The OLED's contrast, dimming after idle minutes and the burn-in guard (blank after long idle), set in the
menu and config; any input lights it again, a button on a dark panel only wakes it."""

from __future__ import annotations

import pytest

from firmware_host.core import app
from firmware_host.core.events import Button, Press, TextEntry, Tick
from firmware_host.panel import DIM_CONTRAST, PanelGuard


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def set_contrast(self, level: int) -> None:
        self.calls.append(("contrast", level))

    def set_visible(self, visible: bool) -> None:
        self.calls.append(("visible", visible))


def test_checking_at_the_moment_next_at_names_acts_even_where_the_sum_rounds():
    rec = Recorder()
    guard = PanelGuard(rec)
    guard.configure(200, dim_after_min=2, blank_after_min=0, now=8.01)  # 8.01 + 120 - 8.01 < 120 in floats
    at = guard.next_at()
    assert at is not None
    guard.check(at)  # a loop that wakes exactly then must find it done, or it would wake again and again
    assert guard.level == DIM_CONTRAST and guard.next_at() is None


def test_the_guard_dims_then_blanks_and_wakes_on_input():
    rec = Recorder()
    guard = PanelGuard(rec)
    guard.configure(200, dim_after_min=2, blank_after_min=5, now=0.0)
    assert rec.calls == [("contrast", 200)] and guard.next_at() == 120.0
    guard.check(119.9)
    assert rec.calls[-1] == ("contrast", 200)
    guard.check(120.0)
    assert rec.calls[-1] == ("contrast", DIM_CONTRAST) and guard.next_at() == 300.0
    guard.check(300.0)
    assert rec.calls[-1] == ("visible", False) and guard.next_at() is None
    assert guard.active(301.0) is True  # it was dark
    assert rec.calls[-2:] == [("visible", True), ("contrast", 200)] and guard.next_at() == 421.0


def test_idle_counts_from_the_first_moment_the_guard_is_told_not_from_the_clocks_zero():
    rec = Recorder()  # a monotonic clock is hours past zero when the box starts: no blank, no dim at boot
    guard = PanelGuard(rec)
    guard.configure(255, dim_after_min=10, blank_after_min=60, now=50_000.0)
    assert guard.active(50_000.0) is False
    assert rec.calls == [("contrast", 255)] and guard.next_at() == 50_600.0


def test_never_leaves_the_panel_alone():
    rec = Recorder()
    guard = PanelGuard(rec)
    guard.configure(255, 0, 0, now=0.0)
    guard.check(10**6)
    assert rec.calls == [("contrast", 255)] and guard.next_at() is None


def spy(sim):
    calls = []
    device = sim.appliance.hardware.display.device
    contrast, hide, show = device.contrast, device.hide, device.show
    device.contrast = lambda level: (calls.append(("contrast", level)), contrast(level))
    device.hide = lambda: (calls.append(("hide", None)), hide())
    device.show = lambda: (calls.append(("show", None)), show())
    return calls


def test_on_the_appliance_idle_dims_and_blanks_and_a_button_only_wakes(sim):
    calls = spy(sim)
    s = sim.state.settings
    assert (s.contrast, s.dim_after_min, s.blank_after_min) == (255, 10, 60)
    sim.wait_until(sim.clock.now + 10 * 60 + 1)
    sim.send(Press(Button.NEXT, sim.clock.now))  # woken from dim: the press acts (the next timer length)
    assert ("contrast", DIM_CONTRAST) in calls and sim.state.settings.duration_s == 90
    calls.clear()
    sim.clock.now += 61 * 60
    sim.send(Press(Button.NEXT, sim.clock.now))  # dark: the press only wakes the panel
    assert ("hide", None) in calls and calls[-2:] == [("show", None), ("contrast", 255)]
    assert sim.state.settings.duration_s == 90


@pytest.mark.slow  # 27 minutes of ticks through the whole shell
def test_a_running_timer_keeps_the_panel_lit(sim):
    calls = spy(sim)
    sim.send(TextEntry("15:00", sim.clock.now))
    sim.send(Press(Button.START, sim.clock.now))
    sim.wait_until(sim.clock.now + 11 * 60)
    assert sim.state.timer.running and ("contrast", DIM_CONTRAST) not in calls
    sim.wait_until(sim.clock.now + 5 * 60)  # the time is up (the alarm rings a minute): then idle
    sim.wait_until(sim.clock.now + 11 * 60)
    sim.send(Tick(sim.clock.now))
    sim.appliance.shell.panel.check(sim.clock.now)
    assert ("contrast", DIM_CONTRAST) in calls


def test_contrast_and_idle_times_come_from_menu_and_config(make_sim, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[screen]\ncontrast = 128\ndim_after_min = 2\nblank_after_min = 0\n", encoding="utf-8")
    sim = make_sim(state_dir=tmp_path / "state", config=config)
    assert sim.appliance.shell.panel.level == 128 and sim.appliance.shell.panel.next_at() == sim.clock.now + 120
    labels = {key: value for key, _, value in [(k, label, app.current_value(sim.state, k))
                                               for k, label, _ in app.menu_entries(sim.state, "screen")]}
    assert (labels["contrast"], labels["dim"], labels["blank"]) == ("mittel", "2 min", "nie")
    for event in app.events_to_choose(sim.state, "Helligkeit", sim.clock.now) or []:
        sim.send(event)
    sim.send(Press(Button.NEXT, sim.clock.now))  # medium → bright
    sim.send(Press(Button.START, sim.clock.now))
    assert sim.state.settings.contrast == 255 and sim.appliance.shell.panel.level == 255
