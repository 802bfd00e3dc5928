"""The scored game as text (German by default, or English) and as JSON: `wordtable score`'s report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.core.i18n import Table, pick
from firmware_host.core.record import RecordError, ScoreRow, outcome_json

from .errors import RuleError
from .fields import Mark
from .rules import Game
from .scoring import PlayerResult, Result, RowScore, score
from .words import VOWELS

TEXTS: Table = {
    "de": {
        "head": "Das perfekte Wort · {title} · {players} · Runde {rounds} von 9",
        "solo": "Solo",
        "players": "{n} Spieler",
        "vowel_values": "Vokalwerte{card}: {values}",
        "card": " (Punktekarte {card})",
        "house": "Hausregeln: {rules}",
        "round": "Runde {round} · Anfangsbuchstabe {letter} · höchstens {length} Buchstaben",
        "none": "(kein Wort)",
        "struck": "gestrichen",
        "corrected": "korrigiert",
        "valid": "gültig {n}",
        "length": "Länge {n}",
        "hit": "Treffer {letter} in Feld {cell}",
        "arrow": "Pfeiltreffer {letter} {source}→{target}",
        "circled_in_round": "Bonus: {field} eingekreist von {who}",
        "solo_struck_in_round": "Bonusfeld {field} gestrichen",
        "final": "Endstand",
        "columns": "Platz|Spieler|Wort|Vokal|Bonus|Gesamt",
        "win": "Sieg",
        "shared": "geteilter Sieg",
        "vowels": "Vokalpunkte",
        "fields": "Bonusfelder",
        "circled": "eingekreist",
        "struck_fields": "durchgestrichen",
        "round_short": "R{round}",
        "by": "wegen {who}",
        "winner": "Gewonnen: {who}",
        "winners": "Geteilter Sieg: {who}",
        "leader": "Vorn nach Runde {rounds}: {who}",
        "open": "keine",
    },
    "en": {
        "head": "Das perfekte Wort · {title} · {players} · round {rounds} of 9",
        "solo": "solo",
        "players": "{n} players",
        "vowel_values": "Vowel values{card}: {values}",
        "card": " (points card {card})",
        "house": "House rules: {rules}",
        "round": "Round {round} · starting letter {letter} · at most {length} letters",
        "none": "(no word)",
        "struck": "struck",
        "corrected": "corrected",
        "valid": "valid {n}",
        "length": "length {n}",
        "hit": "hit {letter} in cell {cell}",
        "arrow": "arrow hit {letter} {source}→{target}",
        "circled_in_round": "Bonus: {field} circled by {who}",
        "solo_struck_in_round": "bonus field {field} struck",
        "final": "Final standings",
        "columns": "Rank|Player|Word|Vowel|Bonus|Total",
        "win": "win",
        "shared": "shared win",
        "vowels": "Vowel points",
        "fields": "Bonus fields",
        "circled": "circled",
        "struck_fields": "struck",
        "round_short": "R{round}",
        "by": "by {who}",
        "winner": "Winner: {who}",
        "winners": "Shared win: {who}",
        "leader": "Leading after round {rounds}: {who}",
        "open": "none",
    },
}


@dataclass(frozen=True, slots=True)
class Report:
    """A scored game with its setup: `text(lang)` and `to_json()` for `wordtable score`."""

    game: Game
    result: Result

    @property
    def finished(self) -> bool:
        return self.result.finished

    @property
    def leaders(self) -> tuple[str, ...]:
        return self.result.winners

    def text(self, lang: str) -> str:
        return "\n".join(_text_lines(self.game, self.result, lang))

    def rows(self) -> list[ScoreRow]:
        """Each round's word per player (as scored; a struck word in brackets), then per player an "end"
        row with the vowel and bonus-field points."""
        found: list[ScoreRow] = []
        totals = {p.name: 0 for p in self.result.players}
        for rnd in range(1, self.result.rounds + 1):
            for p in self.result.players:
                row = p.rows[rnd - 1]
                totals[p.name] += row.points
                entry = f"[{row.written}]" if row.status == "struck" else row.word
                found.append(ScoreRow(str(rnd), p.name, entry, row.points, totals[p.name]))
        for p in self.result.players:
            extra = p.vowels.points + p.bonus_points
            found.append(ScoreRow("end", p.name, "vowels + bonus fields", extra, p.total))
        return found

    def totals(self) -> dict[str, int]:
        return {p.name: p.total for p in self.result.players}

    def to_json(self) -> dict[str, Any]:
        return result_json(self.game, self.result)


def report(game: Game) -> Report:
    """The report of `game` as far as it goes (what `score_record` gives for its record; scored once per
    game value: `scoring.score`). Raises `RecordError` naming the line of the first entry that still
    needs the table."""
    try:
        result = score(game)
    except RuleError as exc:
        raise RecordError(exc.ref, exc.message, exc) from None
    return Report(game, result)


def _breakdown(row: RowScore, lang: str) -> str:
    parts = []
    if row.valid_points:
        parts.append(pick(TEXTS, lang, "valid", n=row.valid_points))
    if row.length_points:
        parts.append(pick(TEXTS, lang, "length", n=row.length_points))
    parts += [pick(TEXTS, lang, "hit", letter=h.letter, cell=h.cell) for h in row.grey_hits]
    parts += [
        pick(TEXTS, lang, "arrow", letter=a.letter, source=str(a.source), target=str(a.target))
        for a in row.arrow_hits
    ]
    return f"{row.points:>3}" + (" = " + " + ".join(parts) if parts else "")


def _shown_word(row: RowScore, lang: str) -> str:
    if row.status == "none":
        return pick(TEXTS, lang, "none")
    note = f" ({pick(TEXTS, lang, 'corrected')})" if row.corrected else ""
    if row.status == "struck":
        return f"{row.written} ({pick(TEXTS, lang, 'struck')}){note}"
    if row.status == "shortened":
        return f"{row.written} → {row.word}{note}"
    return row.word + note


def _text_lines(game: Game, result: Result, lang: str) -> list[str]:
    setup = game.setup
    who = pick(TEXTS, lang, "solo") if result.solo else pick(TEXTS, lang, "players", n=len(setup.players))
    lines = [pick(TEXTS, lang, "head", title=result.title, players=who, rounds=result.rounds)]
    values = " · ".join(f"{v} {setup.vowels[v]}" for v in VOWELS)
    card = pick(TEXTS, lang, "card", card=setup.points_card) if setup.points_card else ""
    lines.append(pick(TEXTS, lang, "vowel_values", card=card, values=values))
    if setup.house_rules:
        lines.append(pick(TEXTS, lang, "house", rules="; ".join(setup.house_rules)))
    width = max(len(p.name) for p in result.players)
    for rnd in range(1, result.rounds + 1):
        lines.append("")
        lines.append(
            pick(TEXTS, lang, "round", round=rnd, letter=game.letter(rnd), length=game.max_length(rnd))
        )
        shown = [_shown_word(p.rows[rnd - 1], lang) for p in result.players]
        word_width = max(len(s) for s in shown)
        for player, text in zip(result.players, shown, strict=True):
            lines.append(
                f"  {player.name:<{width}}  {text:<{word_width}}  {_breakdown(player.rows[rnd - 1], lang)}"
            )
        lines += _round_fields(result, rnd, lang)
    lines += ["", pick(TEXTS, lang, "final")]
    lines += _final_table(result, lang)
    lines += ["", pick(TEXTS, lang, "vowels")]
    for player in result.players:
        parts = [
            f"{v} {player.vowels.counts[v]}×{player.vowels.values[v]}={player.vowels.points_of(v)}"
            for v in VOWELS
        ]
        lines.append(f"  {player.name:<{width}}  {' · '.join(parts)}  = {player.vowels.points}")
    lines += ["", pick(TEXTS, lang, "fields")]
    for player in result.players:
        lines.append(f"  {player.name:<{width}}  {_fields_text(player, lang)}")
    lines.append("")
    names = ", ".join(result.winners)
    if not result.finished:
        lines.append(pick(TEXTS, lang, "leader", rounds=result.rounds, who=names))
    else:
        lines.append(pick(TEXTS, lang, "winners" if result.shared else "winner", who=names))
    return lines


def _round_fields(result: Result, rnd: int, lang: str) -> list[str]:
    circled: dict[str, tuple[str, ...]] = {}
    solo_struck: list[str] = []
    for player in result.players:
        for mark in player.fields:
            if mark.round != rnd:
                continue
            if mark.mark is Mark.CIRCLED:
                circled[mark.field] = mark.by
            elif mark.mark is Mark.STRUCK and not mark.by:
                solo_struck.append(mark.field)
    lines = [
        "  " + pick(TEXTS, lang, "circled_in_round", field=field, who=", ".join(who))
        for field, who in circled.items()
    ]
    lines += ["  " + pick(TEXTS, lang, "solo_struck_in_round", field=field) for field in solo_struck]
    return lines


def _fields_text(player: PlayerResult, lang: str) -> str:
    def when(mark: Any) -> str:
        return pick(TEXTS, lang, "round_short", round=mark.round)

    circled = [f"{m.field} ({when(m)})" for m in player.fields if m.mark is Mark.CIRCLED]
    struck = [
        f"{m.field} ({when(m)}" + (f", {pick(TEXTS, lang, 'by', who=', '.join(m.by))})" if m.by else ")")
        for m in player.fields
        if m.mark is Mark.STRUCK
    ]
    none = pick(TEXTS, lang, "open")
    return (
        f"{pick(TEXTS, lang, 'circled')}: {', '.join(circled) or none} = {player.bonus_points} · "
        f"{pick(TEXTS, lang, 'struck_fields')}: {', '.join(struck) or none}"
    )


def _final_table(result: Result, lang: str) -> list[str]:
    ordered = sorted(result.players, key=lambda p: p.rank)
    rows = [pick(TEXTS, lang, "columns").split("|")]
    for p in ordered:
        rows.append(
            [f"{p.rank}.", p.name, *map(str, (p.word_points, p.vowels.points, p.bonus_points, p.total))]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for i, row in enumerate(rows):
        cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(row[2:], widths[2:], strict=True)]
        line = "  " + "  ".join(cells)
        if i > 0 and result.finished and ordered[i - 1].winner:
            line += "  " + pick(TEXTS, lang, "shared" if result.shared else "win")
        lines.append(line)
    return lines


def result_json(game: Game, result: Result) -> dict[str, Any]:
    """The scored game as JSON-ready data (see docs/perfektes-wort.md for the shape)."""
    setup = game.setup
    return {
        "game": "perfektes-wort",
        "side": result.side,
        "title": result.title,
        "solo": result.solo,
        "rounds": result.rounds,
        "finished": result.finished,
        "points_card": setup.points_card or None,
        "vowel_values": dict(setup.vowels),
        "house_rules": list(setup.house_rules),
        "cards": [
            {"round": rnd, "letter": game.letter(rnd), "max_length": game.max_length(rnd)}
            for rnd in range(1, result.rounds + 1)
        ],
        "players": [_player_json(p, result.finished) for p in result.players],
        "shared_win": result.shared if result.finished else None,
    } | outcome_json(result.finished, result.winners)


def _player_json(player: PlayerResult, finished: bool) -> dict[str, Any]:
    return {
        "name": player.name,
        "rank": player.rank,
        "winner": player.winner and finished,
        "total": player.total,
        "word_points": player.word_points,
        "vowel_points": player.vowels.points,
        "bonus_points": player.bonus_points,
        "rows": [
            {
                "round": row.round,
                "letter": row.letter,
                "max_length": row.max_length,
                "written": row.written,
                "word": row.word,
                "status": row.status,
                "corrected": row.corrected,
                "points": row.points,
                "valid_points": row.valid_points,
                "length_points": row.length_points,
                "hit_points": row.hit_points,
                "grey_hits": [{"cell": h.cell, "letter": h.letter} for h in row.grey_hits],
                "arrow_hits": [
                    {
                        "from": [a.source.row, a.source.cell],
                        "to": [a.target.row, a.target.cell],
                        "letter": a.letter,
                    }
                    for a in row.arrow_hits
                ],
            }
            for row in player.rows
        ],
        "vowels": {
            v: {
                "count": player.vowels.counts[v],
                "value": player.vowels.values[v],
                "points": player.vowels.points_of(v),
            }
            for v in VOWELS
        },
        "circled": [
            {"field": m.field, "round": m.round, "with": list(m.by)}
            for m in player.fields
            if m.mark is Mark.CIRCLED
        ],
        "struck": [
            {"field": m.field, "round": m.round, "by": list(m.by), "solo": not m.by}
            for m in player.fields
            if m.mark is Mark.STRUCK
        ],
    }
