"""Quiddler's setup at the table: the player count, the names, the dealer, the two-player bonus, the
summary whose START begins the game (`table`). What each setup step does with an input and shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from firmware_host.core.events import Button, Event, TextEntry
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.played import StageRow, begin
from firmware_host.core.table.seats import cursor_step, is_press
from firmware_host.core.text_field import TextField
from firmware_host.core.text_input import NAME, clean, refusal

from .record import RULES, Setup
from .stages import (
    BONUSES,
    MAX_PLAYERS,
    BonusPick,
    DealerPick,
    PlayerCount,
    PlayerNames,
    Stage,
    Summary,
)
from .text import t

if TYPE_CHECKING:
    from .table import QuiddlerFlow as Flow


def confirms(event: Event) -> bool:
    return is_press(event, Button.START, Button.ENCODER)


def _count(flow: Flow, e: PlayerCount, event: Event, ctx: Ctx) -> Outcome:
    if isinstance(event, TextEntry):
        text = event.text.strip()
        if not text.isdigit() or not 1 <= int(text) <= MAX_PLAYERS:
            return flow.refused(ctx, t(ctx.lang, "not_a_count", text=text))
        return flow.to(replace(e, count=int(text)))
    step = cursor_step(event)
    if step is not None:
        return flow.to(replace(e, count=(e.count - 1 + step) % MAX_PLAYERS + 1))
    if confirms(event):
        return flow.to(e.to(PlayerNames, cursor=0, dealer=min(e.dealer, e.count - 1)))
    if is_press(event, Button.BACK):  # out of the setup, as from every game's first step
        return Outcome(None)
    return flow.refused(ctx, "")


def _names(flow: Flow, e: PlayerNames, event: Event, ctx: Ctx) -> Outcome:
    if isinstance(event, TextEntry):
        refused = refusal(event.text, NAME)
        if refused is not None:
            return flow.refused(ctx, refused.text(ctx.lang))
        name = clean(event.text, NAME)
        if not name:
            return flow.refused(ctx, t(ctx.lang, "empty_name"))
        if name in e.players and e.players.index(name) != e.cursor:
            return flow.refused(ctx, t(ctx.lang, "name_taken", name=name))
        names = (*e.names[: e.cursor], name, *e.names[e.cursor + 1 :])
        return flow.to(replace(e, names=names, cursor=min(e.cursor + 1, e.count - 1)))
    return _choose(flow, e, event, ctx, e.count, prev=e.to(PlayerCount, cursor=0),
                   chosen=lambda c: e.to(DealerPick, cursor=e.dealer))


def _dealer(flow: Flow, e: DealerPick, event: Event, ctx: Ctx) -> Outcome:
    def chosen(dealer: int) -> Stage:
        after = BONUSES.index(e.bonus)
        if e.count == 2:
            return e.to(BonusPick, dealer=dealer, cursor=after)
        return e.to(Summary, dealer=dealer, cursor=after)

    return _choose(flow, e, event, ctx, e.count, prev=e.to(PlayerNames, cursor=0), chosen=chosen)


def _bonus(flow: Flow, e: BonusPick, event: Event, ctx: Ctx) -> Outcome:
    return _choose(flow, e, event, ctx, len(BONUSES), prev=e.to(DealerPick, cursor=e.dealer),
                   chosen=lambda c: e.to(Summary, bonus=BONUSES[c]))


def _summary(flow: Flow, e: Summary, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.BACK):
        if e.count == 2:
            return flow.to(e.to(BonusPick, cursor=BONUSES.index(e.bonus)))
        return flow.to(e.to(DealerPick, cursor=e.dealer))
    if confirms(event):
        players = e.players
        setup = Setup(players, players[e.dealer], e.bonus.value if e.count == 2 else None)
        return flow.entered(*begin(replace(flow, message=""), ctx, RULES, setup, players))
    return flow.refused(ctx, "")


def _choose(flow: Flow, e: PlayerNames | DealerPick | BonusPick, event: Event, ctx: Ctx, n: int, prev: Stage,
            chosen: Callable[[int], Stage]) -> Outcome:
    step = cursor_step(event)
    if step is not None:
        return flow.to(replace(e, cursor=(e.cursor + step) % n))
    if confirms(event):
        return flow.to(chosen(e.cursor))
    if is_press(event, Button.BACK):
        return flow.to(prev)
    return flow.refused(ctx, t(ctx.lang, "no_text_here") if isinstance(event, TextEntry) else "")


def _count_screen(flow: Flow, e: PlayerCount, ctx: Ctx) -> Screen:
    return BigScreen(t(ctx.lang, "count"), str(e.count), t(ctx.lang, "count_hint"))


def _names_screen(flow: Flow, e: PlayerNames, ctx: Ctx) -> Screen:
    items = tuple(ListItem(name) for name in e.players)
    return ListScreen(t(ctx.lang, "names"), items, e.cursor, t(ctx.lang, "names_hint"))


def _dealer_screen(flow: Flow, e: DealerPick, ctx: Ctx) -> Screen:
    items = tuple(ListItem(name, marked=i == e.dealer) for i, name in enumerate(e.players))
    return ListScreen(t(ctx.lang, "dealer"), items, e.cursor, t(ctx.lang, "choose_hint"))


def _bonus_screen(flow: Flow, e: BonusPick, ctx: Ctx) -> Screen:
    items = tuple(ListItem(t(ctx.lang, b.value), marked=b is e.bonus) for b in BONUSES)
    return ListScreen(t(ctx.lang, "bonus"), items, e.cursor, t(ctx.lang, "choose_hint"))


def _summary_screen(flow: Flow, e: Summary, ctx: Ctx) -> Screen:
    lang = ctx.lang
    lines = [
        t(lang, "summary_players", names=", ".join(e.players)),
        t(lang, "summary_dealer", name=e.players[e.dealer]),
    ]
    if e.count == 2:
        lines.append(t(lang, "summary_bonus", bonus=t(lang, e.bonus.value)))
    return MessageScreen(t(lang, "title"), tuple(lines), t(lang, "summary_hint"))


def _count_field(flow: Flow, e: PlayerCount, ctx: Ctx) -> TextField:
    return TextField(t(ctx.lang, "count"), "number")


def _names_field(flow: Flow, e: PlayerNames, ctx: Ctx) -> TextField:
    return TextField(t(ctx.lang, "name_for", n=e.cursor + 1), "name", NAME.limit)


SETUP_STAGES: dict[type, StageRow] = {  # the setup's rows of `QuiddlerFlow.STAGES`
    PlayerCount: StageRow(_count, _count_screen, _count_field),
    PlayerNames: StageRow(_names, _names_screen, _names_field),
    DealerPick: StageRow(_dealer, _dealer_screen),
    BonusPick: StageRow(_bonus, _bonus_screen),
    Summary: StageRow(_summary, _summary_screen),
}
