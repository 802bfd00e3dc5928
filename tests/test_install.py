"""systemd/install.sh: --dry-run lists every step; into a throw-away root it installs, a second run
changes nothing, and --uninstall removes everything but the journal.

The commands that change the running system are replaced by fakes on PATH that log their calls and do
the least of their job in the root (useradd appends to <root>/etc/passwd, the venv's python logs `pip`).
`systemctl --root=DIR enable` is the real one: it only makes symlinks inside DIR.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs install.sh in a subprocess

SRC = Path(__file__).resolve().parents[1]
SCRIPT = SRC / "systemd" / "install.sh"

FAKES = {
    # fake NAME: logs "NAME args" and edits <root>/etc/{passwd,group} like the real tool would
    "groupadd": 'root=$2; g=${@: -1}; echo "$g:x:999:" >> "$root/etc/group"',
    "useradd": (
        'root=$2; u=${@: -1}\n'
        'echo "$u:x:998:998::/var/lib/wordtable:/usr/sbin/nologin" >> "$root/etc/passwd"\n'
        'echo "$u:x:998:" >> "$root/etc/group"\n'
        'groups=$(echo "$@" | sed -n "s/.*--groups \\([^ ]*\\).*/\\1/p")\n'
        'for g in ${groups//,/ }; do sed -i "s/^$g:\\([^:]*\\):\\([^:]*\\):$/$g:\\1:\\2:$u/;'
        ' s/^$g:\\([^:]*\\):\\([^:]*\\):\\(..*\\)$/$g:\\1:\\2:\\3,$u/" "$root/etc/group"; done'
    ),
    "usermod": "exit 0",
    "userdel": 'root=$2; u=${@: -1}; sed -i "/^$u:/d" "$root/etc/passwd"',
    # a Pi where I2C and the UART are off and the UART carries a login console
    "raspi-config": 'case "$2" in get_i2c|get_serial_hw) echo 1 ;; get_serial_cons) echo 0 ;; esac',
    "udevadm": "exit 0",
    "fake-python3": (
        'venv=${@: -1}; mkdir -p "$venv/bin"\n'
        'printf \'#!/bin/bash\\necho "venv-python $*" >> "$FAKE_LOG"\\n\' > "$venv/bin/python"\n'
        'chmod +x "$venv/bin/python"'
    ),
}


@pytest.fixture
def fakes(tmp_path: Path) -> Path:
    bin_dir = tmp_path / "fakes"
    bin_dir.mkdir()
    for name, body in FAKES.items():
        path = bin_dir / name
        path.write_text(f'#!/bin/bash\necho "{name} $*" >> "$FAKE_LOG"\n{body}\n')
        path.chmod(0o755)
    return bin_dir


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\ndialout:x:20:pi\n")
    return root


def _run(fakes: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{fakes}:{os.environ['PATH']}",
        "FAKE_LOG": str(fakes.parent / "calls.log"),
    }
    result = subprocess.run(
        ["bash", str(SCRIPT), "--python", str(fakes / "fake-python3"), *args],
        capture_output=True, text=True, env=env, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def _calls(fakes: Path) -> list[str]:
    log = fakes.parent / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def _snapshot(root: Path) -> dict[str, str]:
    """Every path under root with its kind, mode and content (or link target)."""
    tree = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink():
            tree[key] = "link " + os.readlink(path)
        elif path.is_dir():
            tree[key] = f"dir {path.stat().st_mode:o}"
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            tree[key] = f"file {path.stat().st_mode:o} {digest} {path.stat().st_mtime_ns}"
    return tree


def _steps(output: str) -> list[str]:
    return [line[3:] for line in output.splitlines() if line.startswith("== ")]


def test_dry_run_lists_every_step_and_changes_nothing(fakes: Path, root: Path) -> None:
    before = _snapshot(root)
    out = _run(fakes, "--dry-run", "--root", str(root)).stdout
    steps = _steps(out)
    for expected in ("apt packages", "user wordtable in groups gpio i2c", "virtual environment",
                     "package wordtable[pi]", "I2C and UART", "I2C bus at 400 kHz", "udev rule", "polkit rule",
                     "systemd unit", "enable and start"):
        assert any(step.startswith(expected) for step in steps), (expected, steps)
    apt = next(step for step in steps if step.startswith("apt packages"))
    assert "wngerman" in apt.split()  # the German word list: the dictionary assist is on by default
    assert "dict-de-en" in apt.split()  # Ding: the reveal's base forms without proper names
    for command in ("useradd", "-m venv --system-site-packages", "pip install", "99-wordtable-reader.rules",
                    "50-wordtable-poweroff.rules", "wordtable.service", "enable wordtable.service"):
        shown = [line.replace("\\", "") for line in out.splitlines() if "would run:" in line]
        assert any(command in line for line in shown), command
    assert _snapshot(root) == before
    assert _calls(fakes) == []


def test_dry_run_on_this_system_reads_only(fakes: Path) -> None:
    out = _run(fakes, "--dry-run").stdout
    assert out.startswith("dry run: nothing is changed")
    assert "would run: install -D -m 0644" in out
    for change in ("do_i2c 0", "do_serial_hw 0", "do_serial_cons 1"):
        assert f"would run: raspi-config nonint {change}" in out
    assert all(call.startswith("raspi-config nonint get_") for call in _calls(fakes))  # only questions


systemctl = pytest.mark.skipif(
    shutil.which("systemctl") is None, reason="systemctl missing (apt-get install systemd)"
)


@systemctl
def test_install_into_a_root_then_a_second_run_changes_nothing(fakes: Path, root: Path) -> None:
    first = _run(fakes, "--root", str(root)).stdout
    assert "done:" in first
    unit = root / "etc/systemd/system/wordtable.service"
    assert unit.read_bytes() == (SRC / "systemd/wordtable.service").read_bytes()
    assert (root / "etc/systemd/system/multi-user.target.wants/wordtable.service").is_symlink()
    assert (root / "etc/udev/rules.d/99-wordtable-reader.rules").is_file()
    assert (root / "etc/polkit-1/rules.d/50-wordtable-poweroff.rules").is_file()
    assert (root / "etc/avahi/services/wordtable.service").is_file()
    assert "wordtable:" in (root / "etc/passwd").read_text()
    group = (root / "etc/group").read_text()
    assert "dialout:x:20:pi\n" in group and "gpio:x:999:wordtable" in group  # readers: group wordtable
    assert "input:x:999:wordtable" in group  # keyboards and keyboard-mode scanners
    assert not (root / "etc/udev/rules.d/98-wordtable-scanner.rules").exists()  # the default has none
    calls = _calls(fakes)
    assert any(call.startswith("useradd --root") for call in calls)
    assert any("venv-python -m pip install" in call and "--require-hashes -r" in call
               and "systemd/requirements.lock" in call for call in calls)
    assert any("venv-python -m pip install" in call and "--no-deps" in call for call in calls)

    before, calls_before = _snapshot(root), len(_calls(fakes))
    second = _run(fakes, "--root", str(root)).stdout
    assert second.rstrip().endswith("nothing to change"), second
    assert "run:" not in second
    assert _snapshot(root) == before
    assert len(_calls(fakes)) == calls_before


@systemctl
def test_a_keyboard_mode_scanner_in_the_profile_gets_its_udev_rule_and_loses_it_when_gone(fakes, root, tmp_path):
    profile = tmp_path / "board.toml"
    default = (SRC / "hw/profiles/default.toml").read_text()
    profile.write_text(default + '\n[[readers]]\nname = "draw"\nkind = "hid"\nusb = "1EAB:8003"\nrole = "draw"\n')
    _run(fakes, "--root", str(root), "--profile", str(profile))
    rule = (root / "etc/udev/rules.d/98-wordtable-scanner.rules").read_text()
    assert 'ATTRS{idVendor}=="1eab", ATTRS{idProduct}=="8003"' in rule
    assert 'SYMLINK+="input/wordtable-draw"' in rule and 'GROUP="wordtable"' in rule
    second = _run(fakes, "--root", str(root), "--profile", str(profile)).stdout
    assert second.rstrip().endswith("nothing to change"), second
    _run(fakes, "--root", str(root))  # the default profile: no scanner, no rule
    assert not (root / "etc/udev/rules.d/98-wordtable-scanner.rules").exists()


@systemctl
def test_a_changed_unit_is_reinstalled(fakes: Path, root: Path) -> None:
    _run(fakes, "--root", str(root))
    unit = root / "etc/systemd/system/wordtable.service"
    unit.write_text(unit.read_text().replace("WatchdogSec=20s", "WatchdogSec=99s"))
    out = _run(fakes, "--root", str(root)).stdout
    assert "install -D -m 0644" in out
    assert unit.read_bytes() == (SRC / "systemd/wordtable.service").read_bytes()


@systemctl
def test_a_league_broker_beyond_the_lan_is_allowed_by_a_drop_in_and_only_then(fakes: Path, root: Path) -> None:
    _run(fakes, "--root", str(root), "--league-broker", "203.0.113.7")
    dropin = root / "etc/systemd/system/wordtable.service.d/league.conf"
    lines = dropin.read_text().splitlines()
    assert lines[1:] == ["[Service]", "IPAddressAllow=203.0.113.7"]
    again = _run(fakes, "--root", str(root), "--league-broker", "203.0.113.7").stdout
    assert again.rstrip().endswith("nothing to change"), again
    _run(fakes, "--root", str(root))  # the broker moved onto the LAN: the drop-in goes
    assert not dropin.exists()
    env = {**os.environ, "PATH": f"{fakes}:{os.environ['PATH']}", "FAKE_LOG": str(fakes.parent / "calls.log")}
    refused = subprocess.run(["bash", str(SCRIPT), "--python", str(fakes / "fake-python3"), "--root", str(root),
                              "--league-broker", "broker.example; rm -rf /"], capture_output=True, text=True,
                             env=env, check=False)
    assert refused.returncode == 2 and "IP address" in refused.stderr


@systemctl
def test_uninstall_removes_everything_but_the_journal(fakes: Path, root: Path) -> None:
    _run(fakes, "--root", str(root))
    journal = root / "var/lib/wordtable/journal.sqlite3"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"games")
    out = _run(fakes, "--uninstall", "--root", str(root)).stdout
    assert journal.read_bytes() == b"games"
    for gone in ("opt/wordtable", "etc/systemd/system/wordtable.service",
                 "etc/systemd/system/multi-user.target.wants/wordtable.service",
                 "etc/udev/rules.d/99-wordtable-reader.rules",
                 "etc/polkit-1/rules.d/50-wordtable-poweroff.rules"):
        assert not (root / gone).exists() and not (root / gone).is_symlink(), gone
    assert "wordtable:" not in (root / "etc/passwd").read_text()
    assert "journal" in out and "kept" in out
    again = _run(fakes, "--uninstall", "--root", str(root)).stdout
    assert again.rstrip().endswith("nothing to change"), again


CONFIG_TXT = "# Raspberry Pi OS\ndtparam=audio=on\n\n[cm4]\notg_mode=1\n\n[all]\ndtparam=i2c_arm=on\n"


@systemctl
def test_the_i2c_bus_is_set_to_400_khz_once(fakes: Path, root: Path) -> None:
    config = root / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG_TXT)
    out = _run(fakes, "--root", str(root)).stdout
    assert "I2C bus at 400 kHz" in out
    text = config.read_text()
    assert text.startswith(CONFIG_TXT)
    added = text[len(CONFIG_TXT):].splitlines()
    assert added[-2:] == ["[all]", "dtparam=i2c_arm_baudrate=400000"]  # not inside the [cm4] section
    assert any("100000" in line for line in added if line.startswith("#"))  # how to go back
    second = _run(fakes, "--root", str(root)).stdout
    assert second.rstrip().endswith("nothing to change"), second
    assert config.read_text() == text


@systemctl
def test_a_bus_speed_set_by_hand_is_kept(fakes: Path, root: Path) -> None:
    config = root / "boot/config.txt"  # before Bookworm
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG_TXT + "dtparam=i2c_arm_baudrate=100000\n")
    out = _run(fakes, "--root", str(root)).stdout
    assert "i2c_arm_baudrate=100000: kept" in out
    assert config.read_text() == CONFIG_TXT + "dtparam=i2c_arm_baudrate=100000\n"


def test_unknown_option_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        ["bash", str(SCRIPT), "--frobnicate"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2 and "unknown option '--frobnicate'" in result.stderr


# The apt side of a Pi, as installed_pkg and offered_pkg ask it: nothing installed yet; python3-lgpio offered
# by Raspberry Pi OS's archive, not by Debian's.
APT_CACHE_POLICY = {
    "raspberry-pi-os": 'echo "$2:"; echo "  Installed: (none)"; echo "  Candidate: 2.2-1~rpt1"',
    "debian": 'echo "$2:"; echo "  Installed: (none)"; echo "  Candidate: (none)"',
}


@pytest.mark.parametrize("archive", sorted(APT_CACHE_POLICY))
def test_lgpio_comes_from_apt_where_the_archive_has_it_else_from_pypi(fakes: Path, archive: str) -> None:
    for name, body in {"apt-cache": APT_CACHE_POLICY[archive], "dpkg-query": "exit 1", "uname": "echo aarch64"}.items():
        (fakes / name).write_text(f'#!/bin/bash\necho "{name} $*" >> "$FAKE_LOG"\n{body}\n')
        (fakes / name).chmod(0o755)
    out = _run(fakes, "--dry-run").stdout.replace("\\", "")
    install = next(line for line in out.splitlines() if "would run: apt-get install" in line).split()
    assert "python3-venv" in install and "wngerman" in install
    if archive == "debian":
        assert "python3-lgpio" not in install
        assert {"swig", "gcc", "python3-dev"} <= set(install)  # PyPI's lgpio: a wheel for Python 3.11 only
        assert "lgpio comes from PyPI" in out
    else:
        assert "python3-lgpio" in install and "swig" not in install


@systemctl
def test_the_wifi_unit_comes_where_networkmanager_runs_and_goes_with_no_wifi(fakes: Path, root: Path) -> None:
    wants = root / "etc/systemd/system/multi-user.target.wants/wordtable-wifi.service"
    unit = root / "etc/systemd/system/wordtable-wifi.service"
    out = _run(fakes, "--root", str(root)).stdout
    assert "NetworkManager is not this system's network stack" in out
    assert not unit.exists() and not wants.is_symlink()

    manager = root / "usr/sbin/NetworkManager"
    manager.parent.mkdir(parents=True)
    manager.write_text("#!/bin/sh\n")
    manager.chmod(0o755)
    dry = _run(fakes, "--dry-run", "--root", str(root)).stdout
    apt = next(step for step in _steps(dry) if step.startswith("apt packages"))
    assert {"dnsmasq-base", "iw"} <= set(apt.split())  # the access point's DHCP for the phones; its stations
    _run(fakes, "--root", str(root))
    assert unit.read_bytes() == (SRC / "systemd/wordtable-wifi.service").read_bytes()
    assert wants.is_symlink()
    assert "ExecStart=/opt/wordtable/current/bin/wordtable wifi" in unit.read_text()  # follows the updates
    assert _run(fakes, "--root", str(root)).stdout.rstrip().endswith("nothing to change")

    off = _run(fakes, "--no-wifi", "--root", str(root)).stdout
    assert "disable wordtable-wifi.service" in off.replace("\\", "")
    assert not unit.exists() and not wants.is_symlink()
    assert _run(fakes, "--no-wifi", "--root", str(root)).stdout.rstrip().endswith("nothing to change")

    _run(fakes, "--root", str(root))
    assert wants.is_symlink()
    _run(fakes, "--uninstall", "--root", str(root))
    assert not unit.exists() and not wants.is_symlink()
