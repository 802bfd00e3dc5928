"""Perfect Words' game record (docs/perfect-words.md): its codec, its rules as one value, and scoring a record."""

from __future__ import annotations

from firmware_host.core.games.rules import Rules
from firmware_host.core.i18n import pick
from firmware_host.core.record import GameRecord, RecordError
from firmware_host.core.record_codec import Codec

from . import GAME_ID
from .report import PerfectWordsReport
from .rules import (
    TEXTS,
    Choose,
    Event,
    Game,
    Merge,
    PlaceArrow,
    Reveal,
    SetClues,
    Setup,
    Strike,
    WriteTerm,
    apply,
    new_game,
    score,
)

CODEC: Codec[Setup | Event] = Codec(Setup, PlaceArrow, SetClues, WriteTerm, Choose, Reveal, Merge, Strike)


def _apply(game: Game, event: Event, line: int) -> Game:
    return apply(game, event)


RULES: Rules[Setup, Game, Event] = Rules(GAME_ID, CODEC, Setup, new_game, _apply)


def score_record(record: GameRecord) -> PerfectWordsReport:
    """Replay and score a Perfect Words record. Raises `RecordError` (with its line) when it breaks a rule."""
    game = RULES.replay(record)
    if game.double is None:
        raise RecordError(0, pick(TEXTS, "en", "missing_choice"))
    return PerfectWordsReport(game, score(game))
