"""Das perfekte Wort (RULES.md §1, rulings R1–R6): the pure rules core, its record and its table flow.

Drive a game event by event (`new_game`, `apply`), score it at any point (`score`), or score a whole
record (`score_record`, used by `wordtable score`; `RULES.replay` replays one). `KIT` is the game as the
appliance knows it (`games.registry`); `table.py` is its flow at the table. No I/O here: data files and
word lists are loaded by `firmware_host.games.perfektes_wort.data_files` and `firmware_host.word_index`
and passed in as values. The game's code loads when it is first played, scored or its deck is asked for;
any other name of this package (`exports`) loads it too, at its first use.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from firmware_host.core.games.kit import CardDeck, GameKit, deferred, exported, loaded

from .highscores import KEPT_NAME
from .text import TITLE

if TYPE_CHECKING:
    from .exports import *  # noqa: F403

GAME_ID = "perfektes-wort"


@cache
def _decks() -> tuple[CardDeck, ...]:
    """The appliance's own 24 letter cards (ruling R2), their faces in the card-table notation "B/5"."""
    from .defaults import DEFAULT_DATA

    return (CardDeck(GAME_ID, TITLE, tuple(card.face for card in DEFAULT_DATA.deck)),)


KIT = GameKit(
    GAME_ID, TITLE, deferred(f"{__name__}.table", "new"), deferred(f"{__name__}.record", "score_record"), _decks,
    (KEPT_NAME,), loaded(f"{__name__}.record", "RULES"),
)
__getattr__ = exported(__name__)
