"""What can be wrong on a freshly built box, and its fix: the one list behind `wordtable doctor`'s ✗ lines
and the wiring guide's troubleshooting section (`hw.wiring`), so the two cannot drift apart.

A fix is a template: `fix(problem, **fields)` fills in the specifics (the bus, the address, the user);
the wiring guide fills in the default profile's values. Every field a template names is in `EXAMPLE`.
Where the fix differs on Debian's own Pi packages — the flashable image (`systemd/image/`): no raspi-config,
the Pi firmware's config.txt written by `raspi-firmware` from its files in /etc/default, lgpio from PyPI in
the venv — the problem carries that fix too (`on_debian`), and `fix(..., system=DEBIAN)` gives it.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

CONFIG_TXT = "/boot/firmware/config.txt"  # /boot/config.txt before Bookworm
CMDLINE_TXT = "/boot/firmware/cmdline.txt"
FIRMWARE_CUSTOM = "/etc/default/raspi-firmware-custom"  # Debian's raspi-firmware appends it to config.txt
FIRMWARE_DEFAULTS = "/etc/default/raspi-firmware"  # … and writes cmdline.txt's console= from its CONSOLES
REWRITE = f"sudo update-initramfs -u (raspi-firmware rewrites {CONFIG_TXT} from it), then reboot"
VENV_PIP = "/opt/wordtable/venv/bin/pip"

RASPIOS = "raspios"  # Raspberry Pi OS: raspi-config, python3-lgpio from apt
DEBIAN = "debian"  # Debian's raspi-firmware and kernel, as on the wordtable image
SYSTEMS = (RASPIOS, DEBIAN)


@dataclass(frozen=True, slots=True)
class Problem:
    check: str  # the doctor's check that reports it ("I2C bus", "display" …)
    symptom: str  # what the ✗ line says, in general terms (the guide's left column)
    fix: str  # a template: the one line saying what to do (on Raspberry Pi OS)
    on_debian: str = ""  # the fix on Debian's raspi-firmware (the image), where it is another one


PROBLEMS: dict[str, Problem] = {
    # the board and OS
    "not-a-pi": Problem(
        "board", "not a Raspberry Pi (no /proc/device-tree/model)",
        "run it on the Pi; elsewhere use the mock board: wordtable doctor --profile sim",
    ),
    "python-old": Problem(
        "Python", "Python older than 3.11", "use Raspberry Pi OS Bookworm or later (Python 3.11)",
    ),
    "no-pin-factory": Problem(
        "GPIO", "no gpiozero pin factory loads",
        "sudo apt install python3-lgpio (the installer's venv sees it: --system-site-packages), "
        'and board.pin_factory = "auto"',
        f"sudo {VENV_PIP} install lgpio (Debian has no python3-lgpio; the installer takes it from PyPI), "
        'and board.pin_factory = "auto"',
    ),
    "rpigpio-on-pi5": Problem(
        "GPIO", "RPi.GPIO on a Pi 5 (\"Cannot determine SOC peripheral base address\")",
        'RPi.GPIO cannot drive a Pi 5: sudo apt install python3-lgpio and board.pin_factory = "auto" or "lgpio"',
        f'RPi.GPIO cannot drive a Pi 5: sudo {VENV_PIP} install lgpio and board.pin_factory = "auto" or "lgpio"',
    ),
    "native-only": Problem(
        "GPIO", "only gpiozero's native fallback loads (no PWM for the LED bar and the buzzer)",
        'sudo apt install python3-lgpio and board.pin_factory = "auto"',
        f'sudo {VENV_PIP} install lgpio and board.pin_factory = "auto"',
    ),
    # buses
    "i2c-off": Problem(
        "I2C bus", "/dev/i2c-N is missing: I2C is not enabled",
        f"sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in {CONFIG_TXT}), then reboot",
        "sudo modprobe i2c-dev (the image loads it at every boot: /etc/modules-load.d/wordtable-i2c.conf); "
        f"still missing: add dtparam=i2c_arm=on to {FIRMWARE_CUSTOM}, {REWRITE}",
    ),
    "i2c-slow": Problem(
        "I2C speed", "the I2C bus runs at 100 kHz (every frame takes four times as long)",
        f"add dtparam=i2c_arm_baudrate=400000 to {CONFIG_TXT}, then reboot",
        "Debian's mainline device tree runs I2C at 100 kHz and lacks the overrides dtparam=i2c_arm_baudrate "
        "needs: the box works, each frame takes four times as long (Raspberry Pi OS runs the bus at 400 kHz)",
    ),
    "display-moved": Problem(
        "display", "nothing answers at the profile's address, another device does",
        "set display.address = {found} in the profile (the module's address jumper picks 0x3C or 0x3D)",
    ),
    "display-silent": Problem(
        "display", "no device answers on the I2C bus (luma: OSError [Errno 121] Remote I/O error)",
        "check VCC → 3.3 V, GND, SDA → GPIO 2 (pin 3), SCL → GPIO 3 (pin 5): SDA and SCL swapped is the usual "
        "mistake; then i2cdetect -y {port}",
    ),
    "uart-off": Problem(
        "UART", "/dev/serial0 is missing: the UART is not enabled",
        f"sudo raspi-config nonint do_serial_hw 0 (or enable_uart=1 in {CONFIG_TXT}), then reboot",
        f"add enable_uart=1 to {FIRMWARE_CUSTOM}, {REWRITE}",
    ),
    "serial-console": Problem(
        "serial console", "the serial console (a login) holds the UART the RDM6300 needs",
        f"sudo raspi-config nonint do_serial_cons 1 (or remove console=serial0,115200 from {CMDLINE_TXT}), "
        "then reboot",
        f'set CONSOLES="tty1" in {FIRMWARE_DEFAULTS} (it writes the console= of {CMDLINE_TXT}), '
        "sudo update-initramfs -u, then reboot",
    ),
    "spi-off": Problem(
        "SPI", "/dev/spidevN.M is missing: SPI is not enabled",
        f"sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in {CONFIG_TXT}), then reboot",
        f"add dtparam=spi=on to {FIRMWARE_CUSTOM}, {REWRITE}",
    ),
    # readers
    "reader-missing": Problem(
        "reader", "the reader's port is not there",
        "plug the reader in (USB) or enable the UART (RDM6300); ls -l /dev/serial/by-id/ lists the USB serial "
        "devices",
    ),
    "reader-usb-missing": Problem(
        "reader", "no USB serial device with the configured VID:PID",
        "plug it in; lsusb lists what is connected (a scanner must be in its serial/CDC-ACM mode)",
    ),
    "device-denied": Problem(
        "I2C bus, SPI", "the service's user may not open the bus (/dev/i2c-1, /dev/spidev0.0)",
        "sudo usermod -aG {group} {user} (the installer does this), then restart the service",
    ),
    "reader-denied": Problem(
        "reader", "the service's user may not open the reader's port",
        "the installer's udev rule (/etc/udev/rules.d/99-wordtable-reader.rules) gives the known readers to the "
        "group wordtable: add a line with this one's idVendor/idProduct (udevadm info --attribute-walk "
        "--name={device}), then sudo udevadm trigger",
    ),
    # the service
    "no-user": Problem(
        "user", "the service's user does not exist", "sudo bash systemd/install.sh creates it",
    ),
    "groups": Problem(
        "user", "the service's user is not in a group the hardware needs",
        "sudo usermod -aG {groups} {user} (the installer does this)",
    ),
    "state-dir-missing": Problem(
        "state directory", "the state directory does not exist and cannot be made",
        "sudo bash systemd/install.sh (systemd makes it: StateDirectory=wordtable), or set appliance.state_dir",
    ),
    "state-dir-readonly": Problem(
        "state directory", "the service's user cannot write the state directory",
        "sudo chown -R {user}: {path}",
    ),
    "disk-full": Problem(
        "free space", "the state directory's disk is (nearly) full: the journal cannot grow",
        "free space: sudo apt clean; sudo journalctl --vacuum-size=50M; remove old *.corrupt-* journals",
    ),
    "journal-damaged": Problem(
        "journal", "the journal fails its integrity check",
        "the service moves it aside at its next start and begins an empty one; keep the moved file for a "
        "bug report",
    ),
    "unit-missing": Problem(
        "service", "the systemd unit is not installed (fine while trying it out by hand)",
        "sudo bash systemd/install.sh installs and starts it",
    ),
    "unit-failed": Problem(
        "service", "the systemd unit failed or keeps restarting",
        "journalctl -u wordtable -b -n 50 shows why; sudo systemctl restart wordtable after the fix",
    ),
    "word-list": Problem(
        "word list", "the configured word list cannot be read",
        "fix dictionary.path in {file} or remove it (the system's list /usr/share/dict/ngerman is used then)",
    ),
    # the profile and config
    "config": Problem(
        "profile / config", "a key in the board profile or the user config is wrong",
        "edit {file}: wordtable check-config lists every wrong key",
    ),
}

# Values the wiring guide shows in the templates (the default profile's, the installer's user).
EXAMPLE = {
    "found": "0x3D",
    "port": "1",
    "group": "i2c",
    "groups": "gpio,i2c",
    "user": "wordtable",
    "path": "/var/lib/wordtable",
    "file": "/etc/wordtable/config.toml",
    "device": "/dev/ttyUSB0",
}


def fix(problem: str, *, system: str = RASPIOS, **fields: object) -> str:
    """The fix line for `problem` on `system` (RASPIOS or DEBIAN) with `fields` filled in. Raises KeyError for
    an unknown problem or field."""
    return template(problem, system).format(**fields)


def template(problem: str, system: str = RASPIOS) -> str:
    """The fix template of `problem` on `system`: its Debian fix where it has one there, else the one fix."""
    found = PROBLEMS[problem]
    return found.on_debian if system == DEBIAN and found.on_debian else found.fix


def template_fields(problem: str) -> set[str]:
    """The fields a problem's fixes name (every system's)."""
    return {name for system in SYSTEMS for _, name, _, _ in string.Formatter().parse(template(problem, system))
            if name}
