"""Tally's record: the codec, the rules as one value, and the report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.core.games.rules import Rules
from firmware_host.core.record import GameRecord
from firmware_host.core.record_codec import Codec

from .rules import Game, Point, Setup, apply, start

CODEC: Codec[Setup | Point] = Codec(Setup, Point)
@dataclass(frozen=True, slots=True)
class TallyReport:
    game: Game

    def text(self, lang: str) -> str:
        rows = [f"{p}: {t}" for p, t in zip(self.game.players, self.game.totals, strict=True)]
        return "\n".join([*rows, f"winner: {self.game.winner or '-'}"])

    def to_json(self) -> dict[str, Any]:
        return {"game": "tally", "totals": dict(zip(self.game.players, self.game.totals, strict=True))}


RULES: Rules[Setup, Game, Point] = Rules("tally", CODEC, Setup, start, apply, TallyReport)


def score_record(record: GameRecord) -> TallyReport:
    return TallyReport(RULES.replay(record))
