"""Zugzeit at the table: the turn timer's `Flow`, from the players to the statistics.

- `Seating` (shared): the players in turn order (2–8, names as everywhere; a long NEXT changes who starts).
- `Options`: the timing, the config's `[turn_timer]` first. NEXT/Turn move the cursor, START (a long START
  backwards, the encoder by its detents) changes the value under it, a typed time sets a time row; START
  on "Los!" begins (BACK: the players again).
- `Playing`: the clock. START (the encoder's push, or the turn button) ends the turn and starts the next
  player's; before the first turn and while paused it starts the clock. A long START pauses and resumes.
  BACK undoes the last entry: a mis-pressed switch gives the time since then back to the player whose
  turn it was. NEXT opens the actions (reverse the order, the next player misses a turn, remove a player,
  end the game); a long NEXT shows every player's time.
- `Stats`: the statistics per player, one figure at a time (NEXT: the next); START leaves, BACK takes
  the end back.
Time: a switch counts at the button's edge (the event's own time), in whole milliseconds (`clock`). The
appliance's timer shows the current turn (`SetTimer`: its bar, warnings and alarm); at its zero the flow
ends the turn itself where the mode says so (limit "end", sudden death, hourglass), at the exact deadline.
A press stamped before a turn the clock had just ended itself was meant for that turn: the clock's ending
is taken back and the press counts. The flow `KeepsTime`: a restart or leaving it for another mode pauses it.
`ZugzeitFlow.STAGES` (at the end) is the transitions table: each stage type's handler, screen and typed line.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

import firmware_host.core.games.zugzeit.rules as zz
from firmware_host.core.effects import Beep, Effect, EndGame
from firmware_host.core.events import Button, Event, TextEntry, Turn, event_time
from firmware_host.core.flow import Ctx, Outcome, SetTimer
from firmware_host.core.screens import ListItem, ListScreen, Screen, TurnScreen
from firmware_host.core.settings import MAX_BANK_S, MAX_EXTRA_S, MAX_TURN_S, MIN_BANK_S, MIN_TURN_S, TurnSettings
from firmware_host.core.table.played import SEATING, PagedFlow, PhonePage, Played, StageRow, begin, enter
from firmware_host.core.table.seats import Seating, Seats, cursor_step, is_hold, is_press, refuse
from firmware_host.core.text_field import TextField
from firmware_host.core.timer import format_seconds, parse_duration

from . import page as phones
from .clock import Clock, countdown_text, exact_text, to_ms, whole_ms
from .ids import GAME_ID, TITLE
from .options import Options
from .record import RULES
from .stages import Playing, Stats
from .text import t

FIGURES = ("total", "average", "longest", "turns", "over")
FLASH_MS = 3000  # the screen is inverted this long when a player's time runs out
GO = (Button.START, Button.ENCODER, Button.TURN)

PlayedZugzeit = Played[zz.Setup, zz.Game, zz.Event]


Stage = Seating | Options | Playing | Stats


@dataclass(frozen=True, slots=True)
class ZugzeitFlow(PagedFlow[Stage, zz.Setup, zz.Game, zz.Event]):
    """The turn timer: the stage on screen, the game's record (`played`) and the turn being timed; the
    phones' view and the phone of the player on turn as its button (`page`)."""

    GAME = GAME_ID
    TITLE = TITLE
    PHONES: ClassVar[PhonePage] = phones

    clock: Clock = field(default_factory=Clock)
    defaults: TurnSettings = field(default_factory=TurnSettings)

    @property
    def players(self) -> tuple[str, ...]:
        return phones.players(self)

    # --- setup --------------------------------------------------------------------------------------

    def start_game(self, players: tuple[str, ...]) -> Outcome:
        stage = self.stage
        assert isinstance(stage, Seating)
        return Outcome(replace(self, stage=Options.of(stage.seats, self.defaults)))

    def options(self, stage: Options, event: Event, ctx: Ctx) -> Outcome:
        flow = replace(self, message="")
        moved = cursor_step(event) if not isinstance(event, Turn) else None
        if moved is not None:
            return Outcome(replace(flow, stage=replace(stage, cursor=(stage.cursor + moved) % len(stage.rows()))))
        if isinstance(event, Turn) and stage.row != "go":
            return Outcome(replace(flow, stage=stage.stepped(event.steps)))
        if isinstance(event, Turn):
            return refuse(flow, ctx)
        if is_press(event, Button.BACK):
            return Outcome(replace(flow, stage=Seating(stage.seats)))
        if is_press(event, *GO) and stage.row == "go":
            setup = stage.setup()
            begun, outcome = begin(flow, ctx, RULES, setup, setup.players, stage=Playing(), clock=Clock())
            if begun is None:
                return outcome
            return replace(outcome, timer=begun.set_timer(ctx))
        if (is_press(event, *GO) or is_hold(event, Button.START)) and stage.row != "go":
            return Outcome(replace(flow, stage=stage.stepped(-1 if is_hold(event, Button.START) else 1)))
        if isinstance(event, TextEntry) and stage.row in ("turn", "bank", "increment", "delay"):
            return self._typed_time(stage, event.text, ctx)
        message = t(ctx.lang, "no_text") if isinstance(event, TextEntry) else ""
        return refuse(replace(flow, message=message), ctx)

    def _typed_time(self, stage: Options, text: str, ctx: Ctx) -> Outcome:
        seconds = parse_duration(text)
        if seconds is None:
            return refuse(replace(self, message=t(ctx.lang, "not_a_time", text=text.strip())), ctx)
        low, high = {"turn": (MIN_TURN_S, MAX_TURN_S), "bank": (MIN_BANK_S, MAX_BANK_S)}.get(stage.row,
                                                                                             (0, MAX_EXTRA_S))
        if not low <= seconds <= high:
            message = t(ctx.lang, "time_range", low=format_seconds(low), high=format_seconds(high))
            return refuse(replace(self, message=message), ctx)
        if stage.row == "turn":
            chosen = replace(stage, turn_s=seconds)
        elif stage.row == "bank":
            chosen = replace(stage, bank_s=seconds)
        else:
            chosen = stage.with_extra(seconds)
        return Outcome(replace(self, stage=chosen, message=""))

    # --- the clock ----------------------------------------------------------------------------------

    def _played(self) -> PlayedZugzeit:
        assert self.played is not None
        return self.played

    def set_timer(self, ctx: Ctx) -> SetTimer:
        """The appliance's timer for the turn on the clock (stopped at zero once the game is over)."""
        played = self.played
        if played is None or played.game.ended or isinstance(self.stage, Stats):
            return SetTimer(1.0, 0.0)
        game, clock = played.game, self.clock
        allowed = game.allowed_ms()
        left = allowed - clock.used_ms
        since = None if clock.since_ms is None else clock.since_ms / 1000
        return SetTimer(_scale_ms(game, allowed) / 1000, left / 1000, since)

    def pause(self, ctx: Ctx) -> Outcome:
        """`KeepsTime`: a running clock stops at `ctx.now`; the timer shows the clock either way."""
        if self.played is None:
            return Outcome(self)
        flow = self
        if isinstance(self.stage, Playing) and self.clock.running:
            flow = replace(self, clock=self.clock.stopped(to_ms(ctx.now)), message=t(ctx.lang, "pause"))
        return Outcome(flow, timer=flow.set_timer(ctx))

    def timer_over(self, ctx: Ctx) -> Outcome:
        """The turn's time has run out: where the mode says so, the clock ends the turn at its deadline
        (and the next one's, should that be over too)."""
        flow: ZugzeitFlow = self
        effects: list[Effect] = []
        while isinstance(flow.stage, Playing) and flow.clock.running and flow.played is not None:
            game, clock = flow.played.game, flow.clock
            assert clock.since_ms is not None
            deadline = clock.since_ms + game.allowed_ms() - clock.used_ms
            if not _ends_itself(game) or to_ms(ctx.now) < deadline:
                break
            outcome = flow._switch(deadline, ctx, auto=True)
            if outcome.refused is not None or not isinstance(outcome.flow, ZugzeitFlow):
                break  # refused (a record the rules would not take): the alarm has said it
            flow, effects = outcome.flow, [*effects, *outcome.effects]
        if flow is self:
            return Outcome(self)
        return Outcome(flow, tuple(effects), timer=flow.set_timer(ctx))

    def playing(self, stage: Playing, event: Event, ctx: Ctx) -> Outcome:
        flow = replace(self, message="")
        now = to_ms(event_time(event))
        if stage.actions is not None:
            return flow._actions(stage.actions, event, now, ctx)
        clock = self.clock
        if is_press(event, *GO):
            if not clock.running:
                return flow._run(now, ctx)
            return flow._switch(now, ctx)
        if is_hold(event, Button.START):
            if clock.running:
                paused = replace(flow, clock=clock.stopped(now), message=t(ctx.lang, "pause"))
                return Outcome(paused, timer=paused.set_timer(ctx))
            return flow._run(now, ctx)
        if is_press(event, Button.BACK):
            if stage.overview:
                return Outcome(replace(flow, stage=Playing()))
            return flow._undo(now, ctx)
        if is_press(event, Button.NEXT) or isinstance(event, Turn):
            return Outcome(replace(flow, stage=Playing(actions=0)))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(flow, stage=Playing(overview=not stage.overview)))
        return refuse(flow, ctx)

    def _run(self, now: float, ctx: Ctx) -> Outcome:
        running = replace(self, clock=self.clock.run(now), stage=Playing())
        return Outcome(running, (Beep("start", ctx.volume),), timer=running.set_timer(ctx))

    def _switch(self, now: float, ctx: Ctx, *, auto: bool = False) -> Outcome:
        """The player on turn ends the turn at `now`; the next player's starts then."""
        played, clock = self._played(), self.clock
        if clock.since_ms is not None and now < clock.since_ms:
            last = played.events[-1] if played.events else None
            undone = played.undo() if isinstance(last, zz.Turn) and last.auto else None
            if isinstance(last, zz.Turn) and undone is not None:  # the press was meant for the turn the clock ended
                ran_since = clock.since_ms - last.ms  # that turn, as if it had run on from its deadline backwards
                back = replace(self, played=undone[0], clock=Clock(0, ran_since, True), stage=Playing())
                outcome = back._switch(now, ctx, auto=auto)
                return replace(outcome, effects=(*undone[2], *outcome.effects))
            now = clock.since_ms
        player = played.game.on_turn
        entered, outcome = enter(self, ctx, zz.Turn(player, whole_ms(clock.used(now)), auto))
        if entered is None:
            return outcome
        return self._moved_on(entered, outcome, now, ctx, sound=not auto)

    def _moved_on(self, entered: ZugzeitFlow, outcome: Outcome, now: float, ctx: Ctx, *, sound: bool) -> Outcome:
        """After an entry that passed the turn on (or ended the game): the next turn starts at `now`
        (stopped when the clock was), or the statistics."""
        game = entered._played().game
        before = self._played().game
        effects: tuple[Effect, ...] = outcome.effects
        out = [p for i, p in enumerate(game.players) if game.status[i] == zz.OUT and before.status[i] != zz.OUT]
        message = t(ctx.lang, "out", player=out[0]) if out else entered.message
        if game.ended:
            ended = replace(entered, stage=Stats(ended_ms=now if out else None), clock=Clock(0, None, True),
                            message=message)
            return Outcome(ended, (*effects, Beep("celebrate", ctx.volume)), timer=ended.set_timer(ctx))
        clock = Clock(0, now if self.clock.running else None, True)
        moved = replace(entered, clock=clock, stage=Playing(), message=message)
        if sound:
            effects = (*effects, Beep("turn", ctx.volume))
        return Outcome(moved, effects, timer=moved.set_timer(ctx))

    def _undo(self, now: float, ctx: Ctx) -> Outcome:
        played = self._played()
        last = played.events[-1] if played.events else None
        if isinstance(last, zz.Turn) and last.auto:
            return refuse(replace(self, message=t(ctx.lang, "auto_undo")), ctx)
        step = played.undo()
        if step is None:
            return refuse(replace(self, message=t(ctx.lang, "nothing_to_undo")), ctx)
        undone, event, effects = step
        game = undone.game
        clock = self.clock
        message = t(ctx.lang, "undone_entry")
        if isinstance(event, zz.End):  # the game goes on, stopped, with the unfinished turn's time
            clock = Clock(event.ms, None, True)
            message = t(ctx.lang, "undone", player=game.on_turn)
        elif isinstance(event, zz.Turn) or (isinstance(event, zz.Remove) and event.player == game.on_turn):
            assert isinstance(event, zz.Turn | zz.Remove)
            # the turn passed on by mistake: the time since goes back to the player whose turn it was
            clock = Clock(event.ms + clock.used(now), now if clock.running else None, True)
            message = t(ctx.lang, "undone", player=game.on_turn)
        flow = replace(self, played=undone, clock=clock, stage=Playing(), message=message)
        return Outcome(flow, effects, timer=flow.set_timer(ctx))

    # --- actions ------------------------------------------------------------------------------------

    def action_items(self, lang: str) -> tuple[tuple[str, str, str], ...]:
        """(action, player, label) of the actions menu."""
        game = self._played().game
        items = [("reverse", "", t(lang, "action.reverse"))]
        upcoming = game.players[game.upcoming()]
        if upcoming != game.on_turn:
            items.append(("skip", upcoming, t(lang, "action.skip", player=upcoming)))
        if len(game.active) > zz.MIN_PLAYERS:
            items += [("remove", p, t(lang, "action.remove", player=p)) for p in game.active]
        items.append(("end", "", t(lang, "action.end")))
        return tuple(items)

    def _actions(self, cursor: int, event: Event, now: float, ctx: Ctx) -> Outcome:
        items = self.action_items(ctx.lang)
        step = cursor_step(event)
        if step is not None:
            return Outcome(replace(self, stage=Playing(actions=(cursor + step) % len(items))))
        if is_press(event, Button.BACK):
            return Outcome(replace(self, stage=Playing()))
        if is_press(event, Button.TURN):
            return replace(self, stage=Playing()).playing(Playing(), event, ctx)
        if not is_press(event, Button.START, Button.ENCODER):
            return refuse(self, ctx)
        action, player, _ = items[cursor % len(items)]
        game, clock = self._played().game, self.clock
        closed = replace(self, stage=Playing())
        if action == "reverse":
            entered, outcome = enter(closed, ctx, zz.Reverse(), message=t(ctx.lang, "reversed"))
        elif action == "skip":
            entered, outcome = enter(closed, ctx, zz.Skip(player), message=t(ctx.lang, "skipping", player=player))
        elif action == "remove" and player != game.on_turn:
            entered, outcome = enter(closed, ctx, zz.Remove(player), message=t(ctx.lang, "removed", player=player))
        else:
            used = whole_ms(clock.used(now))
            event_ = zz.Remove(player, used) if action == "remove" else zz.End(used)
            message = t(ctx.lang, "removed", player=player) if action == "remove" else ""
            entered, outcome = enter(closed, ctx, event_, message=message)
            if entered is not None:
                return closed._moved_on(entered, outcome, now, ctx, sound=True)
        return outcome if entered is None else replace(outcome, timer=entered.set_timer(ctx))

    # --- statistics ---------------------------------------------------------------------------------

    def stats(self, stage: Stats, event: Event, ctx: Ctx) -> Outcome:
        flow = replace(self, message="")
        played = self._played()
        step = cursor_step(event)
        now = to_ms(event_time(event))
        if step is not None:
            return Outcome(replace(flow, stage=replace(stage, figure=(stage.figure + step) % len(FIGURES))))
        late = stage.ended_ms is not None and now < stage.ended_ms
        if is_press(event, *GO) and late:  # a press meant for the turn the clock ended the game on
            back = replace(flow, stage=Playing(), clock=Clock(0, stage.ended_ms, True))
            return back._switch(now, ctx)
        if is_press(event, Button.START, Button.ENCODER):
            return Outcome(None, (EndGame(", ".join(played.game.winners)),))
        if is_press(event, Button.BACK):
            if isinstance(played.events[-1] if played.events else None, zz.End):
                return flow._undo(now, ctx)
            return refuse(replace(flow, message=t(ctx.lang, "auto_undo")), ctx)
        return refuse(flow, ctx)

    # --- screens ------------------------------------------------------------------------------------

    def options_screen(self, stage: Options, ctx: Ctx) -> ListScreen:
        lang = ctx.lang
        values = {
            "mode": t(lang, f"mode.{stage.mode}"),
            "turn": format_seconds(stage.turn_s),
            "bank": format_seconds(stage.bank_s),
            "over": t(lang, f"over.{stage.over}"),
            "increment": t(lang, "plus", s=stage.increment_s) if stage.increment_s else t(lang, "off"),
            "delay": t(lang, "seconds", s=stage.delay_s) if stage.delay_s else t(lang, "off"),
            "go": "",
        }
        items = tuple(ListItem(t(lang, f"row.{row}"), values[row]) for row in stage.rows())
        return ListScreen(t(lang, "options"), items, stage.cursor, self.message or t(lang, "hint_options"))

    def playing_screen(self, stage: Playing, ctx: Ctx) -> Screen:
        game, lang, now = self._played().game, ctx.lang, to_ms(ctx.now)
        if stage.actions is not None:
            items = tuple(ListItem(label) for _, _, label in self.action_items(lang))
            return ListScreen(t(lang, "actions"), items, stage.actions, self.message or t(lang, "hint_actions"))
        if stage.overview:
            return self._overview(game, now, lang)
        clock = self.clock
        left = game.allowed_ms() - clock.used(now)
        if not clock.started:
            status = t(lang, "ready")
        elif not clock.running:
            status = t(lang, "paused")
        else:
            status = t(lang, "turn_n", n=game.turns + 1)
        nxt = game.upcoming()
        if game.setup.mode == "limit":
            then = t(lang, "then_plain", player=game.players[nxt])
        else:
            then = t(lang, "then", player=game.players[nxt], time=countdown_text(self._shown_ms(game, nxt, now)))
        hint = t(lang, "hint_ready") if not clock.started else ""
        flash = -FLASH_MS < left <= 0 and clock.running and game.allowed_ms() > clock.used_ms
        return TurnScreen(game.on_turn, countdown_text(self._shown_ms(game, game.current, now)),
                          self.message or hint, status, inverted=flash, then=then)

    def _shown_ms(self, game: zz.Game, index: int, now: float) -> int:
        """The time a player's display shows now: the one on turn what is left of the turn (of the bank
        beside a Bronstein delay); the others their bank (the hourglass's other side filling up)."""
        s, used = game.setup, whole_ms(self.clock.used(now))
        if index == game.current:
            if s.mode == "limit":
                return s.time_ms - used
            return game.banks[index] - max(0, used - s.delay_ms)
        if s.mode == "limit":
            return s.time_ms
        if s.mode == "hourglass":
            return game.banks[index] + min(used, max(0, game.banks[game.current]))
        return game.banks[index]

    def _overview(self, game: zz.Game, now: float, lang: str) -> ListScreen:
        items = []
        for i, player in enumerate(game.players):
            if game.status[i] != zz.IN:
                value = t(lang, f"status.{game.status[i]}")
            else:
                value = countdown_text(self._shown_ms(game, i, now))
                if game.skipping[i]:
                    value = f"{t(lang, 'status.skip')} {value}"
            items.append(ListItem(player, value, i == game.current))
        return ListScreen(t(lang, "overview"), tuple(items), None, self.message)

    def stats_screen(self, stage: Stats, ctx: Ctx) -> ListScreen:
        game, lang = self._played().game, ctx.lang
        figure = FIGURES[stage.figure]
        items = tuple(ListItem(player, _figure(game.stats[i], figure), player in game.winners)
                      for i, player in enumerate(game.players))
        footer = self.message or (t(lang, "winner", players=", ".join(game.winners)) if game.winners
                                  else t(lang, "hint_stats"))
        return ListScreen(t(lang, "stats", figure=t(lang, f"figure.{figure}")), items, None, footer)


