"""Perfect Words on the table page: what each seat's phone shows and what it may enter (pure; JSON-ready).

While the terms are written (`Terms`), each seat's phone writes its own terms, arrow after arrow: a line
is `WriteTerm(player, arrow, text)` for the seat's first arrow without a term, through the same rules core
as the box's entry (a term that shares letters with a clue word is kept and warned, as on the box).

The other entries are lines starting with `COMMAND` ("!"), read as such only where the stage takes them: in
phase 1 (`Arrows`) any seat enters the table's grid as the box's typed lines do (`table.arrow_event`) and
"!next" ends it (`grid_done`); while the terms are written a seat strikes its own warned term ("!strike N",
the box's long START; the others' terms are secret until the reveal); on the choice (`Choosing`) any seat
enters the team's "!choose D I" and then "!reveal". The groups are merged on the box.

The view: the arrows with their clue words, the doubled arrow circled and the ignored one struck, each
arrow's points; the seat's own terms (the others' only after the reveal, as on paper), the groups of equal
terms; the total and its rank.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import firmware_host.core.games.perfect_words.rules as pw
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.perfect_words.clues import arrow_event, term_warnings
from firmware_host.core.games.perfect_words.scoring import score
from firmware_host.core.i18n import pick, texts
from firmware_host.core.table.page_parts import action, ask, cell, sheet
from firmware_host.core.table.page_parts import t as parts_text
from firmware_host.core.table.played import enter
from firmware_host.core.table.seats import Seating, named, refuse

from .stages import Arrows, Choosing, Revealing, Terms
from .text import t

if TYPE_CHECKING:
    from .table import PerfectWordsFlow

COMMAND = "!"
NEXT_TEXT = "!next"
STRIKE = "!strike "
CHOOSE = "!choose "
REVEAL_TEXT = "!reveal"

TEXT = {  # what happens now, in the phone's words (the box's texts are `text.py`'s)
    "de": {"stage.arrows": "Die Hinweise der Pfeile werden eingetragen.",
           "stage.terms": "Jeder schreibt seine Begriffe zu den Pfeilen.",
           "stage.choosing": "Der Tisch wählt den verdoppelten und den gestrichenen Pfeil.",
           "stage.revealing": "Die Begriffe werden aufgedeckt.", "stage.final": "Das Spiel ist aus."},
    "en": {"stage.arrows": "The arrows' clues are being entered.",
           "stage.terms": "Everyone writes their terms for the arrows.",
           "stage.choosing": "The table picks the doubled and the ignored arrow.",
           "stage.revealing": "The terms are being revealed.", "stage.final": "The game is over."},
}
say = texts(TEXT)

STAGES = {"Seating": "setup", "Arrows": "arrows", "Terms": "terms", "Choosing": "choosing",
          "Revealing": "revealing", "Final": "final"}


def _open_arrow(game: pw.Game, player: str) -> int | None:
    return next((a for a in range(1, pw.ARROWS + 1) if game.term(player, a) is None), None)


def _warned(game: pw.Game, player: str) -> tuple[tuple[int, str], ...]:
    """The player's terms (arrow, text) that share letters with a clue word and are not struck (P2)."""
    return tuple((a, term.text) for a in range(1, pw.ARROWS + 1)
                 if (term := game.term(player, a)) is not None and (player, a) not in game.struck
                 and term_warnings(game, player, a, term.text))


def _command(flow: PerfectWordsFlow, game: pw.Game, player: str, text: str, ctx: Ctx) -> Outcome | None:
    """A phone's command where the flow takes it (None: not now)."""
    stage, lang = flow.stage, ctx.lang
    if isinstance(stage, Arrows):
        if text == NEXT_TEXT:
            return named(flow.grid_done(game, ctx), player)
        return None if text.startswith(COMMAND) else named(enter(flow, ctx, arrow_event(game, text))[1], player)
    if isinstance(stage, Terms) and text.startswith(STRIKE):
        number = text.removeprefix(STRIKE).strip()
        arrow = int(number) if number.isdigit() else 0
        if arrow not in dict(_warned(game, player)):
            return refuse(replace(flow, message=t(lang, "page_not_warned", name=player, arrow=number)), ctx)
        entered, outcome = enter(flow, ctx, pw.Strike(player, arrow))
        if entered is None:
            return named(outcome, player)
        return replace(outcome, flow=replace(entered, message=t(lang, "struck", player=player, arrow=arrow)))
    if isinstance(stage, Choosing) and text.startswith(CHOOSE):
        numbers = text.removeprefix(CHOOSE).split()
        if len(numbers) != 2 or not all(n.isdigit() for n in numbers):
            return refuse(replace(flow, message=t(lang, "page_bad_choice", text=text.removeprefix(CHOOSE))), ctx)
        double, ignore = map(int, numbers)
        entered, outcome = enter(flow, ctx, pw.Choose(double, ignore))
        if entered is None:
            return named(outcome, player)
        return replace(outcome, flow=replace(entered, stage=Choosing(), message=t(lang, "chosen", double=double,
                                                                                   ignore=ignore)))
    if isinstance(stage, Choosing) and text == REVEAL_TEXT:
        entered, outcome = enter(flow, ctx, pw.Reveal())
        if entered is None:
            return named(outcome, player)
        return replace(outcome, flow=replace(entered, stage=Revealing()))
    return None


