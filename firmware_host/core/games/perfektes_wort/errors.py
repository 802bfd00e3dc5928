"""Typed errors of Das perfekte Wort. Each says what is wrong and what the table can do instead.

`RuleError.ref` names the table event at fault (the record's line number; 0 when unknown), so that an
error found while scoring can still point at the entry that caused it.
"""

from __future__ import annotations


class RuleError(Exception):
    """An event or state that the rules do not allow. `message` is the explanation shown to people."""

    def __init__(self, message: str, ref: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.ref = ref


class DataError(RuleError):
    """Game data (sheet, deck, points cards, vowel values) that is malformed; `key` names the place."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key


class SetupError(RuleError):
    """The setup cannot start a game (players, deck, sheet); or an event came before/after setup."""


class UnknownPlayer(RuleError):
    """An event names a player who is not in the game."""


class RoundError(RuleError):
    """An event for a round that does not exist, is not yet revealed, or a reveal out of turn."""


class WrongStartingLetter(RuleError):
    """The word does not begin with the round's starting letter."""


class BadLetters(RuleError):
    """The word holds characters that are not letters of the game."""


class TooLong(RuleError):
    """A word longer than the round's maximum length; `prefixes` are the allowed shortenings."""

    def __init__(self, message: str, prefixes: tuple[str, ...], ref: int = 0) -> None:
        super().__init__(message, ref)
        self.prefixes = prefixes


class EntryError(RuleError):
    """An entry step that does not fit the entry (no word yet, a second word, not a prefix, …)."""


class Unresolved(RuleError):
    """A word declared invalid that was neither shortened nor struck."""


class FieldError(RuleError):
    """A bonus-field action that is not allowed (solo strike of a used or struck field, unknown field…)."""
