"""What rules cores share: the typed `RuleError`, replaying a record through a core, text columns.

Pure: no I/O. A rules core is `new_game(setup) -> Game`, `apply(game, event) -> Game` (raising a
`RuleError` subclass for an entry the rules do not allow) and a scoring function; `replay` drives such a
core from a record and turns every broken rule into a `RecordError` with its line number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from firmware_host.core.i18n import Table, pick
from firmware_host.core.record import GameRecord, RecordError, RecordLine

G = TypeVar("G")
E = TypeVar("E")


class RuleError(ValueError):
    """An entry the rules do not allow. `code` names the broken rule; `text(lang)` explains it.

    Subclasses set `TEXTS` (an i18n table keyed by code). `str(error)` is the English text.
    """

    TEXTS: ClassVar[Table] = {"de": {}, "en": {}}

    def __init__(self, code: str, **fields: object) -> None:
        self.code = code
        self.fields = fields
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        return pick(self.TEXTS, lang, self.code, **self.fields)


def replay(
    record: GameRecord,
    setup: Callable[[RecordLine], G],
    parse: Callable[[RecordLine], E],
    apply: Callable[[G, E], G],
) -> G:
    """Fold a record: its first event line must be "setup"; every later line is parsed and applied.

    Raises `RecordError` (with the line number) for a malformed line or an entry the rules refuse.
    """
    if not record.lines:
        raise RecordError(0, "the record has no events: the first event must be 'setup'")
    first, *rest = record.lines
    if first.event != "setup":
        raise RecordError(first.line, f"the first event must be 'setup', not '{first.event}'")
    try:
        game = setup(first)
    except RuleError as exc:
        raise first.error(str(exc)) from None
    for line in rest:
        event = parse(line)
        try:
            game = apply(game, event)
        except RuleError as exc:
            raise line.error(str(exc)) from None
    return game


def apply_lines(
    game: G,
    lines: Sequence[Mapping[str, Any]],
    parse: Callable[[RecordLine], E],
    apply: Callable[[G, E], G],
) -> G:
    """Apply record lines that were each accepted when they were entered (the table's undo rebuilds a
    game this way); they are numbered from 3, after the header and the setup line."""
    for number, line in enumerate(lines, start=3):
        game = apply(game, parse(RecordLine(number, str(line["event"]), line)))
    return game


def unknown_event(line: RecordLine, known: Sequence[str]) -> RecordError:
    return line.error(f"unknown event; this game knows: {', '.join(known)}")


def columns(rows: Sequence[Sequence[str]], right: frozenset[int] = frozenset()) -> list[str]:
    """Rows of cells as aligned text lines; columns whose index is in `right` are right-aligned."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(max(map(len, rows)))]
    lines = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    return lines
