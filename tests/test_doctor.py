"""`wordtable doctor` against fake /proc, /sys, /dev, /etc trees, a fake I2C bus, fake pin factories, a fake
systemctl and an injected disk usage: a healthy Pi, then one thing broken at a time."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.doctor import Status, diagnose, exit_code, to_json, to_text
from firmware_host.doctor.system import DiskUsage, System, account, cmdline_consoles, may_open, unit_settings
from firmware_host.journal import Journal
from hw.troubleshooting import EXAMPLE, PROBLEMS, fix, template_fields
from tests.hwhelpers import DEFAULT_TOML, edited

UNIT = (Path(__file__).parent.parent / "systemd" / "wordtable.service").read_text(encoding="utf-8")
SERVICE_UID = 64999
GB = 1024**3
RDM6300 = '\n[[readers]]\nname = "rfid"\nkind = "rdm6300"\nport = "/dev/serial0"\nrole = "choose"\n'
SCANNER = '\n[[readers]]\nname = "scan"\nkind = "scanner"\nusb = "1a86:7523"\nrole = "choose"\n'
FACTORY_ERRORS = {
    "lgpio": ModuleNotFoundError("No module named 'lgpio'"),
    "rpigpio": ModuleNotFoundError("No module named 'RPi'"),
    "pigpio": ModuleNotFoundError("No module named 'pigpio'"),
    "native": RuntimeError("unable to locate Pi revision"),
}


class FakeI2C:
    """A bus on which the devices at `addresses` acknowledge; it remembers what was probed."""

    def __init__(self, addresses: set[int]) -> None:
        self.addresses = addresses
        self.probed: list[int] = []
        self.closed = False

    def answers(self, address: int) -> bool:
        self.probed.append(address)
        return address in self.addresses

    def close(self) -> None:
        self.closed = True


class Pi:
    """A fake Raspberry Pi under `root`: a Pi 4 set up as the wiring guide says, changed by the tests."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.gid = os.getgid()  # the fake device files' group: named i2c, gpio or dialout as a test needs
        self.i2c = FakeI2C({0x3C})
        self.loads = {"lgpio"}  # the pin factories that load
        self.free = 20 * GB
        self.systemctl: str | None = "LoadState=loaded\nActiveState=active\nSubState=running\nNRestarts=0\n"
        self.write("proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\x00")
        self.write("etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')
        self.write("proc/cmdline", "coherent_pool=1M console=tty1 root=PARTUUID=1234-02 rootwait\n")
        self.write("boot/firmware/cmdline.txt", "console=tty1 root=PARTUUID=1234-02 rootwait\n")
        self.device("dev/i2c-1")
        self.speed(400_000)
        self.device("dev/ttyS0", 0o666)  # a reader's port: the udev rule's group stands in as "anyone" here
        (root / "dev/serial0").symlink_to("ttyS0")
        self.write("etc/passwd", f"root:x:0:0:root:/root:/bin/bash\nwordtable:x:{SERVICE_UID}:{SERVICE_UID}::"
                   "/var/lib/wordtable:/usr/sbin/nologin\n")
        self.groups(i2c=self.gid, gpio=self.gid + 1)
        self.write("etc/systemd/system/wordtable.service", UNIT)
        (root / "run/systemd/system").mkdir(parents=True)
        state = root / "var/lib/wordtable"
        state.mkdir(parents=True)
        state.chmod(0o777)

    def write(self, name: str, text: str | bytes) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def device(self, name: str, mode: int = 0o660) -> Path:
        path = self.write(name, "")
        path.chmod(mode)
        return path

    def speed(self, hz: int) -> None:
        self.write("sys/class/i2c-adapter/i2c-1/of_node/clock-frequency", hz.to_bytes(4, "big"))

    def groups(self, **gids: int) -> None:
        lines = [f"wordtable:x:{SERVICE_UID}:"] + [f"{name}:x:{gid}:" for name, gid in gids.items()]
        self.write("etc/group", "\n".join(lines) + "\n")

    def load(self, name: str) -> None:
        if name not in self.loads:
            raise FACTORY_ERRORS[name]

    def system(self, **changes: Any) -> System:
        return replace(System(
            root=self.root, open_i2c=lambda port: self.i2c, load_pin_factory=self.load, list_ports=lambda: [],
            disk_usage=lambda path: DiskUsage(30 * GB, 30 * GB - self.free, self.free),
            run=lambda argv: self.systemctl, python=(3, 11, 2), uid=1000, environ={},
        ), **changes)


@pytest.fixture
def pi(tmp_path: Path) -> Pi:
    return Pi(tmp_path / "root")


def profile_file(tmp_path: Path, text: str = DEFAULT_TOML) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run(pi: Pi, profile: str | Path = "default", config: Path | None = None, **changes: Any) -> dict[str, Any]:
    checks = diagnose(profile, config, pi.system(**changes))
    return {"checks": checks, "by_name": {c.name: c for c in checks}, "exit": exit_code(checks)}


def failed(result: dict[str, Any]) -> dict[str, str]:
    """The failed checks: name -> problem key."""
    return {c.name: c.problem for c in result["checks"] if c.status is Status.FAIL}


# --- a healthy Pi ------------------------------------------------------------------------------------


def test_a_pi_set_up_as_the_guide_says_passes_every_check(pi, tmp_path):
    result = run(pi, profile_file(tmp_path, DEFAULT_TOML + RDM6300))
    assert failed(result) == {}
    assert result["exit"] == 0
    by = result["by_name"]
    assert by["board"].detail == "Raspberry Pi 4 Model B Rev 1.4"
    assert by["OS"].detail == "Debian GNU/Linux 12 (bookworm)"
    assert by["GPIO"].status is Status.OK and by["GPIO"].detail.startswith("lgpio loads")
    assert by["I2C speed"].detail == "400 kHz"
    assert by["display"].detail == "ssd1306 answers at 0x3C on I2C bus 1"
    assert pi.i2c.probed == [0x3C] and pi.i2c.closed  # no scan when the display answers
    assert by["UART"].detail == "/dev/serial0 → ttyS0"
    assert by["serial console"].status is Status.OK
    assert by["reader rfid"].detail == "rdm6300 at /dev/serial0 → ttyS0"
    assert by["user"].detail == "wordtable (the unit's User=), in gpio, i2c"
    assert by["service"].detail == "active (running)"
    assert by["state directory"].status is Status.OK
    assert by["journal"].detail.endswith("none yet, made at the first start")
    text = to_text(result["checks"])
    assert text.splitlines()[0] == "Board and OS"
    assert "✗" not in text and text.rstrip().endswith("0 failed, 0 warnings, 1 not checked")


# --- the board ---------------------------------------------------------------------------------------


def test_a_pi_5_with_rpi_gpio_only_says_rpi_gpio_cannot_drive_it(pi):
    pi.write("proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\x00")
    FACTORY_ERRORS_PI5 = {**FACTORY_ERRORS, "rpigpio": RuntimeError("Cannot determine SOC peripheral base address")}
    pi.loads = set()

    def load(name: str) -> None:
        raise FACTORY_ERRORS_PI5[name]

    result = run(pi, load_pin_factory=load)
    gpio = result["by_name"]["GPIO"]
    assert gpio.status is Status.FAIL and gpio.problem == "rpigpio-on-pi5"
    assert "rpigpio: RuntimeError: Cannot determine SOC peripheral base address — RPi.GPIO does not support the " \
           "Pi 5" in gpio.detail
    assert "lgpio: ModuleNotFoundError: No module named 'lgpio'" in gpio.detail
    assert "python3-lgpio" in gpio.fix
    assert result["exit"] == 1


def test_auto_names_the_factory_that_loads_and_why_the_ones_before_it_do_not(pi):
    pi.loads = {"rpigpio"}
    gpio = run(pi)["by_name"]["GPIO"]
    assert gpio.status is Status.OK
    assert gpio.detail == ("rpigpio loads, by gpiozero's automatic choice "
                           "(lgpio: ModuleNotFoundError: No module named 'lgpio')")


def test_only_the_native_fallback_fails_for_want_of_pwm(pi):
    pi.loads = {"native"}
    gpio = run(pi)["by_name"]["GPIO"]
    assert gpio.status is Status.FAIL and gpio.problem == "native-only"


def test_an_explicit_factory_is_the_only_one_tried_and_the_environment_overrides_auto(pi, tmp_path):
    pi.loads = {"lgpio", "rpigpio"}
    gpio = run(pi, profile_file(tmp_path, edited('pin_factory = "auto"', 'pin_factory = "rpigpio"')))
    assert gpio["by_name"]["GPIO"].detail == 'rpigpio loads, by board.pin_factory = "rpigpio"'
    forced = run(pi, environ={"GPIOZERO_PIN_FACTORY": "pigpio"})["by_name"]["GPIO"]
    assert forced.status is Status.FAIL and "pigpio: ModuleNotFoundError" in forced.detail
    assert "GPIOZERO" not in forced.fix


def test_not_a_pi_fails_on_a_real_board_and_is_only_noted_on_the_mock_board(pi):
    (pi.root / "proc/device-tree/model").unlink()
    assert run(pi)["by_name"]["board"].problem == "not-a-pi"
    board = run(pi, "sim")["by_name"]["board"]
    assert board.status is Status.SKIP


def test_an_old_python_fails(pi):
    assert run(pi, python=(3, 9, 2))["by_name"]["Python"].problem == "python-old"


# --- the buses ---------------------------------------------------------------------------------------


def test_i2c_disabled_says_how_to_enable_it_and_probes_nothing(pi):
    (pi.root / "dev/i2c-1").unlink()
    result = run(pi)
    i2c = result["by_name"]["I2C bus"]
    assert i2c.status is Status.FAIL and i2c.detail == "/dev/i2c-1 is missing: I2C is not enabled"
    assert "do_i2c 0" in i2c.fix and "dtparam=i2c_arm=on" in i2c.fix
    assert "display" not in result["by_name"] and pi.i2c.probed == []
    assert result["exit"] == 1


def test_on_the_image_the_fixes_name_debians_tools_not_raspi_config(pi):
    """The flashable image is Debian's own Pi packages: raspi-firmware writes config.txt, there is no
    raspi-config and no python3-lgpio. Its doctor says what works there; Raspberry Pi OS keeps its fixes."""
    (pi.root / "dev/i2c-1").unlink()
    pi.loads = set()  # no pin factory loads
    pi.write("etc/default/raspi-firmware", 'ROOTPART="LABEL=wt-root"\n')
    on_image = run(pi)["by_name"]
    fixes = " ".join(check.fix for check in on_image.values())
    assert "raspi-config" not in fixes and "apt install python3-lgpio" not in fixes
    assert "/etc/default/raspi-firmware-custom" in on_image["I2C bus"].fix and "i2c-dev" in on_image["I2C bus"].fix
    assert "pip install lgpio" in on_image["GPIO"].fix

    pi.write("usr/bin/raspi-config", "#!/bin/sh\n")  # Raspberry Pi OS has both
    on_raspios = run(pi)["by_name"]
    assert "do_i2c 0" in on_raspios["I2C bus"].fix and "apt install python3-lgpio" in on_raspios["GPIO"].fix


def test_a_display_at_the_other_address_is_found_and_named(pi):
    pi.i2c.addresses = {0x3D}
    display = run(pi)["by_name"]["display"]
    assert display.status is Status.FAIL and display.problem == "display-moved"
    assert display.detail == "nothing at 0x3C; found a device at 0x3D, the profile says 0x3C"
    assert display.fix.startswith("set display.address = 0x3D in the profile")
    assert pi.i2c.probed[0] == 0x3C and set(pi.i2c.probed) == set(range(0x03, 0x78))


def test_an_empty_bus_points_at_the_wires(pi):
    pi.i2c.addresses = set()
    display = run(pi)["by_name"]["display"]
    assert display.problem == "display-silent"
    assert "SDA and SCL swapped" in display.fix and "i2cdetect -y 1" in display.fix


def test_a_bus_the_doctor_may_not_open_is_not_checked_rather_than_failed(pi):
    def denied(port: int) -> Any:
        raise PermissionError(13, "Permission denied")

    display = run(pi, open_i2c=denied)["by_name"]["display"]
    assert display.status is Status.SKIP and "sudo wordtable doctor" in display.fix


def test_a_100_khz_bus_is_a_warning_with_the_dtparam_not_a_failure(pi):
    pi.speed(100_000)
    result = run(pi)
    speed = result["by_name"]["I2C speed"]
    assert (speed.status, speed.detail) == (Status.WARN, "100 kHz")
    assert "dtparam=i2c_arm_baudrate=400000" in speed.fix
    assert result["exit"] == 0
    assert "! I2C speed" in to_text(result["checks"])


def test_the_serial_console_on_the_readers_uart_fails(pi, tmp_path):
    profile = profile_file(tmp_path, DEFAULT_TOML + RDM6300)
    pi.write("proc/cmdline", "console=ttyS0,115200 console=tty1 root=PARTUUID=1234-02\n")
    console = run(pi, profile)["by_name"]["serial console"]
    assert console.status is Status.FAIL
    assert console.detail == "console=ttyS0 in /proc/cmdline: a login holds /dev/serial0"
    assert "do_serial_cons 1" in console.fix
    # Fixed for now, but cmdline.txt brings it back at the next boot.
    pi.write("proc/cmdline", "console=tty1 root=PARTUUID=1234-02\n")
    pi.write("boot/firmware/cmdline.txt", "console=serial0,115200 console=tty1 root=PARTUUID=1234-02\n")
    later = run(pi, profile)["by_name"]["serial console"]
    assert later.status is Status.FAIL and "next boot" in later.detail
    # A console on another UART (the Pi 5's debug port) is no problem.
    pi.write("boot/firmware/cmdline.txt", "console=ttyAMA10,115200 console=tty1\n")
    assert run(pi, profile)["by_name"]["serial console"].status is Status.OK


def test_the_uart_is_checked_only_when_a_reader_is_on_it_and_fails_when_disabled(pi, tmp_path):
    assert "UART" not in run(pi)["by_name"]
    (pi.root / "dev/serial0").unlink()
    result = run(pi, profile_file(tmp_path, DEFAULT_TOML + RDM6300))
    assert result["by_name"]["UART"].problem == "uart-off"
    assert result["by_name"]["reader rfid"].problem == "reader-missing"


def test_an_spi_display_needs_its_spidev(pi, tmp_path):
    text = (DEFAULT_TOML.replace("spi = false", "spi = true").replace("encoder]\nenabled = false", "encoder]")
            .replace('driver = "ssd1306"', 'driver = "ssd1322"').replace('interface = "i2c"', 'interface = "spi"')
            .replace("width = 128", "width = 256\ndc_pin = 24\nreset_pin = 25").replace("port = 1", "port = 0")
            .replace("pins = [5, 6, 12, 13, 16, 17, 22, 23, 24, 25]", "pins = [5, 6, 12, 13, 16, 17, 22, 23]"))
    profile = profile_file(tmp_path, text)
    assert run(pi, profile)["by_name"]["SPI"].problem == "spi-off"
    pi.device("dev/spidev0.0")
    assert run(pi, profile)["by_name"]["SPI"].status is Status.OK


# --- the readers -------------------------------------------------------------------------------------


def test_a_usb_reader_is_found_by_vid_pid(pi, tmp_path):
    profile = profile_file(tmp_path, DEFAULT_TOML + SCANNER)
    assert run(pi, profile)["by_name"]["reader scan"].problem == "reader-usb-missing"
    pi.device("dev/ttyACM0")
    ports = [SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None),
             SimpleNamespace(device="/dev/ttyACM0", vid=0x1A86, pid=0x7523)]
    reader = run(pi, profile, list_ports=lambda: ports)["by_name"]["reader scan"]
    assert (reader.status, reader.detail) == (Status.OK, "scanner at /dev/ttyACM0 (USB 1a86:7523)")


