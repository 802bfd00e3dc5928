"""The typed errors of the Quiddler core. Each says which rule the input broke, in words a table reads.

All derive from the shared `RuleError`; a Quiddler error's code is its English message (no i18n table).
"""

from __future__ import annotations

from firmware_host.core.games.rule_error import RuleError

__all__ = [
    "CardCountError",
    "ChallengeError",
    "DeckError",
    "GoingOutError",
    "HandSizeError",
    "NotationError",
    "RuleError",
    "SequenceError",
    "SetupError",
    "ShortWordError",
    "SolitaireError",
    "UnknownCardError",
    "UnknownPlayerError",
]


class DeckError(RuleError):
    """A deck table that is not a playable Quiddler deck (unknown face, bad copies or value, wrong total)."""


class NotationError(RuleError):
    """Typed cards that cannot be read: `typed` is the text, `position` the 0-based character where
    reading failed."""

    def __init__(self, message: str, text: str, position: int) -> None:
        super().__init__(f"{message} in {text!r} at character {position + 1}")
        self.typed = text
        self.position = position


class UnknownCardError(RuleError):
    """A card the deck does not have."""


class CardCountError(RuleError):
    """More copies of a card in a round than the deck holds."""


class ShortWordError(RuleError):
    """A word of fewer than two cards."""


class HandSizeError(RuleError):
    """Laid and unused cards that do not add up to the round's hand size."""


class GoingOutError(RuleError):
    """A going-out that is not one: unused cards left, or a second player going out in the same round."""


class UnknownPlayerError(RuleError):
    """A name that is not one of the game's players."""


class SetupError(RuleError):
    """A game set-up that cannot be played (player count, names, dealer, bonus choice)."""


class ChallengeError(RuleError):
    """A challenge that cannot be made (own word, no such word, already challenged)."""


class SequenceError(RuleError):
    """An event that does not fit the game's progress (laying outside a round, a ninth round, ...)."""


class SolitaireError(RuleError):
    """A solitaire move that cannot be made (no such pile, an empty pile, a pile used twice)."""
