"""One finding of the doctor: a check's name, its status and one line of detail, and when it failed, one
line saying what to do (from `hw.troubleshooting`, the list the wiring guide prints too)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from hw.troubleshooting import RASPIOS, fix


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"  # works, but not as set up in the wiring guide (does not fail the run)
    FAIL = "fail"
    SKIP = "skip"  # not applicable here (a mock board, no systemd …)


SYMBOLS = {Status.OK: "✓", Status.WARN: "!", Status.FAIL: "✗", Status.SKIP: "–"}


@dataclass(frozen=True, slots=True)
class Check:
    section: str  # board, buses, readers, service, config
    name: str
    status: Status
    detail: str
    fix: str = ""
    problem: str | None = None  # the hw.troubleshooting key of a failure or warning
    fields: tuple[tuple[str, Any], ...] = ()  # what its fix was filled in with

    def on(self, system: str) -> Check:
        """This finding with the fix for `system` (`hw.troubleshooting.RASPIOS` or `DEBIAN`)."""
        if self.problem is None:
            return self
        return replace(self, fix=fix(self.problem, system=system, **dict(self.fields)))

    def to_json(self) -> dict[str, Any]:
        return {"section": self.section, "name": self.name, "status": str(self.status), "detail": self.detail,
                "fix": self.fix, "problem": self.problem}


def ok(section: str, name: str, detail: str) -> Check:
    return Check(section, name, Status.OK, detail)


def skip(section: str, name: str, detail: str, hint: str = "") -> Check:
    return Check(section, name, Status.SKIP, detail, hint)


def problem(section: str, name: str, detail: str, key: str, *, warn: bool = False, **fields: Any) -> Check:
    """A failure (or a warning) with the fix line of problem `key` filled in with `fields` (Raspberry Pi OS's;
    `Check.on` gives another system's)."""
    status = Status.WARN if warn else Status.FAIL
    return Check(section, name, status, detail, fix(key, system=RASPIOS, **fields), key, tuple(fields.items()))
