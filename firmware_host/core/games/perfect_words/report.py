"""Perfect Words scored: the table of a record (`text(lang)`) and the same as data (`to_json()`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.core.games.text_columns import columns
from firmware_host.core.i18n import pick
from firmware_host.core.record import ScoreRow, outcome_json

from .clues import clue_warnings
from .ids import GAME_ID
from .rules import TEXTS, Game, grid_status
from .scoring import Standing, score


@dataclass(frozen=True, slots=True)
class PerfectWordsReport:
    """A scored Perfect Words record: `text(lang)` is the table, `to_json()` the same as data. The game is
    cooperative: the team is one side, so its `leaders` (and winners, once finished) are all the players;
    it is finished once the terms are revealed."""

    game: Game
    standing: Standing

    @property
    def finished(self) -> bool:
        return self.game.revealed

    @property
    def leaders(self) -> tuple[str, ...]:
        return self.game.players

    def rows(self) -> list[ScoreRow]:
        """Each arrow is a round: every player's term (struck in brackets), and the arrow's points and
        running total, which are the team's (the game is cooperative)."""
        found: list[ScoreRow] = []
        total = 0
        for a in self.standing.arrows:
            total += a.points
            for player in self.game.players:
                term = self.game.term(player, a.arrow)
                text = "" if term is None else term.text
                entry = f"[{text}]" if (player, a.arrow) in self.game.struck else text
                found.append(ScoreRow(str(a.arrow), player, entry, a.points, total))
        return found

    def totals(self) -> dict[str, int]:
        arrows = self.standing.arrows
        return dict.fromkeys(self.game.players, sum(a.points for a in arrows)) if arrows else {}

    def _rank_name(self, lang: str) -> str:
        rank = self.standing.rank
        return rank.name(lang) if rank else pick(TEXTS, lang, "rank.none")

    def text(self, lang: str) -> str:
        game, standing = self.game, self.standing

        def t(key: str, **fields: object) -> str:
            return pick(TEXTS, lang, key, **fields)

        with_clues = bool(game.lines)
        head = [t("col.arrow"), *([t("col.clues")] if with_clues else []), *game.players]
        rows = [[*head, t("col.same"), t("col.points")]]
        for a in standing.arrows:
            mark = {"double": " ×2", "ignore": " –"}.get(a.role, "")
            cells = []
            for player in game.players:
                term = game.term(player, a.arrow)
                text = "" if term is None else term.text
                cells.append(f"[{text}]" if (player, a.arrow) in game.struck else text)
            clues = [" · ".join(game.clues(a.arrow))] if with_clues else []
            rows.append([f"{a.arrow}{mark}", *clues, *cells, str(a.same), str(a.points)])
        last = len(rows[0]) - 1
        out = [t("title", count=len(game.players), players=", ".join(game.players)), ""]
        out += columns(rows, right=frozenset({last - 1, last}))
        out.append(t("legend") if standing.chosen else t("unchosen"))
        for merge in game.merges:
            out.append(t("merged", arrow=merge.arrow, terms=" = ".join(merge.terms)))
        for w in clue_warnings(game):
            out.append(t("warning", **w.as_dict()))
        out.append(t("total", total=standing.total, rank=self._rank_name(lang)))
        if not self.finished:
            out.append(t("provisional"))
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        game, standing = self.game, self.standing
        status = grid_status(game)
        rank = standing.rank
        return {
            "game": GAME_ID,
            "players": list(game.players),
            "double": game.double,
            "ignore": game.ignore,
            "grid": {"recorded": bool(game.lines), "placed": status.placed, "complete": status.complete},
            "arrows": [
                {
                    "arrow": a.arrow,
                    "role": a.role or None,
                    "clues": list(game.clues(a.arrow)),
                    "terms": {p: t.text for p in game.players if (t := game.term(p, a.arrow)) is not None},
                    "struck": [p for p in game.players if (p, a.arrow) in game.struck],
                    "groups": [{"terms": list(g.terms), "players": list(g.players)} for g in a.groups],
                    "same": a.same,
                    "base": a.base,
                    "points": a.points,
                }
                for a in standing.arrows
            ],
            "warnings": [w.as_dict() for w in clue_warnings(game)],
            "total": standing.total,
            "rank": None if rank is None else {"key": rank.key, "de": rank.name("de"), "en": rank.name("en")},
        } | outcome_json(self.finished, self.leaders)


def report(game: Game) -> PerfectWordsReport:
    """The report of `game` as far as it goes (what `score_record` gives for its record)."""
    return PerfectWordsReport(game, score(game))
