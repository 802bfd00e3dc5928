"""Quiddler (RULES.md §2, rulings Q1–Q6): the pure rules core, its record, the table flows and the kits.

Drive a game event by event (`rules`; each call returns a new `Game` or raises a `RuleError`):
    game = new_game(["Ann", "Bob", "Cem"], dealer="Ann")   # game.next_round: who deals how many
    game = start_round(game)                                # game.current.plan
    game = lay_down(game, "Bob", [("QU", "I", "T")], unused=(), went_out=True)
    game = challenge(game, "Ann", "Bob", ("QU", "I", "T"), allowed=True)
    game = end_round(game)                                  # game.rounds[-1], game.totals
Typed card entry: `notation.parse_cards("(QU)IT", deck)`; solitaire: `solitaire.new_solitaire(seed)`,
`take_word`. `record.score_record(record)` replays a game record for `wordtable score`.
At the table: `KIT` (the scored game, flow in `table`) and `SOLITAIRE_KIT` (practice, `solitaire_table`),
both lazy (`kit.lazy_kit`).
"""

from __future__ import annotations

from types import ModuleType

from firmware_host.core.games.kit import lazy_kit

from .ids import GAME_ID, SOLITAIRE_ID
from .text import TEXT


def _modules(name: str) -> ModuleType:
    """This game's module `name`, imported at its first use (`kit.lazy_kit`)."""
    from . import deck, record, solitaire_table, table

    return {"deck": deck, "record": record, "solitaire_table": solitaire_table, "table": table}[name]


KIT = lazy_kit(GAME_ID, {lang: texts["title"] for lang, texts in TEXT.items()}, _modules, flow="table.new_flow",
               decks="deck.card_decks")
SOLITAIRE_KIT = lazy_kit(SOLITAIRE_ID, {lang: texts["solitaire"] for lang, texts in TEXT.items()}, _modules,
                         flow="solitaire_table.new_solitaire_flow", recorded=False)
