"""Zugzeit on the table page: what each seat's phone shows and what it may enter (pure; JSON-ready).

The phone of the player on turn is the chess clock's button: one big button ("Zug fertig"; before the
first turn and while the clock is paused "Uhr starten") sends `TURN_TEXT`, which the flow takes as the
box's turn key (`Press(Button.TURN)` at the entry's time) — the same core event, so it ends the turn (or
starts the clock) exactly as the key does. Any other seat, or any other stage, is refused.
The clock: the appliance's timer is the turn on the clock (`ZugzeitFlow.set_timer`), so the view's `timer`
carries its deadline and the page counts it down itself; this view adds who is on turn and each player's
time as the box shows it for the players waiting (their bank, or the turn's limit). No clock here: the
view of a running turn is the same at every tick.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import firmware_host.core.games.zugzeit.rules as zz
from firmware_host.core.events import Button, Press
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.i18n import texts
from firmware_host.core.table.page_parts import action, ask, cell, sheet
from firmware_host.core.table.page_parts import t as parts_text
from firmware_host.core.table.seats import Seating, named, refuse

from .clock import countdown_text, exact_text
from .options import Options
from .stages import Playing

if TYPE_CHECKING:
    from .table import ZugzeitFlow

TURN_TEXT = "turn"

TEXT = {
    "de": {
        "done": "Zug fertig", "go": "Uhr starten", "tap_done": "Antippen, sobald dein Zug fertig ist",
        "tap_go": "Antippen startet deine Uhr", "mine": "Du bist am Zug", "on_turn": "{player} ist am Zug",
        "ready": "{player} beginnt, sobald die Uhr läuft", "paused": "Pause – {player} ist am Zug",
        "times": "Zeiten", "time": "Zeit", "now": "am Zug", "skips": "setzt aus", "out": "Zeit um",
        "left": "raus", "not_turn": "{player} ist nicht am Zug", "not_now": "Die Uhr läuft gerade nicht",
        "stats": "Statistik", "total": "Gesamt", "turns": "Züge", "average": "Ø Zug", "longest": "Längster",
        "over": "Überzeit",
    },
    "en": {
        "done": "Turn done", "go": "Start the clock", "tap_done": "Tap as soon as your turn is done",
        "tap_go": "Tap to start your clock", "mine": "Your turn", "on_turn": "{player} to play",
        "ready": "{player} starts once the clock runs", "paused": "Paused – {player} to play",
        "times": "Times", "time": "Time", "now": "on turn", "skips": "skips", "out": "time up",
        "left": "out", "not_turn": "It is not {player}'s turn", "not_now": "The clock is not running now",
        "stats": "Statistics", "total": "Total", "turns": "Turns", "average": "Avg turn", "longest": "Longest",
        "over": "Over-time",
    },
}

say = texts(TEXT)


def players(flow: ZugzeitFlow) -> tuple[str, ...]:
    """The phones' seats: the game's players, or those being seated (the players' or the timing's stage)."""
    if flow.played is not None:
        return flow.played.game.players
    stage = flow.stage
    return stage.seats.players if isinstance(stage, Seating | Options) else ()


def seat_entry(flow: ZugzeitFlow, seat: int, text: str, ctx: Ctx) -> Outcome:
    """`TURN_TEXT` from the phone of the player on turn: the box's turn key at the entry's time."""
    plain = replace(flow, message="")
    names = players(flow)
    player = names[seat] if 0 <= seat < len(names) else str(seat + 1)
    if flow.played is None or not isinstance(flow.stage, Playing) or flow.played.game.ended or text != TURN_TEXT:
        return named(refuse(replace(plain, message=say(ctx.lang, "not_now")), ctx), player)
    if seat != flow.played.game.current:
        return refuse(replace(plain, message=say(ctx.lang, "not_turn", player=player)), ctx)
    return flow.handle(Press(Button.TURN, ctx.now), ctx)


def page_data(flow: ZugzeitFlow, seat: int | None, ctx: Ctx) -> dict[str, Any]:
    lang = ctx.lang
    data: dict[str, Any] = {"stage": "setup" if flow.played is None else "play", "asks": None,
                            "message": flow.message}
    if flow.played is None:
        return data
    game, clock = flow.played.game, flow.clock
    if not isinstance(flow.stage, Playing) or game.ended:
        data["stage"] = "stats"
        data["sand"] = False  # no turn on the clock any more
        data["winners"] = list(game.winners)
        data["tables"] = _stats(game, lang)
        return data
    player = game.on_turn
    mine = seat == game.current
    data["sand"] = True  # the timer is the turn on the clock …
    data["turn"] = data["clock_of"] = player  # … of the player on turn
    if not clock.started:
        data["status"] = say(lang, "ready", player=player)
    elif not clock.running:
        data["status"] = say(lang, "paused", player=player)
    else:
        data["status"] = say(lang, "mine") if mine else say(lang, "on_turn", player=player)
    if mine:
        label, hint = ("done", "tap_done") if clock.running else ("go", "tap_go")
        data["entry"] = ask("turn", say(lang, hint), lang, field=False, actions=[action(say(lang, label), TURN_TEXT)])
        data["asks"] = "turn"
    data["tables"] = [sheet(say(lang, "times"), ("", parts_text(lang, "player"), say(lang, "time")),
                            [_time_row(game, i, lang) for i in range(len(game.players))])]
    return data


def _time_row(game: zz.Game, index: int, lang: str) -> list[Any]:
    name = game.players[index]
    if game.status[index] != zz.IN:
        return ["", cell(name, "struck"), say(lang, "out" if game.status[index] == zz.OUT else "left")]
    if index == game.current:
        return ["▶", cell(name, "out"), say(lang, "now")]
    s = game.setup
    shown = countdown_text(s.time_ms if s.mode == "limit" else game.banks[index])
    return ["", name, f"{shown} · {say(lang, 'skips')}" if game.skipping[index] else shown]


def _stats(game: zz.Game, lang: str) -> list[dict[str, Any]]:
    """The statistics in two tables narrow enough for a phone: the time, then the turns."""
    who = parts_text(lang, "player")
    first = [[cell(p, "win" if p in game.winners else ""), exact_text(s.total_ms), s.turns]
             for p, s in zip(game.players, game.stats, strict=True)]
    second = [[p, exact_text(s.average_ms), exact_text(s.longest_ms), exact_text(s.over_ms)]
              for p, s in zip(game.players, game.stats, strict=True)]
    return [sheet(say(lang, "stats"), (who, say(lang, "total"), say(lang, "turns")), first),
            sheet(say(lang, "times"), (who, say(lang, "average"), say(lang, "longest"), say(lang, "over")), second)]
