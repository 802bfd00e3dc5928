"""What the doctor reads of the machine: small functions over a root directory (for /proc, /sys, /dev, /etc,
/run) and injectable probes (the I2C bus, the pin factories, disk usage, systemctl), bundled in `System`.
Tests point `root` at a fake tree under tmp_path and replace the probes; nothing here decides anything.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from hw.troubleshooting import DEBIAN, RASPIOS


class I2CBus(Protocol):
    """An open I2C bus: does a device acknowledge at `address`? (i2cdetect's probe)."""

    def answers(self, address: int) -> bool: ...

    def close(self) -> None: ...


class DiskUsage(NamedTuple):
    total: int
    used: int
    free: int


class SmbusI2C:
    """`I2CBus` on /dev/i2c-N through smbus2 (luma's own I2C library). Probes like `i2cdetect -y`: a read
    for the EEPROM ranges 0x30–0x37 and 0x50–0x5F, a quick write elsewhere; an address a kernel driver
    holds (EBUSY, i2cdetect's "UU") counts as answering."""

    def __init__(self, port: int) -> None:
        from smbus2 import SMBus

        self._bus = SMBus(port)

    def answers(self, address: int) -> bool:
        try:
            if 0x30 <= address <= 0x37 or 0x50 <= address <= 0x5F:
                self._bus.read_byte(address)
            else:
                self._bus.write_quick(address)
        except OSError as exc:
            return exc.errno == errno.EBUSY
        return True

    def close(self) -> None:
        self._bus.close()


# gpiozero's own names and classes, in the order its "auto" choice tries them (gpiozero.devices).
PIN_FACTORIES: dict[str, tuple[str, str]] = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}


def load_pin_factory(name: str) -> None:
    """Import and start gpiozero's pin factory `name`, then close it. Raises what loading raises; what a
    library prints or warns meanwhile (pigpio's "Can't connect") is swallowed: the error says it."""
    import contextlib
    import importlib
    import io
    import warnings

    module, cls = PIN_FACTORIES[name]
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        factory = getattr(importlib.import_module(module), cls)()
        factory.close()


def list_serial_ports() -> list[Any]:
    """pyserial's list of serial ports (objects with .device, .vid, .pid)."""
    from serial.tools import list_ports

    return list(list_ports.comports())


def run_command(argv: Sequence[str]) -> str | None:
    """The standard output of a short command, or None when it cannot run."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout


def _disk_usage(path: Path) -> DiskUsage:
    total, used, free = shutil.disk_usage(path)
    return DiskUsage(total, used, free)


@dataclass
class System:
    """The machine as the doctor sees it. `root` prefixes every absolute system path (`at`)."""

    root: Path = Path("/")
    open_i2c: Callable[[int], I2CBus] = SmbusI2C
    load_pin_factory: Callable[[str], None] = load_pin_factory
    list_ports: Callable[[], Iterable[Any]] = list_serial_ports
    disk_usage: Callable[[Path], DiskUsage] = _disk_usage
    run: Callable[[Sequence[str]], str | None] = run_command
    python: tuple[int, int, int] = (sys.version_info[0], sys.version_info[1], sys.version_info[2])
    uid: int = field(default_factory=os.getuid)
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))

    def at(self, path: str | Path) -> Path:
        """An absolute path inside `root`; a relative one (./sim-state) stays relative to the working dir."""
        path = Path(path)
        return self.root / path.relative_to("/") if path.is_absolute() else path


# --- files -------------------------------------------------------------------------------------------


def read_text(path: Path) -> str | None:
    """A small file's text (device-tree strings end in NUL, which is dropped), or None when unreadable."""
    try:
        return path.read_bytes().decode("utf-8", "replace").rstrip("\x00\n")
    except OSError:
        return None


def board_model(root: Path) -> str | None:
    """'Raspberry Pi 5 Model B Rev 1.0' from the device tree, None when there is none (not a Pi)."""
    return read_text(root / "proc/device-tree/model")


def pi_system(root: Path) -> str:
    """Which set of Pi tools the system has: Debian's raspi-firmware without Raspberry Pi OS's raspi-config
    (the wordtable image) is `DEBIAN`, anything else `RASPIOS` (whose fixes the wiring guide prints)."""
    debian = (root / "etc/default/raspi-firmware").is_file() and not (root / "usr/bin/raspi-config").exists()
    return DEBIAN if debian else RASPIOS


def os_release(root: Path) -> dict[str, str]:
    """/etc/os-release as a dict (PRETTY_NAME, VERSION_CODENAME …); empty when missing."""
    text = read_text(root / "etc/os-release") or ""
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() and not key.startswith("#"):
            out[key.strip()] = value.strip().strip('"')
    return out


