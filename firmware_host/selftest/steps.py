"""The self-test's values: a step, what it asks the maker, what the maker typed, its result, and the summary
of the results to paste into a bug report."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from firmware_host.selftest.text import say


class Outcome(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"


MARKS = {Outcome.PASS: "✓", Outcome.FAIL: "✗", Outcome.SKIP: "–"}


@dataclass(frozen=True, slots=True)
class Typed:
    """A line typed in the terminal; None: the input ended."""

    line: str | None


@dataclass(frozen=True, slots=True)
class Prompt:
    """A step asks the maker: `text` says what should happen and what to do; `confirm`: answer yes or no."""

    step: str  # "display.border", "button.start.hold", "reader.rfid" …
    number: int
    total: int
    text: str
    confirm: bool


@dataclass(frozen=True, slots=True)
class Result:
    step: str
    what: str  # for the summary: "display: border"
    outcome: Outcome
    note: str = ""

    def line(self) -> str:
        return f"{MARKS[self.outcome]} {self.what}" + (f": {self.note}" if self.note else "")


@dataclass(frozen=True, slots=True)
class Step:
    id: str
    what: str
    run: Callable[[], Result]


class Quit(Exception):
    """The maker ended the walk (q, or the end of the input)."""


Tell = Callable[[Prompt | str], None]


def summary(results: Sequence[Result], header: Iterable[str] = (), lang: str = "de") -> str:
    """The walk's results as text to paste into a bug report: the header lines, a line per step, counts (in
    `lang`, the words the walk spoke)."""
    counts = {outcome: sum(r.outcome is outcome for r in results) for outcome in Outcome}
    lines = ["wordtable selftest", *header, ""]
    lines += [result.line() for result in results]
    lines += ["", say(lang, "totals", passed=counts[Outcome.PASS], failed=counts[Outcome.FAIL],
                      skipped=counts[Outcome.SKIP])]
    return "\n".join(lines) + "\n"
