"""A word list as the solvers read it: its words grouped by first letter and length.

The solvers of the reveal (`perfektes_wort.best_word`, `quiddler.best_lay`) only ask for one group at a
time — the words starting with a letter and having a length — as one newline-joined text, which they
scan with a regular expression or split. The shell's compact index (`firmware_host.word_index`, read from
a file in the state directory) and the small in-memory `GroupedWords` below both answer that; the core
never reads a file. Words are in the game's spelling (one character per letter, upper case).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol


class WordGroups(Protocol):
    """A word list grouped by (first letter, length)."""

    name: str  # which list it is, as the table is told ("wngerman", "tests")

    def group(self, first: str, length: int) -> str:
        """The words starting with `first` and `length` letters long, sorted, joined by newlines ("" none)."""
        ...

    def firsts(self) -> frozenset[str]:
        """The first letters that have any word."""
        ...


@dataclass(frozen=True, slots=True)
class GroupedWords:
    """A `WordGroups` held in a dict: for tests and small lists. Build it with `of`."""

    name: str
    groups: dict[tuple[str, int], str]

    @classmethod
    def of(cls, name: str, words: Iterable[str]) -> GroupedWords:
        """Group `words`, which must already be in the game's spelling (the caller filters and spells)."""
        by_key: dict[tuple[str, int], set[str]] = {}
        for word in words:
            if word:
                by_key.setdefault((word[0], len(word)), set()).add(word)
        return cls(name, {key: "\n".join(sorted(group)) for key, group in by_key.items()})

    def group(self, first: str, length: int) -> str:
        return self.groups.get((first, length), "")

    def firsts(self) -> frozenset[str]:
        return frozenset(first for first, _ in self.groups)

    def __iter__(self) -> Iterator[str]:
        for text in self.groups.values():
            yield from text.split("\n")
