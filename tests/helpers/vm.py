"""The flashable image (systemd/image/build.sh) booted in QEMU's `virt` machine with Debian's arm64 kernel
from the image's own boot partition: the serial console as a shell, the table page on a forwarded port,
`kill()` as a power cut.

The image is used as built, on a copy, with three files added to its root (debugfs, no mount): a drop-in that
starts the service with the simulator's profile (the `virt` machine has no GPIO header or OLED; the service,
its journal, its page and its unit are the real ones), the page switched on (on mock pins it is off unless
asked), and a root login on the serial console for the test's commands."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

QEMU = "qemu-system-aarch64"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # the shell's terminal controls (bracketed paste, colours)
# As the image's cmdline.txt (raspi-firmware's, `ro` last: the root read-only for overlayroot), with the
# `virt` machine's serial console, not the Pi's.
APPEND = "root=LABEL=wt-root rw rootwait fsck.repair=yes net.ifnames=0 ro console=ttyAMA0"

ADDED = {
    "/etc/systemd/system/wordtable.service.d/vm.conf": (
        "# the emulated machine: no GPIO header, no OLED (tests/helpers/vm.py)\n"
        "[Service]\nExecStart=\nExecStart=/opt/wordtable/venv/bin/wordtable run --profile sim\n"),
    "/etc/wordtable/config.toml": "[page]\nenabled = true\n",
    "/etc/systemd/system/serial-getty@ttyAMA0.service.d/autologin.conf": (
        "[Service]\nExecStart=\n"
        "ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,38400,9600 %I vt220\n"),
}


@dataclass(frozen=True)
class Partition:
    start: int  # bytes
    size: int


def partitions(image: Path) -> list[Partition]:
    table = json.loads(subprocess.run(["sfdisk", "-J", str(image)], check=True, capture_output=True,
                                      text=True).stdout)["partitiontable"]
    sector = int(table.get("sectorsize", 512))
    return [Partition(p["start"] * sector, p["size"] * sector) for p in table["partitions"]]


def prepared(image: Path, into: Path, more: Mapping[str, str] | None = None) -> tuple[Path, Path, Path]:
    """A copy of `image` in `into` with the files of `ADDED` (and of `more`: path -> text), and its kernel and
    initrd: (disk, kernel, initrd)."""
    disk = into / "disk.img"
    subprocess.run(["cp", "--sparse=always", str(image), str(disk)], check=True)
    boot, root = partitions(disk)[:2]
    names = subprocess.run(["mdir", "-b", "-i", f"{disk}@@{boot.start}", "::/"], check=True, capture_output=True,
                           text=True).stdout.split()
    kernel = max(n for n in names if re.fullmatch(r"::/vmlinuz-.*", n))
    initrd = max(n for n in names if re.fullmatch(r"::/initrd\.img-.*", n))
    for name, local in ((kernel, into / "vmlinuz"), (initrd, into / "initrd.img")):
        subprocess.run(["mcopy", "-o", "-i", f"{disk}@@{boot.start}", name, str(local)], check=True)
    device = f"{disk}?offset={root.start}"
    commands = []
    made: set[str] = set()
    for index, (path, text) in enumerate({**ADDED, **(more or {})}.items()):
        local = into / f"added-{index}-{Path(path).name}"  # two drop-ins may share a name
        local.write_text(text)
        parts = Path(path).parent.parts
        folders = ["/".join(parts[: i + 1])[1:] for i in range(1, len(parts))]
        commands += [f"mkdir {folder}" for folder in folders if folder not in made]
        made.update(folders)
        commands.append(f"write {local} {path}")
    subprocess.run(["debugfs", "-w", "-f", "-", device], input="\n".join(commands) + "\n", check=True,
                   capture_output=True, text=True)
    return disk, into / "vmlinuz", into / "initrd.img"


def fsck(disk: Path) -> list[tuple[str, int, str]]:
    """e2fsck -fn of every ext4 partition of `disk` (the machine stopped): (label, exit code, last line)."""
    results = []
    for part in partitions(disk)[1:]:
        device = f"{disk}?offset={part.start}"
        label = subprocess.run(["e2label", device], capture_output=True, text=True).stdout.strip()
        done = subprocess.run(["e2fsck", "-fn", device], capture_output=True, text=True)
        results.append((label, done.returncode, (done.stdout.strip().splitlines() or [""])[-1]))
    return results


class Machine:
    """One boot of the prepared disk: `shell(cmd)` runs a command on the serial console, `url` is the page."""

    def __init__(self, disk: Path, kernel: Path, initrd: Path, port: int, memory: str = "1024",
                 console: Path | None = None) -> None:
        self.port, self.url = port, f"http://127.0.0.1:{port}"
        self.console = console.open("ab") if console is not None else None
        self.output = ""
        self._lock = threading.Lock()
        self.started = time.monotonic()
        self.child = subprocess.Popen(
            [QEMU, "-M", "virt", "-cpu", "cortex-a53", "-smp", "2", "-m", memory, "-display", "none",
             "-monitor", "none", "-serial", "stdio", "-no-reboot",
             "-kernel", str(kernel), "-initrd", str(initrd),
             "-append", APPEND,
             "-drive", f"file={disk},if=none,format=raw,id=hd", "-device", "virtio-blk-device,drive=hd",
             "-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{port}-:8080",
             "-device", "virtio-net-device,netdev=net0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.child.stdout is not None
        while chunk := self.child.stdout.read1(4096):  # type: ignore[attr-defined]
            with self._lock:
                self.output += chunk.decode("utf-8", "replace")
            if self.console is not None:
                self.console.write(chunk)
                self.console.flush()

    def wait_for(self, pattern: str, timeout: float, since: int = 0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                found = re.search(pattern, self.output[since:])
            if found:
                return found
            if self.child.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"no {pattern!r} within {timeout:.0f} s; console ends:\n{self.output[-3000:]}")

    def shell(self, command: str, timeout: float = 120.0) -> str:
        """`command`'s output on the serial console's root shell (which must be logged in)."""
        assert self.child.stdin is not None
        mark = f"__done_{time.monotonic_ns()}__"
        with self._lock:
            since = len(self.output)
        self.child.stdin.write(f"{command}; echo {mark[:4]}''{mark[4:]}\n".encode())
        self.child.stdin.flush()
        found = self.wait_for(re.escape(mark), timeout, since)
        with self._lock:
            text = self.output[since: since + found.start()]
        lines = ANSI.sub("", text).replace("\r", "").splitlines()
        echoed = f"{mark[:4]}''{mark[4:]}"  # the command's echo ends with this; a late prompt may come before it
        after = max((i for i, line in enumerate(lines) if echoed in line), default=0)
        return "\n".join(lines[after + 1:]).strip()

    def wait_for_page(self, timeout: float) -> float:
        """Seconds from power-on until the page answers 200."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=5) as answer:
                    if answer.status == 200:
                        return time.monotonic() - self.started
            except OSError:
                pass
            if self.child.poll() is not None:
                break
            time.sleep(1)
        raise AssertionError(f"the page did not answer within {timeout:.0f} s; console ends:\n{self.output[-3000:]}")

    def kill(self) -> None:
        """The power cut: the machine is gone at once, nothing flushed by its kernel."""
        self.child.kill()
        self.child.wait()

    def poweroff(self, timeout: float = 180.0) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(b"systemctl poweroff\n")
        self.child.stdin.flush()
        try:
            self.child.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("the machine did not power off") from None


def have_tools() -> str | None:
    """What is missing to boot an image here (None: nothing)."""
    for tool in (QEMU, "debugfs", "mcopy", "mdir", "sfdisk", "e2fsck"):
        if shutil.which(tool) is None:
            return tool
    return None
