"""Knack das Wort on the table page: what each seat's phone shows and what it may enter (pure; JSON-ready).

The player on turn writes the word (or the number of its letters) on the phone, or draws/passes
(`DRAW_TEXT`), plays an action card (`PREFIX_CARD` and its name: the box menu's cards or a typed one) or
reports an end condition (`PREFIX_END` and "discard"/"grid"): `WriteWord` / `Draw` / `PlayAction` /
`ReportEnd` through the same rules core as the box's menu. Any seat reports its own going out (`OUT_TEXT`,
`GoOut`) while the game runs, on turn or not (a player often runs out of cards as the turn passes). At the
end each seat enters its own cards left (`CardsLeft`).
The view: who is on turn, the turns so far (word, points, action cards), the standings (letters, bonus,
cards left, points; the winners marked).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import firmware_host.core.games.knack_das_wort.rules as kw
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.i18n import texts
from firmware_host.core.table.page_parts import action, ask, cell, sheet
from firmware_host.core.table.page_parts import t as parts_text
from firmware_host.core.table.seats import Seating, named, refuse

from .stages import CARDS, Playing
from .text import t

if TYPE_CHECKING:
    from .table import KnackFlow

TEXT = {  # the phone's own words for the standings' columns
    "de": {"letters": "Wörter", "bonus": "Bonus", "left": "Karten"},
    "en": {"letters": "Words", "bonus": "Bonus", "left": "Cards"},
}
say = texts(TEXT)

DRAW_TEXT = "-"
OUT_TEXT = "*"
PREFIX_CARD = "+"
PREFIX_END = "#"
_NUMBER = re.compile(r"^\s*(\d{1,3})\s*$")


def seat_entry(flow: KnackFlow, seat: int, text: str, ctx: Ctx) -> Outcome:
    plain = replace(flow, message="")
    players = flow.played.game.players if flow.played is not None else ()
    if flow.played is None or not 0 <= seat < len(players):
        return refuse(replace(plain, message=t(ctx.lang, "page_no_seat", seat=seat + 1)), ctx)
    game, player = flow.played.game, players[seat]
    if not isinstance(flow.stage, Playing):
        return refuse(replace(plain, message=t(ctx.lang, "page_not_now", name=player)), ctx)
    if game.end is None:
        if text == OUT_TEXT:
            return named(plain.enter(kw.GoOut(player), ctx, t(ctx.lang, "out", player=player)), player)
        if game.current != player:
            return refuse(replace(plain, message=t(ctx.lang, "page_not_turn", name=player)), ctx)
        if text == DRAW_TEXT:
            return plain.enter(kw.Draw(player), ctx, t(ctx.lang, "drew", player=player))
        if text.startswith(PREFIX_CARD):
            card = text.removeprefix(PREFIX_CARD).strip()
            return named(plain.enter(kw.PlayAction(player, card), ctx, t(ctx.lang, "card", player=player,
                                                                           card=card)), player)
        if text.startswith(PREFIX_END):
            reason = text.removeprefix(PREFIX_END).strip()
            label = t(ctx.lang, f"end_{reason}") if reason in kw.END_REASONS else ""
            return named(plain.enter(kw.ReportEnd(reason), ctx, label), player)
        number = _NUMBER.match(text)
        word = kw.WriteWord(player, letters=int(number.group(1))) if number else kw.WriteWord(player, text.strip())
        return plain.write(word, ctx)
    if game.cards_left(player) is not None or kw.score(game).final:
        return refuse(replace(plain, message=t(ctx.lang, "page_not_now", name=player)), ctx)
    number = _NUMBER.match(text)
    if number is None:
        return refuse(replace(plain, message=t(ctx.lang, "not_count", text=text.strip())), ctx)
    return plain.enter(kw.CardsLeft(player, int(number.group(1))), ctx)


def page_data(flow: KnackFlow, seat: int | None, ctx: Ctx) -> dict[str, Any]:
    lang = ctx.lang
    data: dict[str, Any] = {"stage": "setup" if isinstance(flow.stage, Seating) else "play", "asks": None,
                            "message": flow.message}
    if flow.played is None:
        return data
    game = flow.played.game
    standings = kw.score(game)
    mine = seat is not None and 0 <= seat < len(game.players)
    player = game.players[seat] if mine and seat is not None else None
    if game.end is None:
        data["turn"] = game.current
        data["status"] = t(lang, "page_on_turn", player=game.current)
        out = player is not None and player not in game.gone_out
        if player == game.current and isinstance(flow.stage, Playing):
            actions = [action(parts_text(lang, "send")), action(t(lang, "page_draw"), DRAW_TEXT),
                       *(action(t(lang, "action_card", card=card), PREFIX_CARD + card) for card in CARDS),
                       action(t(lang, "page_card"), PREFIX_CARD + "{text}"),
                       *([action(t(lang, "page_out"), OUT_TEXT)] if out else []),
                       *(action(t(lang, f"end_{reason}"), PREFIX_END + reason) for reason in kw.END_REASONS)]
            data["entry"] = ask("word", t(lang, "page_word"), lang, hint=", ".join(game.tasks), actions=actions)
        elif out and isinstance(flow.stage, Playing):
            data["entry"] = ask("choice", t(lang, "page_out_label"), lang, field=False,
                                actions=[action(t(lang, "page_out"), OUT_TEXT)])
    else:
        data["status"] = kw.end_reason(game, lang)
        if player is not None and game.cards_left(player) is None and not standings.final:
            data["entry"] = ask("number", t(lang, "page_left"), lang)
    if "entry" in data:
        data["asks"] = data["entry"]["kind"]
    if standings.final:
        data["winners"] = list(standings.winners)
    head = (parts_text(lang, "player"), say(lang, "letters"), say(lang, "bonus"), say(lang, "left"),
            parts_text(lang, "total"))
    rows = [[cell(f"{s.rank}. {s.player}", "win" if standings.final and s.rank == 1 else ""), s.letters,
             s.bonus or "", "" if s.left is None else -s.left, s.points] for s in standings.players]
    turns = [[str(i), e.player, cell(e.word or t(lang, "action_draw") if e.kind != "out" else
                                     t(lang, "out", player=e.player), "" if e.kind == "word" else "struck"
                                     if e.kind == "skip" else ""),
              e.points or "", ", ".join(e.cards)] for i, e in enumerate(game.log, start=1)]
    data["tables"] = [sheet(t(lang, "board"), head, rows), sheet(t(lang, "page_turns"), (), reversed(turns))]
    return data