def seat_entry(flow: PerfectWordsFlow, seat: int, text: str, ctx: Ctx) -> Outcome:
    plain = replace(flow, message="")
    players = flow.players
    if flow.played is None or not 0 <= seat < len(players):
        return refuse(replace(plain, message=t(ctx.lang, "page_no_seat", seat=seat + 1)), ctx)
    player, game = players[seat], flow.played.game
    commanded = _command(plain, game, player, text.strip(), ctx)
    if commanded is not None:
        return commanded
    arrow = _open_arrow(game, player)
    if not isinstance(flow.stage, Terms) or arrow is None:
        return refuse(replace(plain, message=t(ctx.lang, "page_not_now", name=player)), ctx)
    entered, outcome = enter(plain, ctx, pw.WriteTerm(player, arrow, text.strip()))
    if entered is None:
        refused: Any = outcome.flow
        message = f"{player}: {refused.message}"
        return replace(outcome, flow=replace(refused, message=message), refused=message)
    warnings = term_warnings(game, player, arrow, text)
    if warnings:
        warning = pick(pw.TEXTS, ctx.lang, "warning", **warnings[0].as_dict())
        return replace(outcome, flow=replace(entered, message=f"{player}: {warning}"))
    return outcome


def page_data(flow: PerfectWordsFlow, seat: int | None, ctx: Ctx) -> dict[str, Any]:
    lang = ctx.lang
    data: dict[str, Any] = {"stage": STAGES[type(flow.stage).__name__], "asks": None, "message": flow.message}
    if flow.played is None or isinstance(flow.stage, Seating):
        return data
    game = flow.played.game
    players = flow.players
    mine = seat is not None and 0 <= seat < len(players)
    if mine and seat is not None and isinstance(flow.stage, Terms):
        arrow = _open_arrow(game, players[seat])
        strikes = [action(t(lang, "page_strike", arrow=a, term=term), f"{STRIKE}{a}")
                   for a, term in _warned(game, players[seat])]
        if arrow is not None:
            clues = game.clues(arrow)
            data["entry"] = ask("word", t(lang, "page_term", arrow=arrow), lang,
                                hint=t(lang, "clues", clues=" · ".join(clues)) if clues else "",
                                actions=[action(parts_text(lang, "send")), *strikes] if strikes else ())
        elif strikes:
            data["entry"] = ask("choice", t(lang, "page_strike_label"), lang, field=False, actions=strikes)
    if mine and isinstance(flow.stage, Arrows):
        arrow = min(len(game.lines) + 1, pw.ARROWS)
        data["entry"] = ask("word", t(lang, "page_clues", arrow=arrow), lang, hint=t(lang, "page_clues_hint"),
                            actions=[action(parts_text(lang, "send")), action(t(lang, "page_grid_done"), NEXT_TEXT)])
    if mine and isinstance(flow.stage, Choosing) and not game.revealed:
        if game.double is None:
            data["entry"] = ask("number", t(lang, "page_choose"), lang,
                                actions=[action(t(lang, "page_choose_send"), CHOOSE + "{text}")])
        else:
            data["entry"] = ask("choice", t(lang, "chosen", double=game.double, ignore=game.ignore), lang,
                                field=False, actions=[action(t(lang, "reveal_title"), REVEAL_TEXT)])
    if "entry" in data:
        data["asks"] = data["entry"]["kind"]
    standing = score(game)
    rows = []
    for a in standing.arrows:
        line = " · ".join(game.clues(a.arrow))
        mark = "circled" if a.role == "double" else "struck" if a.role == "ignore" else ""
        said = f" {t(lang, a.role + '_mark')}" if a.role in ("double", "ignore") else ""  # as the OLED writes it
        rows.append([cell(t(lang, "arrow", arrow=a.arrow) + said, mark), line,
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
    if f"stage.{data['stage']}" in TEXT["de"]:
        data["status"] = say(lang, f"stage.{data['stage']}")
    return data
