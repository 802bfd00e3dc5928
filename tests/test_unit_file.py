"""The systemd unit: it verifies, it rates 2.0 or lower in `systemd-analyze security`, and its sandbox
still lets the service reach GPIO, I2C and the serial ports."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "wordtable.service"
EXEC_START = "/opt/wordtable/current/bin/wordtable"
GUARD = "/usr/local/lib/wordtable/guard"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze is not installed (apt-get install systemd)"
)


def _settings(text: str) -> list[tuple[str, str]]:
    pairs = []
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            pairs.append((key.strip(), value.strip()))
    return pairs


def _verify(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze verify` on `text`, with ExecStart pointed at a stand-in executable of the same
    shape (verify checks that the binary exists, and the venv exists only on an installed Pi)."""
    fake = tmp_path / "venv" / "bin" / "wordtable"
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    unit = tmp_path / "wordtable.service"
    unit.write_text(text.replace(EXEC_START, str(fake)).replace(GUARD, str(fake)))
    return subprocess.run(
        [str(ANALYZE), "verify", "--man=no", str(unit)], capture_output=True, text=True, check=False
    )


@pytest.mark.slow
@needs_analyze
def test_unit_verifies_without_any_message(tmp_path: Path) -> None:
    text = UNIT.read_text()
    assert f"ExecStart={EXEC_START} run" in text
    result = _verify(tmp_path, text)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


@pytest.mark.slow
@needs_analyze
@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("NoNewPrivileges=yes", "NoNewPrivilege=yes", "Unknown key"),
        (f"ExecStart={EXEC_START}", "ExecStart=/nonexistent/wordtable", "/nonexistent/wordtable"),
    ],
)
def test_verify_would_catch_a_broken_unit(tmp_path: Path, old: str, new: str, expected: str) -> None:
    result = _verify(tmp_path, UNIT.read_text().replace(old, new))
    assert expected in result.stderr


