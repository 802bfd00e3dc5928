"""Perfect Words' game record (docs/perfect-words.md): its codec, its rules as one value, and scoring a record."""

from __future__ import annotations

from firmware_host.core.games.rules import Rules
from firmware_host.core.record import GameRecord
from firmware_host.core.record_codec import Codec

from .ids import GAME_ID
from .report import PerfectWordsReport, report
from .rules import Choose, Event, Game, Merge, PlaceArrow, Reveal, SetClues, Setup, Strike, WriteTerm, apply, new_game

CODEC: Codec[Setup | Event] = Codec(Setup, PlaceArrow, SetClues, WriteTerm, Choose, Reveal, Merge, Strike)


def _apply(game: Game, event: Event, line: int) -> Game:
    return apply(game, event)


RULES: Rules[Setup, Game, Event] = Rules(GAME_ID, CODEC, Setup, new_game, _apply, report)


def score_record(record: GameRecord) -> PerfectWordsReport:
    """Replay and score a Perfect Words record; one that stops before the reveal is scored provisionally
    (finished: false). Raises `RecordError` (with its line) when it breaks a rule."""
    return report(RULES.replay(record))