def _figure(stats: zz.PlayerStats, figure: str) -> str:
    if figure == "turns":
        return str(stats.turns)
    return exact_text({"total": stats.total_ms, "average": stats.average_ms, "longest": stats.longest_ms,
                       "over": stats.over_ms}[figure])


def _ends_itself(game: zz.Game) -> bool:
    """Whether the clock ends a turn whose time is up (else it beeps and counts on)."""
    s = game.setup
    return (s.mode == "limit" and s.over == "end") or s.mode in ("sudden-death", "hourglass")


def _scale_ms(game: zz.Game, allowed: int) -> int:
    """What a full LED bar stands for: the turn limit, all the sand (hourglass), or the starting bank
    (more when increments have filled a bank beyond it)."""
    s = game.setup
    if s.mode == "limit":
        return s.time_ms
    if s.mode == "hourglass":
        return 2 * s.time_ms
    return max(s.time_ms, allowed)


def _options_field(flow: ZugzeitFlow, stage: Options, ctx: Ctx) -> TextField | None:
    """A time ("1:30") for the options' time rows; the other rows are chosen by the buttons."""
    if stage.row in ("turn", "bank", "increment", "delay"):
        return TextField(t(ctx.lang, f"row.{stage.row}"), "number")
    return None


ZugzeitFlow.STAGES = {
    Seating: SEATING,
    Options: StageRow(ZugzeitFlow.options, ZugzeitFlow.options_screen, _options_field),
    Playing: StageRow(ZugzeitFlow.playing, ZugzeitFlow.playing_screen),
    Stats: StageRow(ZugzeitFlow.stats, ZugzeitFlow.stats_screen),
}


def new(ctx: Ctx, names: tuple[str, ...]) -> ZugzeitFlow:
    """The flow at its players: the configured names (else "Spieler N"), then the timing."""
    seats = Seats.of(names, ctx.lang, zz.MIN_PLAYERS, zz.MAX_PLAYERS, ctx.people)
    return ZugzeitFlow(Seating(seats), defaults=ctx.turns)
