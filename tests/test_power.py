"""Power-off asks logind via busctl and turns a refusal into a clear error."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import pytest

from firmware_host.power import PowerOffError, power_off


def test_power_off_calls_logind_poweroff_non_interactively() -> None:
    calls: list[list[str]] = []

    def run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        calls.append(list(command))
        return subprocess.CompletedProcess(command, 0, "", "")

    power_off(run)
    (command,) = calls
    assert command[0] == "busctl" and "--system" in command
    assert command[command.index("org.freedesktop.login1.Manager") + 1:] == ["PowerOff", "b", "false"]


def test_a_refusal_names_the_reason() -> None:
    def run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "Access denied\n")

    with pytest.raises(PowerOffError, match="refused to power off: Access denied"):
        power_off(run)


def test_a_missing_busctl_is_an_error_not_a_crash() -> None:
    def run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        raise FileNotFoundError(2, "No such file or directory", "busctl")

    with pytest.raises(PowerOffError, match="cannot ask logind"):
        power_off(run)
