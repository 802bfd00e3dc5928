"""Fixtures shared by the tests: the simulator on the sim profile, gpiozero's mock pins, the pure app.

Plain helpers that are no fixture's shape live beside this file: tests/cli.py (the program in a
subprocess), tests/game_scripts.py (the documented game scripts), tests/hwhelpers.py, tests/screens.py.
Slow tests (whole games, subprocesses, hypothesis, crash and resume) are marked `slow`: `python -m pytest
-m "not slow"` is the inner loop, which does not even import a module marked slow as a whole; CI runs them all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from firmware_host.config import Resolved
    from firmware_host.simulator import Simulator
    from tests.game_scripts import PureApp


# `WORDTABLE_EMULATED=qemu-user` (set by .ci/arm64 for the arm64 root): every step runs 5-20 times slower and
# unevenly, so hypothesis has no per-example deadline there and no too-slow health check, and the tests marked
# `realtime` (they measure windows of real time too short for an emulated CPU) are skipped with their reason.
EMULATED = os.environ.get("WORDTABLE_EMULATED", "")


def pytest_configure(config: pytest.Config) -> None:
    if EMULATED:
        _load_emulated_hypothesis_profile()
    if os.environ.get("WORDTABLE_UPDATE_REFERENCES"):
        raise pytest.UsageError(
            "WORDTABLE_UPDATE_REFERENCES is gone: the tests only compare. "
            "Write the reference PNGs with `python -m tests.update_references` (tests/reference/README.md)."
        )


def _load_emulated_hypothesis_profile() -> None:
    """Hypothesis's profile under emulation (imported only then: the inner loop does not pay for it)."""
    from hypothesis import HealthCheck, settings

    settings.register_profile("emulated", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("emulated")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not EMULATED:
        return
    for item in items:
        for mark in item.iter_markers("realtime"):
            reason = mark.args[0] if mark.args else "measures real time"
            item.add_marker(pytest.mark.skip(reason=f"under {EMULATED}: {reason}"))


SLOW_MODULE = re.compile(r"^pytestmark = pytest\.mark\.slow\b", re.MULTILINE)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under exactly `-m "not slow"` (the inner loop) a test module marked slow as a whole
    (`pytestmark = pytest.mark.slow` at its top level) is not imported: every test in it would be
    deselected, and importing it (Playwright, the league's server, hypothesis) is what collecting it costs."""
    if config.option.markexpr.strip() != "not slow" or not collection_path.name.startswith("test_"):
        return None
    if collection_path.suffix != ".py" or not SLOW_MODULE.search(collection_path.read_text(encoding="utf-8")):
        return None
    return True


@pytest.fixture
def sim_config() -> Resolved:
    """The sim profile with the default settings (no user config, no environment)."""
    from firmware_host.config import resolve

    return resolve("sim", None, environ={})


@pytest.fixture
def make_sim(tmp_path: Path) -> Iterator[Callable[..., Simulator]]:
    """`make_sim(state_dir=tmp_path, config=None)`: a Simulator on the sim profile (mock pins, dummy
    display, virtual clock), with the user config file `config` if given; each is closed at teardown."""
    from firmware_host.config import resolve
    from firmware_host.simulator import Simulator

    made: list[Simulator] = []

    def make(state_dir: Path | None = None, config: Path | None = None, **kwargs: Any) -> Simulator:
        sim = Simulator(resolve("sim", config, environ={}), tmp_path if state_dir is None else state_dir, **kwargs)
        made.append(sim)
        return sim

    yield make
    for sim in made:
        sim.close()  # idempotent: a test may have closed it already


@pytest.fixture
def sim(make_sim: Callable[..., Simulator]) -> Simulator:
    """A Simulator on the sim profile with its state in tmp_path."""
    return make_sim()


@pytest.fixture
def pin_factory() -> MockFactory:
    """gpiozero's mock pins (PWM-capable), fresh for each test."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


@pytest.fixture
def pure_app() -> PureApp:
    """The app alone (`app.step`, no shell, no hardware) as ScriptHooks for `run_script`."""
    from tests.game_scripts import PureApp

    return PureApp()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright, once per module (its module calls `require_browser()`)."""
    from tests.helpers.browser import launch, require_browser

    with require_browser().sync_playwright() as driver:
        chromium = launch(driver)
        yield chromium
        chromium.close()
