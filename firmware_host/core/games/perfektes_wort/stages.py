"""Das perfekte Wort's stages at the table: each a value holding its own cursor and choices
(`table.PerfektesWortFlow.stage`; its `STAGES` say what each does, shows and waits for)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Self

from firmware_host.core.table.stage_bases import Plain

from .data import LetterCard
from .defaults import DEFAULT_DATA
from .highscores import HighScore

SIDES = ("grundversion", "profi")
DECKS = ("buttons", "cards")


@dataclass(frozen=True, slots=True)
class Picks:
    """The setup's choices so far (kept while the table goes back and forth): indexes into `SIDES`, the
    points-card faces and `DECKS`."""

    side: int = 0
    face: int = 0
    deck: int = 0


@dataclass(frozen=True, slots=True)
class SeatPick:
    """The players are chosen (`table.PerfektesWortFlow.seats`)."""

    picks: Picks = Picks()


@dataclass(frozen=True, slots=True)
class _Pick:
    """A setup list: `OPTION` names the choice in `Picks` it moves, `count` how many there are."""

    OPTION: ClassVar[str]
    picks: Picks

    @property
    def index(self) -> int:
        return int(getattr(self.picks, self.OPTION))

    def count(self) -> int:
        return {"side": len(SIDES), "face": len(DEFAULT_DATA.faces), "deck": len(DECKS)}[self.OPTION]

    def moved(self, index: int) -> Self:
        return replace(self, picks=replace(self.picks, **{self.OPTION: index % self.count()}))


@dataclass(frozen=True, slots=True)
class SidePick(_Pick):
    OPTION: ClassVar[str] = "side"


@dataclass(frozen=True, slots=True)
class FacePick(_Pick):
    """The points card: also typed ("3b") or drawn by the appliance (a long START)."""

    OPTION: ClassVar[str] = "face"


@dataclass(frozen=True, slots=True)
class DeckPick(_Pick):
    OPTION: ClassVar[str] = "deck"


@dataclass(frozen=True, slots=True)
class Scanning:
    """Physical cards: the top cards of the shuffled pile scanned or typed so far, in order."""

    picks: Picks
    scanned: tuple[LetterCard, ...] = ()


class Revealing(Plain):
    """The next card is revealed (NEXT), or entered first when it is not known yet."""


class Calling(Plain):
    """The round's call is on screen; START runs the sand timer."""


class Timing(Plain):
    """The sand timer runs; its alarm (or START) opens the word entry."""


@dataclass(frozen=True, slots=True)
class Entering:
    """The word of the player `slot` is typed."""

    slot: int = 0


@dataclass(frozen=True, slots=True)
class Reviewing:
    """The round's words, the cursor on player `slot`."""

    slot: int = 0


@dataclass(frozen=True, slots=True)
class Fixing:
    """The word of player `slot` is shortened or struck; `choice` is the cursor on its options."""

    slot: int
    choice: int = 0


class Points(Plain):
    """The round's points and bonus fields."""


@dataclass(frozen=True, slots=True)
class SoloStriking:
    """Solo: a bonus field not used is struck; `choice` is the cursor on the open ones."""

    choice: int = 0


class Standing(Plain):
    """The scoreboard after the round; NEXT reveals the next card."""


@dataclass(frozen=True, slots=True)
class Final:
    """The final standing. Solo: `best` is the side's highscore list with this game's score, `place` its
    place on it (None: not on the list), `before` the kept list before (restored by undo); `listing`: the
    list is on screen."""

    best: tuple[HighScore, ...] = ()
    place: int | None = None
    before: tuple[HighScore, ...] | None = None
    listing: bool = False


Stage = (
    SeatPick | SidePick | FacePick | DeckPick | Scanning
    | Revealing | Calling | Timing | Entering | Reviewing | Fixing | Points | SoloStriking | Standing | Final
)
