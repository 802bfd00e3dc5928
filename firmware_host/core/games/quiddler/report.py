"""The scored Quiddler game as a `ScoreReport`: a text table per round (German or English) and JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.core.i18n import pick
from firmware_host.core.record import ScoreRow, outcome_json

from .notation import format_cards
from .rules import ROUNDS, Game
from .scoring import PlayerRound, RoundScore, ScoredWord

TEXTS = {
    "de": {
        "title": "Quiddler – {count} Spieler: {players}",
        "two": "Zwei Spieler: es gibt nur den Bonus für {bonus}.",
        "longest": "das längste Wort",
        "most": "die meisten Wörter",
        "round": "Runde {number}: {hand} Karten, Geber {dealer}, beginnt {starter}, ausgegangen: {out}",
        "nobody": "niemand",
        "cols": "Spieler|Wörter|Übrig|Plus|Minus|Karten|Herausf.|Meiste|Längstes|Runde|Gesamt",
        "legend": "* ist ausgegangen · ✓ Wort hielt der Herausforderung stand · ✗ verlor sie (zählt nicht)",
        "final": "Endstand nach {done} von {rounds} Runden:",
        "winner": "Sieg: {players}",
        "shared": "Geteilter Sieg: {players}",
        "leader": "Vorn nach {done} von {rounds} Runden: {players}",
        "open": "Runde {number} läuft noch (nicht gewertet): ausgelegt haben {laid} von {count}",
        "none": "noch keine Runde gespielt",
    },
    "en": {
        "title": "Quiddler – {count} players: {players}",
        "two": "Two players: the only bonus is for {bonus}.",
        "longest": "the longest word",
        "most": "the most words",
        "round": "Round {number}: {hand} cards, dealer {dealer}, starts {starter}, went out: {out}",
        "nobody": "nobody",
        "cols": "Player|Words|Unused|Plus|Minus|Cards|Challng.|Most|Longest|Round|Total",
        "legend": "* went out · ✓ word survived a challenge · ✗ word lost a challenge (counts for nothing)",
        "final": "Standings after {done} of {rounds} rounds:",
        "winner": "Winner: {players}",
        "shared": "Shared win: {players}",
        "leader": "Leading after {done} of {rounds} rounds: {players}",
        "open": "Round {number} is still open (not scored): {laid} of {count} have laid down",
        "none": "no round played yet",
    },
}


def _word_text(word: ScoredWord) -> str:
    mark = "" if word.allowed is None else ("✓" if word.allowed else "✗")
    return format_cards(word.cards) + mark


def _signed(amount: int) -> str:
    return f"{amount:+d}" if amount else "0"


def _row_cells(row: PlayerRound) -> list[str]:
    return [
        row.player + ("*" if row.went_out else ""),
        " ".join(_word_text(w) for w in row.words) or "–",
        format_cards(row.unused) or "–",
        str(row.words_value),
        str(-row.unused_value) if row.unused_value else "0",
        str(row.card_score),
        _signed(row.challenges),
        _signed(row.most_words_bonus),
        _signed(row.longest_word_bonus),
        _signed(row.result),
        str(row.total),
    ]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(cells[i]) for cells in [header, *rows]) for i in range(len(header))]
    lines = []
    for cells in [header, *rows]:
        parts = [cell.ljust(widths[i]) if i < 3 else cell.rjust(widths[i]) for i, cell in enumerate(cells)]
        lines.append("  ".join(parts).rstrip())
    return lines


@dataclass(frozen=True, slots=True)
class QuiddlerReport:
    """A replayed game; `text(lang)` and `to_json()` show the same numbers."""

    game: Game

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def leaders(self) -> tuple[str, ...]:
        return self.game.winners if self.game.rounds else ()

    def rows(self) -> list[ScoreRow]:
        """Each ended round per player: the words laid (and cards left unused after "/"), the round's result."""
        return [
            ScoreRow(
                str(scored.number),
                row.player,
                " ".join(_word_text(w) for w in row.words) + (f" / {format_cards(row.unused)}" if row.unused else ""),
                row.result,
                row.total,
            )
            for scored in self.game.rounds
            for row in scored.rows
        ]

    def totals(self) -> dict[str, int]:
        return {row.player: row.total for scored in self.game.rounds for row in scored.rows}

    def text(self, lang: str) -> str:
        game = self.game
        out = [pick(TEXTS, lang, "title", count=len(game.players), players=", ".join(game.players))]
        if len(game.players) == 2:
            bonus = pick(TEXTS, lang, game.setup.two_player_bonus.value)
            out.append(pick(TEXTS, lang, "two", bonus=bonus))
        header = pick(TEXTS, lang, "cols").split("|")
        for scored in game.rounds:
            out.append("")
            out.append(_round_title(scored, lang))
            out.extend("  " + line for line in _table(header, [_row_cells(row) for row in scored.rows]))
        out.append("")
        current = game.current
        if current is not None:
            laid = len(current.lays)
            out += [pick(TEXTS, lang, "open", number=current.plan.number, laid=laid, count=len(game.players)), ""]
        if not game.rounds:
            out.append(pick(TEXTS, lang, "none"))
            return "\n".join(out)
        out.append(pick(TEXTS, lang, "legend"))
        out.append("")
        out.append(pick(TEXTS, lang, "final", done=len(game.rounds), rounds=ROUNDS))
        width = max(len(player) for player in game.players)
        out.extend(f"  {place}. {player.ljust(width)}  {total:>4}" for place, player, total in game.ranking())
        names = ", ".join(self.leaders)
        if not self.finished:
            out.append(pick(TEXTS, lang, "leader", done=len(game.rounds), rounds=ROUNDS, players=names))
        else:
            out.append(pick(TEXTS, lang, "winner" if len(self.leaders) == 1 else "shared", players=names))
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        game = self.game
        return {
            "game": "quiddler",
            "players": list(game.players),
            "two_player_bonus": game.setup.two_player_bonus.value if len(game.players) == 2 else None,
            "rounds": [_round_json(scored) for scored in game.rounds],
            "rounds_played": len(game.rounds),
            "open_round": None if game.current is None else game.current.plan.number,
            "totals": game.totals,
            "ranking": [{"place": place, "player": p, "total": t} for place, p, t in game.ranking()],
        } | outcome_json(self.finished, self.leaders)


def _round_title(scored: RoundScore, lang: str) -> str:
    return pick(
        TEXTS,
        lang,
        "round",
        number=scored.number,
        hand=scored.hand_size,
        dealer=scored.dealer,
        starter=scored.starter,
        out=scored.went_out or pick(TEXTS, lang, "nobody"),
    )


def _round_json(scored: RoundScore) -> dict[str, Any]:
    return {
        "round": scored.number,
        "hand_size": scored.hand_size,
        "dealer": scored.dealer,
        "starter": scored.starter,
        "went_out": scored.went_out,
        "players": [
            {
                "player": row.player,
                "went_out": row.went_out,
                "words": [
                    {
                        "cards": format_cards(w.cards),
                        "value": w.value,
                        "letters": w.letters,
                        "counts": w.counts,
                        "challenger": w.challenger,
                        "allowed": w.allowed,
                    }
                    for w in row.words
                ],
                "unused": format_cards(row.unused),
                "words_value": row.words_value,
                "unused_value": row.unused_value,
                "card_score": row.card_score,
                "challenges": row.challenges,
                "most_words_bonus": row.most_words_bonus,
                "longest_word_bonus": row.longest_word_bonus,
                "result": row.result,
                "total": row.total,
            }
            for row in scored.rows
        ],
    }
