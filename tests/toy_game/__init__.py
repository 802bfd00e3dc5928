"""A toy game that lives only in the tests: one package with a `KIT`, to show that adding a game to the
registry is all it takes for the menu, `wordtable score` and the record reader to know it.

Tally: players take turns to add points; the first to 10 wins. Record events: `setup` (players) and
`point` (player, points).
"""

from firmware_host.core.games.kit import GameKit

from .record import CODEC, RULES, score_record
from .table import new

GAME_ID = "tally"
KIT = GameKit(GAME_ID, {"de": "Zählspiel", "en": "Tally"}, new, score_record)

__all__ = ["CODEC", "GAME_ID", "KIT", "RULES", "score_record"]
