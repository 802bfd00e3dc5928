"""Knack das Wort scored: the table of a record (`text(lang)`) and the same as data (`to_json()`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.core.games.text_columns import columns
from firmware_host.core.i18n import pick
from firmware_host.core.record import ScoreRow, outcome_json

from .ids import GAME_ID
from .rules import TEXTS, Entry, Game, Standings, end_reason, score


@dataclass(frozen=True, slots=True)
class KnackReport:
    """A scored Knack das Wort record: `text(lang)` is the table, `to_json()` the same as data."""

    game: Game
    standings: Standings

    @property
    def finished(self) -> bool:
        return self.standings.final

    @property
    def leaders(self) -> tuple[str, ...]:
        return self.standings.winners

    def rows(self) -> list[ScoreRow]:
        """A player's n-th turn is their round n (a Stop's skip is a turn; going out joins the turn it
        follows); then, once counted, an "end" row per player with the cards left."""
        found: list[ScoreRow] = []
        turns: dict[str, int] = {}
        totals: dict[str, int] = {}
        for e in self.game.log:
            if e.kind != "out":
                turns[e.player] = turns.get(e.player, 0) + 1
            totals[e.player] = totals.get(e.player, 0) + e.points
            entry = e.word if e.kind == "word" else e.kind
            found.append(ScoreRow(str(max(1, turns.get(e.player, 0))), e.player, entry, e.points, totals[e.player]))
        for s in self.standings.players:
            if s.left is not None:
                found.append(ScoreRow("end", s.player, f"{s.left} cards left", -s.left, s.points))
        return found

    def totals(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for e in self.game.log:
            totals[e.player] = totals.get(e.player, 0) + e.points
        for s in self.standings.players:
            if s.left is not None:
                totals[s.player] = s.points
        return totals

    def _entry_text(self, entry: Entry, lang: str) -> str:
        parts = [pick(TEXTS, lang, "entry.tasks", tasks=", ".join(entry.tasks))] if entry.tasks else []
        parts += [f"[{card}]" for card in entry.cards]
        if entry.kind == "word":
            parts.append(entry.word or "–")
        else:
            parts.append(pick(TEXTS, lang, f"entry.{entry.kind}"))
        return " ".join(parts)

    def text(self, lang: str) -> str:
        game = self.game

        def t(key: str, **fields: object) -> str:
            return pick(TEXTS, lang, key, **fields)

        out = [t("title", count=len(game.players), players=", ".join(game.players)), ""]
        rows = [[t("col.turn"), t("col.player"), t("col.entry"), t("col.points"), t("col.sum")]]
        running: dict[str, int] = {}
        turn = 0
        for entry in game.log:
            running[entry.player] = running.get(entry.player, 0) + entry.points
            turn += entry.kind != "out"
            number = "" if entry.kind == "out" else str(turn)
            points = f"+{entry.points}" if entry.points else ""
            rows.append(
                [number, entry.player, self._entry_text(entry, lang), points, str(running[entry.player])]
            )
        out += columns(rows, right=frozenset({0, 3, 4}))
        out.append("")
        out.append(t("end", reason=end_reason(game, lang)) if game.end else t("running", player=game.current))
        rows = [
            [t("col.rank"), t("col.player"), t("col.letters"), t("col.bonus"), t("col.left"), t("col.points")]
        ]
        for s in self.standings.players:
            left = "?" if s.left is None else f"-{s.left}" if s.left else "0"
            rows.append([f"{s.rank}.", s.player, str(s.letters), str(s.bonus), left, str(s.points)])
        out += columns(rows, right=frozenset({0, 2, 3, 4, 5}))
        missing = [s.player for s in self.standings.players if s.left is None]
        if self.standings.over and missing:
            out.append(t("missing_left", players=", ".join(missing)))
        key = "winner" if self.finished else "leader"
        out.append(t(key, players=", ".join(self.leaders)))
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        game, standings = self.game, self.standings
        return {
            "game": GAME_ID,
            "players": list(game.players),
            "log": [
                {
                    "player": e.player,
                    "kind": e.kind,
                    "word": e.word or None,
                    "points": e.points,
                    "cards": list(e.cards),
                    "tasks": list(e.tasks),
                }
                for e in game.log
            ],
            "end": game.end,
            "end_text": {lang: end_reason(game, lang) for lang in ("de", "en")} if game.end else None,
            "standings": [
                {
                    "rank": s.rank,
                    "player": s.player,
                    "letters": s.letters,
                    "bonus": s.bonus,
                    "left": s.left,
                    "points": s.points,
                }
                for s in standings.players
            ],
        } | outcome_json(self.finished, self.leaders)


def report(game: Game) -> KnackReport:
    """The report of `game` as far as it goes (what `score_record` gives for its record)."""
    return KnackReport(game, score(game))
