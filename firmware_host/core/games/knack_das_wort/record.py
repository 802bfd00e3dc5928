"""Knack das Wort's game record (docs/knack-das-wort.md): its codec, its rules as one value, and scoring a record."""

from __future__ import annotations

from firmware_host.core.games.rules import Rules
from firmware_host.core.record import GameRecord
from firmware_host.core.record_codec import Codec

from .ids import GAME_ID
from .report import KnackReport, report
from .rules import (
    CardsLeft,
    Draw,
    Event,
    Game,
    GoOut,
    PlayAction,
    ReportEnd,
    Setup,
    WriteWord,
    apply,
    new_game,
)

CODEC: Codec[Setup | Event] = Codec(Setup, WriteWord, Draw, PlayAction, GoOut, ReportEnd, CardsLeft)


def _apply(game: Game, event: Event, line: int) -> Game:
    return apply(game, event)


RULES: Rules[Setup, Game, Event] = Rules(GAME_ID, CODEC, Setup, new_game, _apply, report)


def score_record(record: GameRecord) -> KnackReport:
    """Replay and score a Knack das Wort record; one that stops before the end (or before every player's
    cards left are counted) is scored as far as it goes (finished: false). Raises `RecordError` when it
    breaks a rule."""
    return report(RULES.replay(record))