def i2c_clock_hz(root: Path, port: int) -> int | None:
    """The bus speed the device tree gives I2C adapter `port` (its of_node's clock-frequency, a big-endian
    u32), or None when it says nothing."""
    try:
        raw = (root / f"sys/class/i2c-adapter/i2c-{port}/of_node/clock-frequency").read_bytes()
    except OSError:
        return None
    return int.from_bytes(raw[:4], "big") if len(raw) >= 4 else None


def cmdline_consoles(text: str | None) -> list[str]:
    """The console devices a kernel command line names ('console=serial0,115200' -> 'serial0')."""
    return [token.split("=", 1)[1].split(",")[0] for token in (text or "").split() if token.startswith("console=")]


def link_name(path: Path) -> str | None:
    """The name a device symlink points to (/dev/serial0 -> 'ttyS0'), or None when it is no link."""
    try:
        return Path(os.readlink(path)).name
    except OSError:
        return None


def systemd_running(root: Path) -> bool:
    """Whether systemd is the init system (sd_booted(): /run/systemd/system exists)."""
    return (root / "run/systemd/system").is_dir()


def unit_settings(root: Path, unit: str = "wordtable.service") -> dict[str, str] | None:
    """The [Service] keys of the installed unit (User, SupplementaryGroups …), None when not installed.
    Repeated keys are joined with spaces (as SupplementaryGroups= accumulates)."""
    text = read_text(root / "etc/systemd/system" / unit)
    if text is None:
        return None
    out: dict[str, str] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith(("#", ";")):
            key, value = (part.strip() for part in line.split("=", 1))
            out[key] = f"{out[key]} {value}".strip() if key in out and value else value
    return out


# --- users, groups, permissions ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Account:
    """A user as the doctor checks it: its ids and the groups it has (primary, /etc/group, the unit's)."""

    name: str
    uid: int
    gids: frozenset[int]
    groups: frozenset[str]


def _colon_file(path: Path) -> list[list[str]]:
    return [line.split(":") for line in (read_text(path) or "").splitlines() if line and not line.startswith("#")]


def group_table(root: Path) -> dict[str, tuple[int, frozenset[str]]]:
    """/etc/group: name -> (gid, member names)."""
    out: dict[str, tuple[int, frozenset[str]]] = {}
    for row in _colon_file(root / "etc/group"):
        if len(row) >= 4 and row[2].isdigit():
            out[row[0]] = (int(row[2]), frozenset(m for m in row[3].split(",") if m))
    return out


def account(root: Path, *, name: str | None = None, uid: int | None = None,
            extra_groups: Iterable[str] = ()) -> Account | None:
    """The user `name` (or with `uid`) from /etc/passwd with its groups from /etc/group, plus
    `extra_groups` (a unit's SupplementaryGroups=); None when there is no such user."""
    for row in _colon_file(root / "etc/passwd"):
        if len(row) < 4 or not row[2].isdigit() or not row[3].isdigit():
            continue
        if (name is not None and row[0] == name) or (name is None and int(row[2]) == uid):
            groups = group_table(root)
            gids = {int(row[3])}
            names = {g for g, (gid, members) in groups.items() if gid == int(row[3]) or row[0] in members}
            names |= {g for g in extra_groups if g in groups}
            gids |= {groups[g][0] for g in names}
            return Account(row[0], int(row[2]), frozenset(gids), frozenset(names))
    return None


def may_open(user: Account, path: Path, *, write: bool = True) -> bool:
    """Whether `user` may open `path` for reading and writing (`write=False`: reading) by its owner, group
    and mode bits; a directory also needs the search bit."""
    info = path.stat()
    if user.uid == 0:
        return True
    bits = ("R", *(("W",) if write else ()), *(("X",) if stat.S_ISDIR(info.st_mode) else ()))
    who = "USR" if info.st_uid == user.uid else "GRP" if info.st_gid in user.gids else "OTH"
    need = 0
    for bit in bits:
        need |= getattr(stat, f"S_I{bit}{who}")
    return info.st_mode & need == need


def owner_text(root: Path, path: Path) -> str:
    """'root:i2c 0660' for a file, names from the tree's /etc files where known."""
    info = path.stat()
    users = {int(row[2]): row[0] for row in _colon_file(root / "etc/passwd") if len(row) > 2 and row[2].isdigit()}
    groups = {gid: name for name, (gid, _) in group_table(root).items()}
    return (f"{users.get(info.st_uid, str(info.st_uid))}:{groups.get(info.st_gid, str(info.st_gid))} "
            f"{stat.S_IMODE(info.st_mode):04o}")


def group_name(root: Path, gid: int) -> str | None:
    return next((name for name, (g, _) in group_table(root).items() if g == gid), None)
