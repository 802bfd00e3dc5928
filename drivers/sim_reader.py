"""A pluggable stand-in for a reader's serial port, for the simulator and tests: pyserial's `loop://`.

Pass a `SimulatedPort` as the `opener` of a `CardReader`; `send(bytes)` is what the reader hardware
would transmit (`send_tag` an RDM6300 frame, `send_line` a scanner code), `unplug()` closes the open
port and makes opening fail until `replug()` — the reader thread then reports the reader missing and
back, as with a USB reader pulled out and plugged in again.
"""

from __future__ import annotations

import threading
from typing import Any

from drivers.rdm6300 import frame


class SimulatedPort:
    def __init__(self) -> None:
        self.plugged = True
        self.opened: list[Any] = []  # every port handed out, the open one last
        self._lock = threading.Lock()

    def __call__(self, url: str, *, baudrate: int, timeout: float) -> Any:
        import serial

        with self._lock:
            if not self.plugged:
                raise serial.SerialException(f"could not open port {url}: no such device (unplugged)")
            port = serial.serial_for_url("loop://", baudrate=baudrate, timeout=timeout)
            self.opened.append(port)
            return port

    def send(self, data: bytes) -> bool:
        """Transmit `data` to the reader thread; False when no port is open (unplugged, not yet opened)."""
        with self._lock:
            if not self.plugged or not self.opened or not self.opened[-1].is_open:
                return False
            self.opened[-1].write(data)
            return True

    def send_tag(self, tag_id: str, repeats: int = 3) -> bool:
        """An RDM6300 tag held to the reader: its frame `repeats` times."""
        return self.send(frame(tag_id) * repeats)

    def send_line(self, code: str) -> bool:
        return self.send(code.encode("ascii") + b"\r\n")

    def unplug(self) -> None:
        with self._lock:
            self.plugged = False
            if self.opened:
                self.opened[-1].close()

    def replug(self) -> None:
        with self._lock:
            self.plugged = True
