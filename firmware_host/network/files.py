"""What the Wi-Fi watcher (root) and the table's service (unprivileged) tell each other, as small JSON files
in the state directory: the box's access point's name and password (`wifi-ap.json`, the watcher's, made once
per box), the Wi-Fi's status (`wifi-status.json`, written by the watcher, read by the service) and the
table's requests (`wifi-requests/*.json`: open the access point; add a network), which the watcher carries
out and deletes. Each file is written atomically (`paths.write_atomically`)."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from firmware_host.paths import write_atomically

AP_FILE = "wifi-ap.json"
STATUS_FILE = "wifi-status.json"
REQUESTS_DIR = "wifi-requests"
PROFILES_DIR = "wifi-profiles"  # NetworkManager's own (keyfile.path on the image): root's, 0700, never copied
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: read off the OLED if need be
PASSWORD_LENGTH = 12  # WPA2 wants 8 to 63; 12 of 32 letters: 60 bits


@dataclass(frozen=True, slots=True)
class AccessPoint:
    ssid: str
    password: str


@dataclass(frozen=True, slots=True)
class Status:
    """The Wi-Fi as the watcher last saw it: `link` (a `decide.Link` value), the network's name, the box's
    address on it ("" when none) and, while the box's own access point is up, its password."""

    link: str
    ssid: str = ""
    address: str = ""
    password: str = ""


@dataclass(frozen=True, slots=True)
class Added:
    ssid: str
    password: str


# Where the box's own id is read, first found first: the board's serial number (a Pi's, from its device tree:
# every board its own, even when cards are flashed from one image), else the system's machine id.
BOX_IDS = (Path("/sys/firmware/devicetree/base/serial-number"), Path("/etc/machine-id"))


def box_id(paths: tuple[Path, ...] = BOX_IDS) -> str:
    """The first of `paths` that reads as a non-empty id (the device tree's ends in NUL); OSError when none."""
    for path in paths:
        try:
            text = path.read_bytes().decode("ascii", "replace").strip("\x00 \t\r\n")
        except OSError:
            continue
        if text:
            return text
    raise OSError(f"no id of the box in {', '.join(map(str, paths))}")


def box_ssid(machine_id: str) -> str:
    """`wordtable-XXXX`: four hex digits of the box's id (`box_id`), the same at every boot."""
    return "wordtable-" + hashlib.sha256(machine_id.strip().encode()).hexdigest()[:4].upper()


def access_point(directory: Path, machine_id: str) -> AccessPoint:
    """The box's access point: kept in `AP_FILE` (mode 0600), made with a random password the first time."""
    path = directory / AP_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return AccessPoint(str(data["ssid"]), str(data["password"]))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    made = AccessPoint(box_ssid(machine_id),
                       "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH)))
    write_atomically(path, json.dumps(asdict(made)).encode())
    os.chmod(path, 0o600)
    return made


def write_status(directory: Path, status: Status) -> None:
    """Publish `status` for the table's service (readable by the state directory's owner)."""
    path = directory / STATUS_FILE
    write_atomically(path, json.dumps(asdict(status)).encode())
    _give_to_owner(directory, path)


def read_status(directory: Path) -> Status | None:
    """The status the watcher published (None: no watcher, or nothing readable yet)."""
    try:
        data = json.loads((directory / STATUS_FILE).read_text(encoding="utf-8"))
        return Status(str(data["link"]), str(data.get("ssid", "")), str(data.get("address", "")),
                      str(data.get("password", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def ask_for_ap(directory: Path) -> None:
    """Ask the watcher to open the box's access point now."""
    _request(directory, {"ap": True})


def ask_to_add(directory: Path, ssid: str, password: str) -> None:
    """Ask the watcher to add the network `ssid` (WPA2 `password`, "" for an open one) and join it.
    ValueError for a name or password NetworkManager would refuse."""
    if not 1 <= len(ssid.encode()) <= 32:
        raise ValueError("a network's name has 1 to 32 bytes")
    if password and not 8 <= len(password) <= 63:
        raise ValueError("a WPA2 password has 8 to 63 characters")
    _request(directory, {"add": {"ssid": ssid, "password": password}})


def take_requests(directory: Path) -> tuple[bool, list[Added]]:
    """The requests waiting, oldest first, each deleted once read: (the access point asked for, the networks
    to add). A file that does not read is deleted."""
    folder = directory / REQUESTS_DIR
    ap, added = False, []
    try:
        names = sorted(folder.glob("*.json"))
    except OSError:
        return False, []
    for path in names:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            ap = ap or bool(data.get("ap"))
            if isinstance(data.get("add"), dict):
                added.append(Added(str(data["add"]["ssid"]), str(data["add"].get("password", ""))))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        path.unlink(missing_ok=True)
    return ap, added


def _request(directory: Path, data: dict[str, object]) -> None:
    folder = directory / REQUESTS_DIR
    folder.mkdir(mode=0o700, exist_ok=True)
    _give_to_owner(directory, folder)  # made by the CLI as root: the service writes here too
    write_atomically(folder / f"{time.time_ns()}-{secrets.token_hex(4)}.json", json.dumps(data).encode())


def _give_to_owner(directory: Path, path: Path) -> None:
    """The file to the directory's owner, when this process may (the watcher runs as root)."""
    owner = directory.stat()
    if os.geteuid() == 0 and (owner.st_uid, owner.st_gid) != (0, 0):
        os.chown(path, owner.st_uid, owner.st_gid)
