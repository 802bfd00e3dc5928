"""The per-turn limit inside the turn-based games (Knack das Wort, Quiddler): a sand timer per turn.

With a limit chosen (`Ctx.turns.game_turn_s`, the menu's "Zeit je Zug"; 0: none), the appliance's
timer runs from full at every new turn the game knows of and stops when no turn runs (the game is over
or left); its warnings and alarm are the sand timer's, the turn itself stays the table's to end. A game
says where it is with a turn mark: a number that changes whenever a new turn begins (a skipped turn
counts), None while no turn runs.
"""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.flow import Ctx, Outcome, ResetTimer, StartTimer, TimerAction
from firmware_host.core.i18n import pick
from firmware_host.core.timer import format_seconds

TEXT = {"de": {"time_up": "Zeit!"}, "en": {"time_up": "Time!"}}


def limit_action(ctx: Ctx, before: int | None, after: int | None) -> TimerAction | None:
    """What the timer does when the turn mark goes from `before` to `after` (None: nothing)."""
    if not ctx.turns.game_turn_s or before == after:
        return None
    return ResetTimer() if after is None else StartTimer(ctx.turns.game_turn_s)


def with_limit(outcome: Outcome, ctx: Ctx, before: int | None, after: int | None) -> Outcome:
    """`outcome` with the limit's timer action, unless it acts on the timer itself."""
    action = limit_action(ctx, before, after)
    return outcome if action is None or outcome.timer is not None else replace(outcome, timer=action)


def limit_text(ctx: Ctx) -> str | None:
    """The limit's time left for a screen ("0:42", "Zeit!"); None without a limit."""
    if not ctx.turns.game_turn_s:
        return None
    return pick(TEXT, ctx.lang, "time_up") if ctx.timer_over else format_seconds(ctx.timer_left)
