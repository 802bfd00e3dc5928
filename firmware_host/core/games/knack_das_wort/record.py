"""Knack das Wort's game record (docs/knack-das-wort.md): its codec, its rules as one value, and scoring a record."""

from __future__ import annotations

from firmware_host.core.games.rules import Rules
from firmware_host.core.i18n import pick
from firmware_host.core.record import GameRecord, RecordError
from firmware_host.core.record_codec import Codec

from . import GAME_ID
from .report import KnackReport
from .rules import (
    TEXTS,
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
    score,
)

CODEC: Codec[Setup | Event] = Codec(Setup, WriteWord, Draw, PlayAction, GoOut, ReportEnd, CardsLeft)


def _apply(game: Game, event: Event, line: int) -> Game:
    return apply(game, event)


RULES: Rules[Setup, Game, Event] = Rules(GAME_ID, CODEC, Setup, new_game, _apply)


def score_record(record: GameRecord) -> KnackReport:
    """Replay and score a finished Knack das Wort record. Raises `RecordError` when it breaks a rule
    or stops before the game's end and every player's cards left."""
    game = RULES.replay(record)
    if game.end is None:
        raise RecordError(0, pick(TEXTS, "en", "record_running"))
    standings = score(game)
    missing = [s.player for s in standings.players if s.left is None]
    if missing:
        raise RecordError(0, pick(TEXTS, "en", "record_left", players=", ".join(missing)))
    return KnackReport(game, standings)