def test_a_user_without_the_groups_may_not_open_the_devices(pi, tmp_path):
    pi.write("etc/systemd/system/wordtable.service", re.sub(r"(?m)^SupplementaryGroups=.*\n", "", UNIT))
    result = run(pi)
    user = result["by_name"]["user"]
    assert user.problem == "groups" and user.detail.endswith("is not in gpio, i2c")
    assert user.fix.startswith("sudo usermod -aG gpio,i2c wordtable")
    bus = result["by_name"]["I2C bus"]
    assert bus.problem == "device-denied"
    assert bus.detail.startswith("wordtable may not open /dev/i2c-1 (") and bus.detail.endswith(":i2c 0660)")
    assert bus.fix.startswith("sudo usermod -aG i2c wordtable")
    # In the group through /etc/group instead of the unit: allowed again.
    pi.groups(i2c=pi.gid, gpio=pi.gid + 1)
    pi.write("etc/group", (pi.root / "etc/group").read_text().replace(f"i2c:x:{pi.gid}:", f"i2c:x:{pi.gid}:wordtable")
             .replace(f"gpio:x:{pi.gid + 1}:", f"gpio:x:{pi.gid + 1}:wordtable"))
    assert failed(run(pi)) == {}


def test_a_reader_port_the_service_may_not_open_points_at_the_udev_rule(pi, tmp_path):
    (pi.root / "dev/ttyS0").chmod(0o660)  # group: the fake i2c group, which the unit's user has
    profile = profile_file(tmp_path, DEFAULT_TOML + RDM6300)
    assert run(pi, profile)["by_name"]["reader rfid"].status is Status.OK
    pi.groups(i2c=pi.gid + 5, gpio=pi.gid + 1, dialout=pi.gid)  # the port's group is dialout, not the user's
    reader = run(pi, profile)["by_name"]["reader rfid"]
    assert reader.problem == "reader-denied" and reader.detail.endswith(":dialout 0660)")
    assert "99-wordtable-reader.rules" in reader.fix and "--name=/dev/serial0" in reader.fix


