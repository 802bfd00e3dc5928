"""The shell's observers of the state (the table page, the league): each is called with the state after
every handled event, in the order they came, and each on its own — one that raises is logged and neither
stops the table nor the observers after it."""

from __future__ import annotations

import logging

import pytest

from firmware_host.core import app
from firmware_host.core.events import Button, Press
from firmware_host.shell import Shell
from tests.test_word_check import shell_with


def test_every_observer_sees_the_state_after_each_event_in_the_order_they_came() -> None:
    shell = shell_with(lambda words: None)
    seen: list[tuple[str, app.AppState]] = []
    shell.observe(lambda state: seen.append(("first", state)))
    shell.observe(lambda state: seen.append(("second", state)))
    shell.handle(Press(Button.MENU, 5.0))
    assert seen == [("first", shell.state), ("second", shell.state)]
    shell.handle(Press(Button.MENU, 5.0))
    assert [name for name, _ in seen] == ["first", "second"] * 2 and seen[-1][1] is shell.state


def test_an_observer_that_fails_is_logged_and_stops_neither_the_table_nor_the_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    shell: Shell = shell_with(lambda words: None)
    seen: list[app.AppState] = []

    def broken(state: app.AppState) -> None:
        raise RuntimeError("the page went away")

    shell.observe(broken)
    shell.observe(seen.append)
    after: list[app.AppState] = []
    with caplog.at_level(logging.ERROR, logger="wordtable"):
        for _ in range(2):
            shell.handle(Press(Button.MENU, 5.0))  # the menu opens, then closes again
            after.append(shell.state)
    assert seen == after and after[0] != after[1]
    failures = [record for record in caplog.records if record.exc_info and "publishing the state" in record.message]
    assert len(failures) == 2 and "the page went away" in str(failures[0].exc_info[1])  # type: ignore[index]
