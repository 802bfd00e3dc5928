"""Fixtures shared by the tests: the simulator on the sim profile, gpiozero's mock pins, the pure app.

Plain helpers that are no fixture's shape live beside this file: tests/cli.py (the program in a
subprocess), tests/game_scripts.py (the documented game scripts), tests/hwhelpers.py, tests/screens.py.
Slow tests (whole games, subprocesses, hypothesis) are marked `slow`: `python -m pytest -m "not slow"`
is the inner loop; CI runs them all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.game_scripts import PureApp

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from firmware_host.config import Resolved
    from firmware_host.simulator import Simulator


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("WORDTABLE_UPDATE_REFERENCES"):
        raise pytest.UsageError(
            "WORDTABLE_UPDATE_REFERENCES is gone: the tests only compare. "
            "Write the reference PNGs with `python -m tests.update_references` (tests/reference/README.md)."
        )


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
    return PureApp()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright, once per module (its module calls `require_browser()`)."""
    from tests.helpers.browser import launch, require_browser

    with require_browser().sync_playwright() as driver:
        chromium = launch(driver)
        yield chromium
        chromium.close()
