"""The table events of a Quiddler game, as applied to the rules core and as written to the record.

Each step is one line of the game record (docs/quiddler.md) and one call of the rules core. The flow keeps
the steps applied so far; undo drops the last one and rebuilds the game by applying the rest again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.core.games import quiddler as q


@dataclass(frozen=True, slots=True)
class SetupStep:
    players: tuple[str, ...]
    dealer: str
    bonus: q.Bonus = q.Bonus.LONGEST

    def apply(self, game: q.Game | None) -> q.Game:
        if game is not None:
            raise q.SequenceError("the game is already set up")
        return q.new_game(self.players, dealer=self.dealer, two_player_bonus=self.bonus)

    def line(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": "setup", "players": list(self.players), "dealer": self.dealer}
        if len(self.players) == 2:
            data["bonus"] = self.bonus.value
        return data


@dataclass(frozen=True, slots=True)
class RoundStartStep:
    number: int

    def apply(self, game: q.Game | None) -> q.Game:
        return q.start_round(_set_up(game))

    def line(self) -> dict[str, Any]:
        return {"event": "round_start", "round": self.number}


@dataclass(frozen=True, slots=True)
class LayStep:
    player: str
    words: tuple[tuple[str, ...], ...]
    unused: tuple[str, ...] = ()
    went_out: bool = False

    def apply(self, game: q.Game | None) -> q.Game:
        return q.lay_down(_set_up(game), self.player, self.words, self.unused, self.went_out)

    def line(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": "lay", "player": self.player, "words": [q.format_cards(w) for w in self.words]}
        if self.unused:
            data["unused"] = q.format_cards(self.unused)
        if self.went_out:
            data["went_out"] = True
        return data


@dataclass(frozen=True, slots=True)
class ChallengeStep:
    challenger: str
    owner: str
    word: tuple[str, ...]
    allowed: bool

    def apply(self, game: q.Game | None) -> q.Game:
        return q.challenge(_set_up(game), self.challenger, self.owner, self.word, self.allowed)

    def line(self) -> dict[str, Any]:
        return {
            "event": "challenge",
            "challenger": self.challenger,
            "player": self.owner,
            "word": q.format_cards(self.word),
            "allowed": self.allowed,
        }


@dataclass(frozen=True, slots=True)
class RoundEndStep:
    def apply(self, game: q.Game | None) -> q.Game:
        return q.end_round(_set_up(game))

    def line(self) -> dict[str, Any]:
        return {"event": "round_end"}


Step = SetupStep | RoundStartStep | LayStep | ChallengeStep | RoundEndStep


def rebuild(steps: Sequence[Step]) -> q.Game | None:
    """The game after applying `steps` in order (None before the setup). Raises `RuleError` when one
    of them is refused (never for steps that were each accepted in this order before)."""
    game: q.Game | None = None
    for step in steps:
        game = step.apply(game)
    return game


def _set_up(game: q.Game | None) -> q.Game:
    if game is None:
        raise q.SequenceError("the game is not set up yet")
    return game
