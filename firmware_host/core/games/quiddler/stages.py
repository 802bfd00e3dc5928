"""Quiddler's stages at the table, each a value holding its own cursor and choices (`table.QuiddlerFlow.stage`;
its `STAGES` say what each does, shows and waits for): the setup's steps, the pages between rounds, who went
out, a player's lay-down, the challenges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from firmware_host.core.table.stage_bases import Picking, Plain

from .scoring import Bonus

if TYPE_CHECKING:
    from .rules import Game

MAX_PLAYERS = 8
BONUSES = (Bonus.LONGEST, Bonus.MOST)

S = TypeVar("S", bound="SetupStep")


@dataclass(frozen=True, slots=True)
class SetupStep:
    """A step of the setup: `names` holds a name for every possible seat; the first `count` play. The
    steps carry the same choices (`to` another step keeps them)."""

    names: tuple[str, ...]
    count: int
    cursor: int = 0
    dealer: int = 0
    bonus: Bonus = Bonus.LONGEST

    @property
    def players(self) -> tuple[str, ...]:
        return self.names[: self.count]

    def to(self, step: type[S], **changes: Any) -> S:
        """The setup's step `step` with these choices, `changes` made."""
        choices = {"cursor": self.cursor, "dealer": self.dealer, "bonus": self.bonus, **changes}
        return step(self.names, self.count, **choices)


@dataclass(frozen=True, slots=True)
class PlayerCount(SetupStep):
    """How many play (typed, or Turn/NEXT)."""


@dataclass(frozen=True, slots=True)
class PlayerNames(SetupStep):
    """The names, typed seat by seat (`cursor`)."""


@dataclass(frozen=True, slots=True)
class DealerPick(SetupStep):
    """Who deals first."""


@dataclass(frozen=True, slots=True)
class BonusPick(SetupStep):
    """Two players: which one bonus is played (Q3)."""


@dataclass(frozen=True, slots=True)
class Summary(SetupStep):
    """The choices; START begins the game."""


class PlanPage(Plain):
    """Between rounds: the next round's plan (who deals how many, who starts); START begins it."""


class TablePage(Plain):
    """The round just scored, with the word list's best lay-downs."""


class BoardPage(Plain):
    """The scoreboard after a round."""


class FinalPage(Plain):
    """The final standings; START leaves."""


class OutChoice(Picking):
    """Who went out this round (the last option: nobody); that player's lay-down is entered first."""


@dataclass(frozen=True, slots=True)
class LayEntry:
    player: str
    went_out: bool
    words: tuple[tuple[str, ...], ...] = ()
    partial: tuple[str, ...] = ()  # a word being scanned card by card
    unused: tuple[str, ...] = ()
    unused_stage: bool = False


class ChallengeList(Plain):
    """The round's challenges so far: START challenges a word, NEXT ends the round."""


class ChallengerPick(Picking):
    """Who challenges."""


@dataclass(frozen=True, slots=True)
class TargetPick:
    """Which laid word `challenger` names (`table._targets`)."""

    challenger: str
    cursor: int = 0


@dataclass(frozen=True, slots=True)
class VerdictPick:
    """The table's verdict on `challenger`'s target `target`: allowed (cursor 0) or not."""

    challenger: str
    target: int
    cursor: int = 0


Stage = (
    PlayerCount | PlayerNames | DealerPick | BonusPick | Summary
    | PlanPage | TablePage | BoardPage | FinalPage
    | OutChoice | LayEntry | ChallengeList | ChallengerPick | TargetPick | VerdictPick
)
Cursor = DealerPick | BonusPick | ChallengerPick | TargetPick | VerdictPick  # the steps chosen with a cursor


# --- the stage a game state asks for ---------------------------------------------------------------


def next_stage(game: Game) -> Stage:
    """The stage the game asks for next: the pages between rounds, who went out, the lay-downs left, the
    challenges."""
    current = game.current
    if current is None:
        return TablePage() if game.finished else PlanPage()
    if not current.lays:
        return OutChoice()
    if game.waiting_for:
        return LayEntry(lay_order(game)[0], went_out=False)
    return ChallengeList()


def lay_order(game: Game) -> tuple[str, ...]:
    """Who lays down next, in order: clockwise after the player who went out (else from the starter)."""
    current = game.current
    assert current is not None
    out = next((lay.player for lay in current.lays if lay.went_out), None)
    players = game.players
    first = (players.index(out) + 1) if out is not None else players.index(current.plan.starter)
    seats = players[first:] + players[:first]
    return tuple(p for p in seats if p in game.waiting_for)
