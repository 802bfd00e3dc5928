"""Parser for line-terminated barcode/QR scanner codes (USB-serial or UART). Sans-I/O.

A code is a line of printable ASCII (0x20–0x7E) ended by CR, LF or CR LF; surrounding blanks are
stripped and empty lines ignored. A line longer than `max_length` or holding any other byte is dropped
whole, with a reason kept in `rejected` (the last few) and counted in `stats`. The parser never holds more
than `max_length` bytes.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

MAX_LENGTH = 64
_TERMINATORS = frozenset(b"\r\n")


@dataclass(frozen=True, slots=True)
class Rejected:
    """A dropped line: `reason` is "too-long" or "not-printable"; `preview` its printable start."""

    reason: str
    preview: str


class LineParser:
    def __init__(self, max_length: int = MAX_LENGTH, keep_rejected: int = 8) -> None:
        if max_length < 1:
            raise ValueError("max_length must be at least 1")
        self.max_length = max_length
        self._line = bytearray()
        self._spoilt: str | None = None  # reason the current line will be dropped at its end
        self.rejected: deque[Rejected] = deque(maxlen=keep_rejected)
        self.stats: Counter[str] = Counter()

    @property
    def pending(self) -> int:
        return len(self._line)

    def reset(self) -> None:
        self._line.clear()
        self._spoilt = None

    def feed(self, data: bytes) -> list[str]:
        codes: list[str] = []
        line = self._line
        for byte in data:
            if byte in _TERMINATORS:
                self._end_line(codes)
            elif self._spoilt is not None:
                continue
            elif not 0x20 <= byte <= 0x7E:
                self._spoilt = "not-printable"
            elif len(line) >= self.max_length:
                self._spoilt = "too-long"
            else:
                line.append(byte)
        return codes

    def _end_line(self, codes: list[str]) -> None:
        text = self._line.decode("ascii").strip()
        self._line.clear()
        if self._spoilt is not None:
            self.stats[self._spoilt] += 1
            self.rejected.append(Rejected(self._spoilt, text[:16]))
            self._spoilt = None
        elif text:
            self.stats["codes"] += 1
            codes.append(text)
