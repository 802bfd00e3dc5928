"""The building blocks of a game's table-page view (pure; JSON-ready data the page renders as it is).

- `ask(...)`: what the current stage asks of one seat's phone — a label, a hint, whether it takes a
  typed line (`field`), and its buttons (`actions`): each sends `send` as the seat's `SeatEntry` text,
  with "{text}" replaced by the typed line. The page fills in the template and nothing else: which
  entries exist and what they mean is the game's (its `seat_entry`).
- `spoken(text)`: a box's footer message as a phone says it: without the parts that name the box's keys
  ("gewählt: Welle – START auf die zweite Gruppe" → "gewählt: Welle"); the page never names a key.
- `sheet(...)`: a table of the sheet: a title, column heads and rows of cells; a cell is a text or
  `cell(text, mark)` with a mark the page draws ("struck", "circled", "win", "out", "neg").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from firmware_host.core.i18n import texts

TEXT = {
    "de": {"send": "Senden", "board": "Punktetafel", "player": "Spieler", "total": "Summe", "round": "Runde"},
    "en": {"send": "Send", "board": "Scoreboard", "player": "Player", "total": "Total", "round": "Round"},
}

Cell = str | int | dict[str, Any]
_KEYS = re.compile(r"\b(START|NEXT|BACK|MENU)\b")
_PARTS = re.compile(r"\s+[·–]\s+")


t = texts(TEXT)


def action(label: str, send: str = "{text}") -> dict[str, str]:
    return {"label": label, "send": send}


def ask(kind: str, label: str, lang: str, *, hint: str = "", field: bool = True, draft: str = "",
        actions: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """An entry for one seat: `kind` is "word", "cards", "number" or "choice" (the page picks its keyboard);
    with a field and no actions, one "send" button sends the typed line."""
    return {"kind": kind, "label": label, "hint": hint, "field": field, "draft": draft,
            "actions": list(actions) if actions or not field else [action(t(lang, "send"))]}


def spoken(text: str) -> str:
    """`text` without its parts (between " · " and " – ") that name a box key ("" when all of them do)."""
    if not _KEYS.search(text):
        return text
    return " · ".join(part for part in _PARTS.split(text) if not _KEYS.search(part))


def cell(text: str | int, mark: str = "") -> Cell:
    return {"text": text, "mark": mark} if mark else text


def sheet(title: str, head: Iterable[str], rows: Iterable[Iterable[Cell]], *, mark: str = "") -> dict[str, Any]:
    return {"title": title, "head": list(head), "rows": [list(r) for r in rows], "mark": mark}


def board(lang: str, ranking: Iterable[tuple[int, str, int]], title: str = "") -> dict[str, Any]:
    """A scoreboard: place, player, points (the first place marked)."""
    rows = [[f"{place}.", cell(player, "win" if place == 1 else ""), points] for place, player, points in ranking]
    return sheet(title or t(lang, "board"), ("", t(lang, "player"), t(lang, "total")), rows)
