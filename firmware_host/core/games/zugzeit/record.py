"""Zugzeit's game record (docs/zugzeit.md): its codec, its rules as one value, and reading a record's
statistics (what `wordtable score` prints for a turn-timer game; there are no points)."""

from __future__ import annotations

from firmware_host.core.games.rules import Rules
from firmware_host.core.record import GameRecord
from firmware_host.core.record_codec import Codec

from .ids import GAME_ID
from .report import ZugzeitReport
from .rules import End, Event, Game, Remove, Reverse, Setup, Skip, Turn, apply, new_game

CODEC: Codec[Setup | Event] = Codec(Setup, Turn, Skip, Remove, Reverse, End)


def _apply(game: Game, event: Event, line: int) -> Game:
    return apply(game, event)


RULES: Rules[Setup, Game, Event] = Rules(GAME_ID, CODEC, Setup, new_game, _apply, ZugzeitReport)


def score_record(record: GameRecord) -> ZugzeitReport:
    """Replay a Zugzeit record: its statistics (a game still running is read as far as it goes). Raises
    `RecordError` (with its line) when it breaks a rule."""
    return ZugzeitReport(RULES.replay(record))
