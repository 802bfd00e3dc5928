"""The word list's reveals of the best play, as the games that ask for them (`RevealBest`) keep them."""

from __future__ import annotations

from firmware_host.core.events import BestRevealed


def answered(best: tuple[BestRevealed, ...], answer: BestRevealed) -> tuple[BestRevealed, ...]:
    """The reveals kept so far with `answer` (one per round: a later answer replaces the round's), in round
    order."""
    kept = tuple(b for b in best if b.round != answer.round)
    return tuple(sorted((*kept, answer), key=lambda b: b.round))
