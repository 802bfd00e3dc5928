"""Zugzeit's statistics, printed (`text(lang)`) and as data (`to_json()`): per player the turns, total,
average and longest think time, the time in over-time, the bank left and whether the player is out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.core.games.text_columns import columns
from firmware_host.core.i18n import pick
from firmware_host.core.record import ScoreRow, outcome_json

from .clock import exact_text
from .ids import GAME_ID
from .rules import IN, TEXTS, Game


@dataclass(frozen=True, slots=True)
class ZugzeitReport:
    game: Game

    @property
    def finished(self) -> bool:
        return self.game.ended

    @property
    def leaders(self) -> tuple[str, ...]:
        """A turn clock ranks nobody: only sudden death has a winner (the last player in)."""
        return tuple(self.game.winners)

    def rows(self) -> list[ScoreRow]:
        """One row per player: the turns taken as the entry, the milliseconds thought as the points."""
        return [ScoreRow("end", player, f"{s.turns} turns", s.total_ms, s.total_ms)
                for player, s in zip(self.game.players, self.game.stats, strict=True)]

    def totals(self) -> dict[str, int]:
        return {player: s.total_ms for player, s in zip(self.game.players, self.game.stats, strict=True)}

    def text(self, lang: str) -> str:
        game, setup = self.game, self.game.setup

        def t(key: str, **fields: object) -> str:
            return pick(TEXTS, lang, key, **fields)

        banked = setup.mode != "limit"
        head = [t("col.player"), t("col.turns"), t("col.total"), t("col.average"), t("col.longest"), t("col.over")]
        rows = [[*head, *([t("col.bank")] if banked else []), t("col.status")]]
        for i, player in enumerate(game.players):
            s = game.stats[i]
            status = "" if game.status[i] == IN else t(f"status.{game.status[i]}")
            bank = [exact_text(game.banks[i])] if banked else []
            rows.append([player, str(s.turns), exact_text(s.total_ms), exact_text(s.average_ms),
                         exact_text(s.longest_ms), exact_text(s.over_ms), *bank, status])
        out = [t("title", count=len(game.players), players=", ".join(game.players)), timing(game, lang), ""]
        out += columns(rows, right=frozenset(range(1, len(head) + (1 if banked else 0))))
        out.append("")
        out.append(t("sum", time=exact_text(sum(s.total_ms for s in game.stats)), turns=game.turns))
        if game.winners:
            out.append(t("winner", players=", ".join(game.winners)))
        elif game.ended:
            out.append(t("ended"))
        else:
            out.append(t("running", player=game.on_turn))
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        game, setup = self.game, self.game.setup
        return {
            "game": GAME_ID,
            "mode": setup.mode,
            "time_ms": setup.time_ms,
            "over": setup.over,
            "increment_ms": setup.increment_ms,
            "delay_ms": setup.delay_ms,
            "players": [
                {
                    "player": player,
                    "turns": s.turns,
                    "total_ms": s.total_ms,
                    "average_ms": s.average_ms,
                    "longest_ms": s.longest_ms,
                    "over_ms": s.over_ms,
                    "bank_ms": game.banks[i] if setup.mode != "limit" else None,
                    "status": game.status[i] or "in",
                }
                for i, (player, s) in enumerate(zip(game.players, game.stats, strict=True))
            ],
            "total_ms": sum(s.total_ms for s in game.stats),
            "turns": game.turns,
            "on_turn": None if game.ended else game.on_turn,
        } | outcome_json(self.finished, self.leaders)


def timing(game: Game, lang: str) -> str:
    """The timing of a game in words: "Zeitkonto 5:00.0, +5.0 s Fischer-Bonus je Zug"."""
    setup = game.setup
    key = "mode.limit_end" if setup.mode == "limit" and setup.over == "end" else f"mode.{setup.mode}"
    parts = [pick(TEXTS, lang, key, time=exact_text(setup.time_ms))]
    if setup.increment_ms:
        parts.append(pick(TEXTS, lang, "increment", time=exact_text(setup.increment_ms)))
    if setup.delay_ms:
        parts.append(pick(TEXTS, lang, "delay", time=exact_text(setup.delay_ms)))
    return ", ".join(parts)
