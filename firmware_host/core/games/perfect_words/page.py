"""Perfect Words on the table page: what each seat's phone shows and what it may enter (pure; JSON-ready).

While the terms are written (`Terms`), each seat's phone writes its own terms, arrow after arrow: a line
is `WriteTerm(player, arrow, text)` for the seat's first arrow without a term, through the same rules core
as the box's entry (a term that shares letters with a clue word is kept and warned, as on the box; the
table strikes it on the box). The view: the arrows with their clue words, the doubled arrow circled and
the ignored one struck, each arrow's points; the seat's own terms (the others' only after the reveal,
as on paper), the groups of equal terms; the total and its rank.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import firmware_host.core.games.perfect_words.rules as pw
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.i18n import pick
from firmware_host.core.table.page_parts import ask, cell, sheet
from firmware_host.core.table.played import enter
from firmware_host.core.table.seats import Seating, refuse

from .text import t

if TYPE_CHECKING:
    from .table import PerfectWordsFlow

STAGES = {"Seating": "setup", "Arrows": "arrows", "Terms": "terms", "Choosing": "choosing",
          "Revealing": "revealing", "Final": "final"}


def _open_arrow(game: pw.Game, player: str) -> int | None:
    return next((a for a in range(1, pw.ARROWS + 1) if game.term(player, a) is None), None)


def seat_entry(flow: PerfectWordsFlow, seat: int, text: str, ctx: Ctx) -> Outcome:
    from .table import Terms

    plain = replace(flow, message="")
    players = flow.players
    if flow.played is None or not 0 <= seat < len(players):
        return refuse(replace(plain, message=t(ctx.lang, "page_no_seat", seat=seat + 1)), ctx)
    player, game = players[seat], flow.played.game
    arrow = _open_arrow(game, player)
    if not isinstance(flow.stage, Terms) or arrow is None:
        return refuse(replace(plain, message=t(ctx.lang, "page_not_now", name=player)), ctx)
    entered, outcome = enter(plain, ctx, pw.WriteTerm(player, arrow, text.strip()))
    if entered is None:
        refused: Any = outcome.flow
        return replace(outcome, flow=replace(refused, message=f"{player}: {refused.message}"))
    warnings = pw.term_warnings(game, player, arrow, text)
    if warnings:
        warning = pick(pw.TEXTS, ctx.lang, "warning", **warnings[0].as_dict())
        return replace(outcome, flow=replace(entered, message=f"{player}: {warning}"))
    return outcome


def page_data(flow: PerfectWordsFlow, seat: int | None, ctx: Ctx) -> dict[str, Any]:
    from .table import Terms

    lang = ctx.lang
    data: dict[str, Any] = {"stage": STAGES[type(flow.stage).__name__], "asks": None, "message": flow.message}
    if flow.played is None or isinstance(flow.stage, Seating):
        return data
    game = flow.played.game
    players = flow.players
    if seat is not None and 0 <= seat < len(players) and isinstance(flow.stage, Terms):
        arrow = _open_arrow(game, players[seat])
        if arrow is not None:
            clues = game.clues(arrow)
            data["entry"] = ask("word", t(lang, "page_term", arrow=arrow), lang,
                                hint=t(lang, "clues", clues=" · ".join(clues)) if clues else "")
            data["asks"] = "word"
    standing = pw.score(game)
    rows = []
    for a in standing.arrows:
        line = " · ".join(game.clues(a.arrow))
        mark = "circled" if a.role == "double" else "struck" if a.role == "ignore" else ""
        rows.append([cell(t(lang, "arrow", arrow=a.arrow), mark), line,
                     a.same if game.revealed else "", a.points if game.revealed else ""])
    tables = [sheet(t(lang, "page_arrows"), ("", "", t(lang, "page_same"), t(lang, "page_points")), rows)]
    shown = players if game.revealed else (players[seat],) if seat is not None and 0 <= seat < len(players) else ()
    if shown:
        term_rows = []
        for arrow in range(1, pw.ARROWS + 1):
            row: list[Any] = [str(arrow)]
            for p in shown:
                term = game.term(p, arrow)
                row.append(cell(term.text, "struck" if (p, arrow) in game.struck else "") if term else "–")
            term_rows.append(row)
        tables.append(sheet(t(lang, "page_terms"), ("", *shown), term_rows))
    if game.revealed:
        rank = standing.rank.name(lang) if standing.rank else pick(pw.TEXTS, lang, "rank.none")
        data["result"] = t(lang, "total", total=standing.total, rank=rank)
    data["tables"] = tables
    return data