@pytest.mark.slow  # a subprocess
@needs_analyze
def test_security_exposure_is_at_most_2() -> None:
    result = subprocess.run(
        [str(ANALYZE), "security", "--offline=yes", "--no-pager", str(UNIT)],
        capture_output=True, text=True, check=False,
    )
    match = re.search(r"Overall exposure level for wordtable\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 2.0, result.stdout


def test_sandbox_still_reaches_gpio_i2c_and_serial() -> None:
    settings = _settings(UNIT.read_text())
    values = dict(settings)
    assert values.get("PrivateDevices", "no") == "no"  # it would hide /dev/gpiochip*, /dev/i2c-*, ttys
    assert values["DevicePolicy"] == "closed"
    grants = [value.split() for key, value in settings if key == "DeviceAllow"]
    allowed = {grant[0] for grant in grants if grant[1:] == ["rw"]}
    assert {"char-gpiochip", "char-i2c", "char-ttyAMA", "char-ttyS", "char-ttyUSB", "char-ttyACM"} <= allowed
    assert values["SupplementaryGroups"].split() == ["gpio", "i2c", "input"]  # serial readers: group wordtable
    assert ["char-input", "r"] in grants  # keyboards and keyboard-mode scanners: read (and grab), never write
    assert values["User"] == "wordtable" and values["StateDirectory"] == "wordtable"
    assert "AF_UNIX" in values["RestrictAddressFamilies"].split()  # sd_notify and the D-Bus power-off


def test_the_start_guard_runs_around_every_start_from_outside_the_releases() -> None:
    settings = _settings(UNIT.read_text())
    commands = {key: value for key, value in settings if key.startswith("Exec")}
    assert commands == {"ExecStartPre": f"+{GUARD} start", "ExecStart": f"{EXEC_START} run",
                        "ExecStartPost": f"+{GUARD} ready", "ExecStopPost": f"+{GUARD} stop"}
    assert not GUARD.startswith("/opt/wordtable/")  # no release can break it


@pytest.mark.slow
@needs_analyze
@pytest.mark.parametrize("name", ["wordtable-update.path", "wordtable-update.service"])
def test_the_update_units_verify(tmp_path: Path, name: str) -> None:
    (tmp_path / "wordtable.service").write_text("[Service]\nExecStart=/bin/true\n")
    text = (UNIT.parent / name).read_text()
    fake = tmp_path / "wordtable"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    unit = tmp_path / name
    unit.write_text(text.replace(EXEC_START, str(fake)))
    if name.endswith(".path"):
        (tmp_path / "wordtable-update.service").write_text("[Service]\nType=oneshot\nExecStart=/bin/true\n")
    result = subprocess.run([str(ANALYZE), "verify", "--man=no", str(unit)], capture_output=True, text=True,
                            check=False, cwd=tmp_path)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def test_service_contract() -> None:
    values = dict(_settings(UNIT.read_text()))
    assert values["Type"] == "notify" and values["NotifyAccess"] == "main"
    assert values["Restart"] == "on-failure" and values["KillSignal"] == "SIGTERM"
    assert "WatchdogSec" in values and "TimeoutStopSec" in values
    assert values["ConfigurationDirectory"] == "wordtable"
    # the alarm at SCHED_FIFO, set by systemd; the program itself may not change its scheduling
    assert values["CPUSchedulingPolicy"] == "fifo" and values["RestrictRealtime"] == "yes"


def test_a_crash_loop_meets_the_start_limit() -> None:
    """systemd counts starts in [Unit]'s StartLimitIntervalSec; restarts RestartSec apart must reach
    StartLimitBurst inside it, or a crashing service restarts forever."""
    text = UNIT.read_text()
    unit_section = text.split("[Service]")[0]
    values = dict(_settings(text))
    assert "StartLimitIntervalSec" in unit_section and "StartLimitBurst" in unit_section
    seconds = {"s": 1, "min": 60}
    interval = int(re.fullmatch(r"(\d+)", values["StartLimitIntervalSec"]).group(1))
    restart = re.fullmatch(r"(\d+)(s|min)?", values["RestartSec"])
    restart_s = int(restart.group(1)) * seconds[restart.group(2) or "s"]
    start_budget = 10  # seconds a failing start may take before it exits (here: well under 2)
    assert int(values["StartLimitBurst"]) * (restart_s + start_budget) < interval


def test_the_lock_pins_every_dependency_with_hashes() -> None:
    import tomllib

    project = tomllib.loads((UNIT.parents[1] / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["pi"]]
    lock = (UNIT.parent / "requirements.lock").read_text()
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", lock, re.MULTILINE))
    normal = {re.sub(r"[-_.]+", "-", name).lower() for name in pins}
    for requirement in wanted:
        name = re.split(r"[<>=;\[ ]", requirement, maxsplit=1)[0]
        assert re.sub(r"[-_.]+", "-", name).lower() in normal, requirement
    blocks = re.split(r"\n(?=[A-Za-z])", lock.split("\n", 4)[-1])
    assert all("--hash=sha256:" in block for block in blocks if re.match(r"[A-Za-z]", block))


def test_the_network_is_open_only_to_the_local_networks_for_the_table_page() -> None:
    values = dict(_settings(UNIT.read_text()))
    assert "PrivateNetwork" not in values  # the page needs the network
    assert set(values["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    allowed = set(values["IPAddressAllow"].split())
    assert allowed == {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"}
    assert values["IPAddressDeny"] == "any"


def test_the_unit_gives_the_service_descriptors_the_page_can_never_take_all_of() -> None:
    from firmware_host.web_gate import Limits

    limits = dict(_settings(UNIT.read_text()))
    assert "LimitNOFILE" in limits, "without it systemd's soft limit (1024) applies"
    soft = int(limits["LimitNOFILE"].split(":")[0])
    assert soft >= 4 * Limits().connections  # the page's connections, and room for everything else
