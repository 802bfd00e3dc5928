"""The `[[readers]]` section of a board profile: validated into typed `ReaderConfig`s.

`parse_readers(data)` takes the parsed TOML document (or just its `readers` list) and returns either the
configs or every error at once as (key, message) pairs, keys like `readers[1].usb`. Rules:
- at most two readers; names unique; `kind` is "rdm6300", "scanner" (serial) or "hid" (a scanner in
  keyboard mode, read from /dev/input and grabbed so its digits never land in a text field);
- exactly one of `port` (a device path or a pyserial URL; for "hid" an input device such as
  /dev/input/by-id/usb-…-event-kbd) and `usb` ("vvvv:pppp", hex VID:PID);
- `role`: "draw" or "discard" (the pile the reader watches), or "choose" (one reader, pile chosen by a
  button); two readers must have different roles and neither may be "choose".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ReaderKind(StrEnum):
    RDM6300 = "rdm6300"
    SCANNER = "scanner"  # a barcode/QR scanner on a serial port (USB CDC or UART): lines of text
    HID = "hid"  # a barcode/QR scanner in USB keyboard mode: read from /dev/input (drivers.keyboard)


class ReaderRole(StrEnum):
    DRAW = "draw"
    DISCARD = "discard"
    CHOOSE = "choose"


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    name: str
    kind: ReaderKind
    role: ReaderRole
    port: str | None = None  # device path or pyserial URL
    usb: tuple[int, int] | None = None  # (VID, PID)
    baud: int = 9600
    removal_gap_ms: int = 500  # rdm6300: quiet time after which the card counts as removed
    max_length: int = 64  # scanner: longest code accepted

    def where(self) -> str:
        """Where the reader is expected, for messages: the port or the USB id."""
        if self.usb is not None:
            return f"USB {self.usb[0]:04x}:{self.usb[1]:04x}"
        return str(self.port)


ConfigError = tuple[str, str]
_KEYS = {"name", "kind", "role", "port", "usb", "baud", "removal_gap_ms", "max_length"}
_USB = re.compile(r"^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$")
MAX_READERS = 2


def _int(entry: Mapping[str, Any], key: str, default: int, low: int, high: int,
         where: str, errors: list[ConfigError]) -> int:
    value = entry.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        errors.append((f"{where}.{key}", f"must be a whole number from {low} to {high}, not {value!r}"))
        return default
    return value


def _one(entry: Any, where: str, errors: list[ConfigError]) -> ReaderConfig | None:
    if not isinstance(entry, Mapping):
        errors.append((where, "must be a table ([[readers]])"))
        return None
    start = len(errors)
    for key in sorted(set(entry) - _KEYS):
        errors.append((f"{where}.{key}", f"unknown key; known: {', '.join(sorted(_KEYS))}"))
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        errors.append((f"{where}.name", "must be a non-empty text"))
    kind = entry.get("kind")
    if not isinstance(kind, str) or kind not in {k.value for k in ReaderKind}:
        errors.append((f"{where}.kind", f"must be one of {', '.join(ReaderKind)}, not {kind!r}"))
    role = entry.get("role")
    if not isinstance(role, str) or role not in {r.value for r in ReaderRole}:
        errors.append((f"{where}.role", f"must be one of {', '.join(ReaderRole)}, not {role!r}"))
    port, usb_text = entry.get("port"), entry.get("usb")
    usb: tuple[int, int] | None = None
    if (port is None) == (usb_text is None):
        errors.append((where, "give exactly one of port (a device path) and usb (VID:PID)"))
    elif port is not None and (not isinstance(port, str) or not port.strip()):
        errors.append((f"{where}.port", "must be a device path such as /dev/serial0"))
    elif usb_text is not None:
        match = _USB.match(usb_text) if isinstance(usb_text, str) else None
        if match is None:
            errors.append((f"{where}.usb", f"must be VID:PID in hex such as 1a86:7523, not {usb_text!r}"))
        else:
            usb = (int(match.group(1), 16), int(match.group(2), 16))
    baud = _int(entry, "baud", 9600, 1200, 921600, where, errors)
    gap = _int(entry, "removal_gap_ms", 500, 50, 10000, where, errors)
    max_length = _int(entry, "max_length", 64, 1, 4096, where, errors)
    if len(errors) > start:
        return None
    return ReaderConfig(
        str(name).strip(), ReaderKind(str(kind)), ReaderRole(str(role)), port, usb, baud, gap, max_length
    )


def parse_readers(data: Mapping[str, Any] | Sequence[Any]) -> list[ReaderConfig] | list[ConfigError]:
    """Typed reader configs, or all errors as (key, message). No readers is valid (buttons only)."""
    entries = data.get("readers", []) if isinstance(data, Mapping) else data
    if not isinstance(entries, Sequence) or isinstance(entries, str):
        return [("readers", "must be a list of tables ([[readers]])")]
    errors: list[ConfigError] = []
    if len(entries) > MAX_READERS:
        errors.append(("readers", f"at most {MAX_READERS} readers, found {len(entries)}"))
    configs = [_one(entry, f"readers[{i}]", errors) for i, entry in enumerate(entries)]
    good = [config for config in configs if config is not None]
    names = [config.name for config in good]
    for name in sorted({n for n in names if names.count(n) > 1}):
        errors.append(("readers", f"the name {name!r} is used twice"))
    if len(good) == 2:
        roles = {config.role for config in good}
        if ReaderRole.CHOOSE in roles:
            errors.append(
                ("readers", 'role "choose" is for a single reader; two readers watch draw and discard')
            )
        elif len(roles) == 1:
            errors.append(("readers", f'both readers have role "{good[0].role}"; one draw, one discard'))
    return errors if errors else good
