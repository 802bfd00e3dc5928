"""Das perfekte Wort's game record (docs/perfektes-wort.md): its codec, its rules as one value, and
`score_record`.

Each line after the header is one event of `rules.py` (`CODEC`); `RULES.replay` passes every line's number
on as the event's `ref`, so a rule broken anywhere — also one found only while scoring — is reported with
its line.
"""

from __future__ import annotations

from firmware_host.core.games.rules import Rules
from firmware_host.core.record import GameRecord
from firmware_host.core.record_codec import Codec

from .ids import GAME_ID
from .report import Report, report
from .rules import EVENTS, Game, Setup, TableEvent, apply, new_game

CODEC: Codec[Setup | TableEvent] = Codec(Setup, *EVENTS)
RULES: Rules[Setup, Game, TableEvent] = Rules(GAME_ID, CODEC, Setup, new_game, apply, report)


def score_record(record: GameRecord) -> Report:
    """Score a whole record (`wordtable score`). Raises `RecordError` naming the line at fault."""
    return report(RULES.replay(record))
