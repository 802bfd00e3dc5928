"""Das perfekte Wort (RULES.md §1, rulings R1–R6): the pure rules core, its record and its table flow.

Drive a game event by event (`rules.new_game`, `rules.apply`), score it at any point (`scoring.score`), or
score a whole record (`record.score_record`, used by `wordtable score`; `record.RULES.replay` replays one).
`KIT` is the game as the appliance knows it (`games.registry`); `table` is its flow at the table. No I/O
here: data files and word lists are loaded by `firmware_host.games.perfektes_wort.data_files` and
`firmware_host.word_index` and passed in as values. `KIT` is lazy (`kit.lazy_kit`).
"""

from __future__ import annotations

from types import ModuleType

from firmware_host.core.games.kit import lazy_kit

from .highscores import KEPT_NAME
from .ids import GAME_ID, TITLE


def _modules(name: str) -> ModuleType:
    """This game's module `name`, imported at its first use (`kit.lazy_kit`)."""
    from . import deck, record, table

    return {"deck": deck, "record": record, "table": table}[name]


KIT = lazy_kit(GAME_ID, TITLE, _modules, decks="deck.card_decks", kept=(KEPT_NAME,))