def test_a_unit_whose_user_is_missing_fails(pi):
    pi.write("etc/passwd", "root:x:0:0:root:/root:/bin/bash\n")
    assert run(pi)["by_name"]["user"].problem == "no-user"


# --- the service -------------------------------------------------------------------------------------


def test_a_full_state_disk_fails(pi):
    pi.free = 3 * 1024 * 1024
    result = run(pi)
    space = result["by_name"]["free space"]
    assert space.problem == "disk-full" and space.detail.startswith("3.0 MB free of 30.0 GB")
    assert "journalctl --vacuum-size" in space.fix
    assert result["exit"] == 1


def test_a_state_directory_the_user_cannot_write_fails(pi):
    (pi.root / "var/lib/wordtable").chmod(0o755)
    state = run(pi)["by_name"]["state directory"]
    assert state.problem == "state-dir-readonly" and state.fix == "sudo chown -R wordtable: /var/lib/wordtable"
    (pi.root / "var/lib/wordtable").rmdir()
    assert run(pi)["by_name"]["state directory"].problem == "state-dir-missing"


def test_the_journal_is_checked_for_integrity(pi):
    path = pi.root / "var/lib/wordtable/journal.sqlite3"
    with Journal.open(path) as journal:
        journal.start_game("quiddler", ("Ana", "Ben"), {})
    assert run(pi)["by_name"]["journal"].detail == "/var/lib/wordtable/journal.sqlite3: intact, 1 game"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    journal = run(pi)["by_name"]["journal"]
    assert journal.problem == "journal-damaged" and "damaged" in journal.detail
    path.write_bytes(b"not a database at all")
    assert "not an SQLite database" in run(pi)["by_name"]["journal"].detail


