"""The buses and the card readers: I2C (the device, its speed, the display answering), the UART and its
serial console when an RDM6300 sits on it, SPI for an SPI display, each reader's port, and whether the
service's user may open each of them."""

from __future__ import annotations

from pathlib import Path

from drivers.cardreader import find_usb_port
from drivers.display import DisplayConfig
from drivers.reader_config import ReaderConfig
from firmware_host.doctor.checks import Check, ok, problem, skip
from firmware_host.doctor.system import (
    Account,
    System,
    cmdline_consoles,
    group_name,
    i2c_clock_hz,
    link_name,
    may_open,
    owner_text,
    read_text,
)
from hw.profile import UART_DEVICES, Profile

BUSES = "buses"
READERS = "readers"
FAST_I2C_HZ = 400_000
I2C_ADDRESSES = range(0x03, 0x78)  # what i2cdetect scans by default
BOOT_CMDLINES = ("boot/firmware/cmdline.txt", "boot/cmdline.txt")


def _denied(system: System, user: Account | None, path: Path, section: str, name: str) -> Check | None:
    """A failure when the service's user may not open the device at `path` (None: it may, or no user).
    A bus device is fixed by its group; a reader's port by the installer's udev rule."""
    if user is None or may_open(user, path):
        return None
    shown = "/" + str(path.relative_to(system.root)) if path.is_relative_to(system.root) else str(path)
    detail = f"{user.name} may not open {shown} ({owner_text(system.root, path)})"
    if section == READERS:
        return problem(section, name, detail, "reader-denied", device=shown)
    group = group_name(system.root, path.stat().st_gid) or "gpio"
    return problem(section, name, detail, "device-denied", group=group, user=user.name)


def check_i2c(system: System, display: DisplayConfig, user: Account | None) -> list[Check]:
    """The I2C bus of an I2C display: present, open to the user, its speed, and the display answering."""
    port = display.port
    device = system.at(f"/dev/i2c-{port}")
    if not device.exists():
        return [problem(BUSES, "I2C bus", f"/dev/i2c-{port} is missing: I2C is not enabled", "i2c-off")]
    denied = _denied(system, user, device, BUSES, "I2C bus")
    out = [denied or ok(BUSES, "I2C bus", f"/dev/i2c-{port}")]
    hz = i2c_clock_hz(system.root, port)
    if hz is None:
        out.append(skip(BUSES, "I2C speed", "the device tree gives no clock-frequency for this bus"))
    elif hz < FAST_I2C_HZ:
        out.append(problem(BUSES, "I2C speed", f"{hz // 1000} kHz", "i2c-slow", warn=True))
    else:
        out.append(ok(BUSES, "I2C speed", f"{hz // 1000} kHz"))
    out.append(_probe_display(system, display))
    return out


def _probe_display(system: System, display: DisplayConfig) -> Check:
    port, wanted = display.port, display.address
    try:
        bus = system.open_i2c(port)
    except OSError as exc:
        return skip(BUSES, "display", f"cannot open /dev/i2c-{port} to probe it: {exc.strerror or exc}",
                    "run it as root to probe the bus: sudo wordtable doctor")
    try:
        if bus.answers(wanted):
            return ok(BUSES, "display", f"{display.driver} answers at 0x{wanted:02X} on I2C bus {port}")
        found = [address for address in I2C_ADDRESSES if bus.answers(address)]
    finally:
        bus.close()
    if not found:
        return problem(BUSES, "display", f"nothing answers on I2C bus {port} (the profile says 0x{wanted:02X})",
                       "display-silent", port=port)
    listed = ", ".join(f"0x{a:02X}" for a in found)
    what = "a device" if len(found) == 1 else "devices"
    return problem(BUSES, "display", f"nothing at 0x{wanted:02X}; found {what} at {listed}, the profile says "
                   f"0x{wanted:02X}", "display-moved", found=f"0x{found[0]:02X}")


def uart_readers(profile: Profile) -> list[ReaderConfig]:
    return [reader for reader in profile.readers if reader.port in UART_DEVICES]


def check_uart(system: System, port: str) -> list[Check]:
    """The Pi's UART at `port` (/dev/serial0 …): enabled, and no serial console on it now or after a reboot."""
    device = system.at(port)
    if not device.exists():
        return [problem(BUSES, "UART", f"{port} is missing: the UART is not enabled", "uart-off")]
    target = link_name(device)
    out = [ok(BUSES, "UART", f"{port}" + (f" → {target}" if target else ""))]
    names = {Path(port).name} | ({target} if target else set())
    now = [c for c in cmdline_consoles(read_text(system.root / "proc/cmdline")) if c in names]
    if now:
        out.append(problem(BUSES, "serial console", f"console={now[0]} in /proc/cmdline: a login holds {port}",
                           "serial-console"))
        return out
    for boot in BOOT_CMDLINES:
        text = read_text(system.root / boot)
        if text is None:
            continue
        later = [c for c in cmdline_consoles(text) if c in names]
        if later:
            out.append(problem(BUSES, "serial console", f"console={later[0]} in /{boot}: it takes {port} at the "
                               "next boot", "serial-console"))
            return out
        break
    out.append(ok(BUSES, "serial console", f"none on {port}"))
    return out


def check_spi(system: System, display: DisplayConfig, user: Account | None) -> list[Check]:
    name = f"/dev/spidev{display.port}.{display.spi_device}"
    device = system.at(name)
    if not device.exists():
        return [problem(BUSES, "SPI", f"{name} is missing: SPI is not enabled", "spi-off")]
    return [_denied(system, user, device, BUSES, "SPI") or ok(BUSES, "SPI", f"{name} for the {display.driver}")]


def check_buses(system: System, profile: Profile, user: Account | None) -> list[Check]:
    if profile.board.pin_factory == "mock":
        return [skip(BUSES, "buses", "a mock board: no I2C, UART or SPI to check")]
    display = profile.display
    out: list[Check] = []
    if display.interface == "i2c":
        out += check_i2c(system, display, user)
    elif display.interface == "spi":
        out += check_spi(system, display, user)
    else:
        out.append(skip(BUSES, "display", f"{display.driver}: no bus to check"))
    for port in sorted({reader.port for reader in uart_readers(profile) if reader.port}):
        out += check_uart(system, port)
    return out


def check_reader(system: System, reader: ReaderConfig, user: Account | None, *, mock: bool) -> Check:
    name = f"reader {reader.name}"
    where = reader.where()
    if mock:
        return skip(READERS, name, f"{reader.kind} at {where}: simulated on a mock board")
    if reader.usb is not None:
        found = find_usb_port(reader.usb, system.list_ports())
        if found is None:
            return problem(READERS, name, f"no USB serial device {where}", "reader-usb-missing")
        path = found
    else:
        path = str(reader.port)
        if "://" in path:
            return skip(READERS, name, f"{reader.kind} at {path}: a pyserial URL, not checked")
    device = system.at(path)
    if not device.exists():
        return problem(READERS, name, f"{reader.kind}: {path} is missing", "reader-missing")
    target = link_name(device)
    shown = path + (f" → {target}" if target else "") + (f" ({where})" if reader.usb is not None else "")
    return _denied(system, user, device, READERS, name) or ok(READERS, name, f"{reader.kind} at {shown}")


def check_readers(system: System, profile: Profile, user: Account | None) -> list[Check]:
    if not profile.readers:
        return [skip(READERS, "readers", "none configured: the button deck only")]
    mock = profile.board.pin_factory == "mock"
    return [check_reader(system, reader, user, mock=mock) for reader in profile.readers]
