"""Perfect Words' clue warnings (RULES.md §3, P2): a term sharing 4 or more letters in a row with a clue word
of its arrow is kept and shown to the table, which decides; and the typed phase-1 line that places an arrow
or sets its clue words (`arrow_event`). Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from firmware_host.core.text_input import Name, Word

from .rules import SHARED_LETTERS, Event, Game, PlaceArrow, SetClues


def _letter_runs(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", text.casefold())


def _longest_common(a: str, b: str) -> str:
    best_end, best_len = 0, 0
    previous = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        current = [0] * (len(b) + 1)
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                current[j] = previous[j - 1] + 1
                if current[j] > best_len:
                    best_end, best_len = i, current[j]
        previous = current
    return a[best_end - best_len : best_end]


def shared_letters(term: str, clue: str) -> str:
    """The longest run of letters both texts contain, case-folded (words are compared letter run by run)."""
    best = ""
    for x in _letter_runs(term):
        for y in _letter_runs(clue):
            common = _longest_common(x, y)
            if len(common) > len(best):
                best = common
    return best


@dataclass(frozen=True, slots=True)
class ClueWarning:
    """P2: `term` shares `shared` (4+ letters) with `clue`, a clue word of its arrow. The table decides."""

    player: Name
    arrow: int
    term: Word
    clue: str
    shared: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "arrow": self.arrow,
            "term": self.term,
            "clue": self.clue,
            "shared": self.shared,
        }


def term_warnings(game: Game, player: str, arrow: int, term: str) -> tuple[ClueWarning, ...]:
    """The P2 warnings for a term `player` writes (or wrote) for `arrow`."""
    found = []
    for clue in game.clues(arrow):
        shared = shared_letters(term, clue)
        if len(shared) >= SHARED_LETTERS:
            found.append(ClueWarning(player, arrow, term, clue, shared))
    return tuple(found)


def clue_warnings(game: Game) -> tuple[ClueWarning, ...]:
    """Every entered term's P2 warnings, in entry order."""
    return tuple(w for t in game.terms for w in term_warnings(game, t.player, t.arrow, t.text))


_SET_CLUES = re.compile(r"^\s*(\d{1,2})\s+(\S.*)$")


def arrow_event(game: Game, text: str) -> Event:
    """A typed phase-1 line: "3 Schatz Insel" sets arrow 3's clue words anew, any other line places the
    next arrow with these clue words."""
    match = _SET_CLUES.match(text)
    if match:
        return SetClues(int(match.group(1)), tuple(match.group(2).split()))
    return PlaceArrow(len(game.lines) + 1, clues=tuple(text.split()))