@pytest.mark.parametrize(("systemctl", "status", "problem"), [
    ("LoadState=loaded\nActiveState=failed\nSubState=failed\nResult=exit-code\nNRestarts=5\n", Status.FAIL,
     "unit-failed"),
    ("LoadState=loaded\nActiveState=activating\nSubState=auto-restart\nResult=exit-code\n", Status.FAIL,
     "unit-failed"),
    ("LoadState=not-found\nActiveState=inactive\nSubState=dead\n", Status.WARN, "unit-missing"),
    ("LoadState=loaded\nActiveState=inactive\nSubState=dead\n", Status.SKIP, None),
])
def test_the_units_state(pi, systemctl, status, problem):
    pi.systemctl = systemctl
    service = run(pi)["by_name"]["service"]
    assert (service.status, service.problem) == (status, problem)


def test_without_systemd_the_unit_is_not_checked(pi):
    (pi.root / "run/systemd/system").rmdir()
    assert run(pi)["by_name"]["service"].status is Status.SKIP


def test_the_configured_word_list_is_read(pi, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[dictionary]\npath = "/usr/share/dict/wortliste"\n', encoding="utf-8")
    words = run(pi, config=config)["by_name"]["word list"]
    assert words.problem == "word-list" and str(config) in words.fix
    pi.write("usr/share/dict/wortliste", "Haus\nMaus\n# a comment\nBaum\n")
    words = run(pi, config=config)["by_name"]["word list"]
    assert (words.status, words.detail) == (Status.OK, "/usr/share/dict/wortliste (dictionary.path): 3 words; no "
                                            "lexicon of base forms (optional: sudo apt install dict-de-en), so the "
                                            "reveal offers inflected forms and proper names too")
    pi.write("usr/share/dictd/german-english.dict.dz", "")
    words = run(pi, config=config)["by_name"]["word list"]
    assert words.detail.endswith("3 words; the reveal's base forms: /usr/share/dictd/german-english.dict.dz")
    config.write_text('[dictionary]\npath = "/usr/share/dict/wortliste"\nreveal_words = "all"\n', encoding="utf-8")
    assert run(pi, config=config)["by_name"]["word list"].detail.endswith("3 words")
    assert run(pi)["by_name"]["word list"].status is Status.SKIP  # no list anywhere: the assist is off


# --- the profile and config --------------------------------------------------------------------------


def test_every_config_error_is_a_failure_and_a_valid_profile_is_still_checked(pi, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[appliance]\nlanguage = "fr"\n[timer]\nwarn_s = 99\n', encoding="utf-8")
    result = run(pi, config=config)
    errors = [c for c in result["checks"] if c.section == "config" and c.status is Status.FAIL]
    assert [c.detail.split(": ")[1] for c in errors] == ["appliance.language", "timer.warn_s"]
    assert all(c.fix == f"edit {config}: wordtable check-config lists every wrong key" for c in errors)
    assert result["by_name"]["display"].status is Status.OK  # the hardware was checked all the same
    assert result["by_name"]["state directory"].status is Status.SKIP


def test_a_broken_profile_lists_its_errors_and_skips_the_hardware(pi, tmp_path):
    profile = profile_file(tmp_path, edited("start = 26", "start = 22"))
    result = run(pi, profile)
    profile_errors = [c.detail for c in result["checks"] if c.name == "profile"]
    assert any("buttons.start" in d or "led_bar.pins[6]" in d for d in profile_errors)
    assert "display" not in result["by_name"] and "GPIO" not in result["by_name"]
    assert result["exit"] == 1


# --- output, the CLI, the troubleshooting list -------------------------------------------------------


def test_json_carries_every_check(pi):
    pi.i2c.addresses = {0x3D}
    checks = run(pi)["checks"]
    data = json.loads(to_json(checks))
    assert data["ok"] is False
    moved = next(c for c in data["checks"] if c["name"] == "display")
    assert moved["status"] == "fail" and moved["problem"] == "display-moved" and "0x3D" in moved["fix"]
    assert len(data["checks"]) == len(checks)


@pytest.mark.slow  # reads the whole German word list, twice
def test_the_command_on_the_sim_profile(tmp_path, capsys):
    assert main(["doctor", "--profile", "sim", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "✓ GPIO" in out and 'mock pins (board.pin_factory = "mock")' in out
    assert "simulated on a mock board" in out and "✗" not in out
    assert main(["doctor", "--profile", "sim", "--state-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_every_problem_has_a_fix_the_guide_can_print():
    for key, problem in PROBLEMS.items():
        assert problem.symptom and problem.fix, key
        assert template_fields(key) <= set(EXAMPLE), key
        assert "{" not in fix(key, **EXAMPLE), key


# --- the small readers -------------------------------------------------------------------------------


def test_the_file_readers(tmp_path):
    assert cmdline_consoles("a console=serial0,115200 b console=tty1") == ["serial0", "tty1"]
    assert cmdline_consoles(None) == []
    unit = tmp_path / "etc/systemd/system/wordtable.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Unit]\nUser=nobody\n[Service]\nUser=wordtable\nSupplementaryGroups=gpio\n"
                    "SupplementaryGroups=i2c dialout\n", encoding="utf-8")
    assert unit_settings(tmp_path) == {"User": "wordtable", "SupplementaryGroups": "gpio i2c dialout"}
    assert unit_settings(tmp_path / "nowhere") is None


def test_may_open_follows_owner_group_and_other_bits(tmp_path):
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/passwd").write_text(f"u:x:{SERVICE_UID}:{SERVICE_UID}::/:/bin/sh\n", encoding="utf-8")
    gid = os.getgid()
    (tmp_path / "etc/group").write_text(f"dev:x:{gid}:u\n", encoding="utf-8")
    user = account(tmp_path, name="u")
    assert user is not None and user.groups == {"dev"}
    device = tmp_path / "dev"
    device.write_text("")
    device.chmod(0o660)
    assert may_open(user, device)
    device.chmod(0o640)
    assert not may_open(user, device) and may_open(user, device, write=False)
    stranger = replace(user, gids=frozenset(), groups=frozenset())
    assert not may_open(stranger, device)
    device.chmod(0o666)
    assert may_open(stranger, device)
