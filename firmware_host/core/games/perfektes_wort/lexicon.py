"""A word list as a pure lookup (the dictionary assist of ruling R3). Loading it is I/O and lives in
`firmware_host.word_index`; the rules only ever receive the finished value, or None when there is none."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .words import normalize


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Known words in the game's spelling (upper case, ß kept). Only a hint: the table decides."""

    words: frozenset[str]

    @classmethod
    def of(cls, words: Iterable[str]) -> Lexicon:
        return cls(frozenset(w for w in (normalize(word) for word in words) if w))

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and normalize(word) in self.words

    def __len__(self) -> int:
        return len(self.words)


def shortenings(word: str, max_length: int, lexicon: Lexicon | None = None) -> tuple[str, ...]:
    """The prefixes `word` may be shortened to (cut from the end, at most `max_length`, at least 2 letters,
    shorter than the word), longest first; with a lexicon only those it knows."""
    longest = min(max_length, len(word) - 1)
    prefixes = tuple(word[:n] for n in range(longest, 1, -1))
    return prefixes if lexicon is None else tuple(p for p in prefixes if p in lexicon)
