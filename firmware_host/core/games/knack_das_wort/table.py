"""Knack das Wort at the table (RULES.md §4, docs/knack-das-wort.md): the `Flow` from setup to ranking.

`Seating`: the players in turn order (`seats.Seats`; a long NEXT changes who starts), START begins.
`Playing`: each turn shows the player on turn. A typed word scores its letters, a typed number that many
letters; NEXT: the player draws or passes; a long START plays a Stop card; START opens the `ActionMenu`
(action cards, going out, the end conditions; a typed line there plays an action card of that name). A
long NEXT shows the `Scoreboard`. After the end (reported, or 50 points reached) the cards left are
entered player by player (Turn/NEXT or a typed number, START), then the final ranking; START leaves it.
BACK undoes the last entry everywhere (`Played.undo`: the record line is retracted, the game rebuilt).
With a per-turn limit (`table.turn_limit`) the timer runs from full at each new turn (a Stop skip is one)
and the turn's title shows its time. `KnackFlow.STAGES` (at the end) is the transitions table: each stage
type's handler, screen and typed line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import ClassVar

import firmware_host.core.games.knack_das_wort.rules as kw
from firmware_host.core.effects import Beep, EndGame
from firmware_host.core.events import Button, Event, TextEntry
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, Screen
from firmware_host.core.table.played import SEATING, PagedFlow, PhonePage, Played, StageRow, enter
from firmware_host.core.table.seats import Seating, Seats, cursor_step, is_hold, is_press, refuse
from firmware_host.core.table.seats import t as seats_text
from firmware_host.core.table.turn_limit import limit_text, with_limit
from firmware_host.core.text_field import TextField

from . import page as phones
from .ids import GAME_ID, TITLE
from .record import RULES
from .stages import CARDS, ActionMenu, Playing, Scoreboard, Stage
from .text import t

MAX_SEATS = 8
_NUMBER = re.compile(r"^\s*(\d{1,3})\s*$")

PlayedKnack = Played[kw.Setup, kw.Game, kw.Event]


@dataclass(frozen=True, slots=True)
class KnackFlow(PagedFlow[Stage, kw.Setup, kw.Game, kw.Event]):
    """Knack das Wort at the table: the stage on screen and, from the first turn on, the game played."""

    GAME = GAME_ID
    TITLE = TITLE
    PHONES: ClassVar[PhonePage] = phones

    @property
    def play(self) -> kw.Game:
        """The rules core's game (a stage after the setup has one)."""
        assert self.played is not None
        return self.played.game

    # --- handling events ----------------------------------------------------------------------------

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        """`STAGES`, the turn's time limit around it."""
        outcome = self.dispatch(event, ctx)
        after = outcome.flow if isinstance(outcome.flow, KnackFlow) else None
        return with_limit(outcome, ctx, _turn_mark(self), _turn_mark(after))

    def start_game(self, players: tuple[str, ...]) -> Outcome:
        played, effects = Played.begin(RULES, kw.Setup(players), players)
        return Outcome(replace(self, stage=Playing(), played=played), effects)

    def enter(self, event: kw.Event, ctx: Ctx, message: str = "") -> Outcome:
        """Enter one table event through the rules; a refused one leaves the flow as it was (menu closed)."""
        flow, outcome = enter(replace(self, stage=Playing()), ctx, event, message=message)
        if flow is not None and flow.played is not None and kw.score(flow.played.game).final:
            return replace(outcome, effects=(*outcome.effects, Beep("celebrate", ctx.volume)))
        return outcome

    def write(self, word: kw.WriteWord, ctx: Ctx) -> Outcome:
        """A word (or its letter count) entered for its player; taken, the footer says what it scored."""
        outcome = self.enter(word, ctx)
        entered = outcome.flow
        if outcome.refused is None and isinstance(entered, KnackFlow) and entered.played is not None:
            before, scored = self.play.points(word.player), entered.play.points(word.player)
            message = t(ctx.lang, "scored", player=word.player, points=scored - before, total=scored)
            outcome = replace(outcome, flow=replace(entered, message=message))
        return outcome

    def _undo(self, played: PlayedKnack, ctx: Ctx) -> Outcome:
        step = played.undo()
        if step is None:
            return refuse(replace(self, message=seats_text(ctx.lang, "nothing_to_undo")), ctx)
        played, _, effects = step
        return Outcome(replace(self, stage=Playing(), played=played, message=t(ctx.lang, "undone")), effects)

    def _turn(self, game: kw.Game, event: Event, ctx: Ctx) -> Outcome:
        player = game.current
        if isinstance(event, TextEntry):
            text = event.text.strip()
            number = _NUMBER.match(text)
            return self.write(kw.WriteWord(player, letters=int(number.group(1))) if number
                              else kw.WriteWord(player, text), ctx)
        if is_press(event, Button.NEXT):
            return self.enter(kw.Draw(player), ctx, t(ctx.lang, "drew", player=player))
        if is_hold(event, Button.START):
            return self._play(player, CARDS[0], ctx)
        if is_press(event, Button.START, Button.ENCODER):
            return Outcome(replace(self, stage=ActionMenu()))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, stage=Scoreboard()))
        return refuse(self, ctx)

    def _play(self, player: str, card: str, ctx: Ctx) -> Outcome:
        return self.enter(kw.PlayAction(player, card), ctx, t(ctx.lang, "card", player=player, card=card))

    def menu_items(self, lang: str) -> tuple[tuple[kw.Event, str], ...]:
        """The action menu: (the table event it enters, its label), for the player on turn."""
        game = self.play
        player = game.current
        items: list[tuple[kw.Event, str]] = [(kw.PlayAction(player, card), t(lang, "action_card", card=card))
                                             for card in CARDS]
        items.append((kw.Draw(player), t(lang, "action_draw")))
        out = set(game.gone_out)
        items += [(kw.GoOut(p), t(lang, "action_out", player=p)) for p in game.players if p not in out]
        items += [(kw.ReportEnd(r), t(lang, f"end_{r}")) for r in kw.END_REASONS]
        return tuple(items)

    def _left(self, stage: Playing, game: kw.Game, event: Event, ctx: Ctx) -> Outcome:
        player = _next_left(game)
        step = cursor_step(event)
        if step is not None:
            return Outcome(replace(self, stage=Playing(max(0, stage.left + step))))
        if isinstance(event, TextEntry):
            number = _NUMBER.match(event.text)
            if number is None:
                return refuse(replace(self, message=t(ctx.lang, "not_count", text=event.text.strip())), ctx)
            return self.enter(kw.CardsLeft(player, int(number.group(1))), ctx)
        if is_press(event, Button.START, Button.ENCODER):
            return self.enter(kw.CardsLeft(player, stage.left), ctx)
        return refuse(self, ctx)

    def scoreboard(self, lang: str) -> ListScreen:
        """Every player's points so far (letters and bonus), the player on turn marked."""
        game = self.play
        items = tuple(ListItem(p, str(game.points(p)), p == game.current) for p in game.players)
        return ListScreen(t(lang, "board"), items, game.turn, self.message)


# --- what each stage does with an event ---------------------------------------------------------------


def _playing(flow: KnackFlow, stage: Playing, event: Event, ctx: Ctx) -> Outcome:
    """The turns (BACK undoes), then the cards left, then the ranking (START leaves)."""
    plain, game = replace(flow, message=""), flow.play
    if is_press(event, Button.BACK):
        assert flow.played is not None
        return plain._undo(flow.played, ctx)
    if game.end is None:
        return plain._turn(game, event, ctx)
    if not kw.score(game).final:
        return plain._left(stage, game, event, ctx)
    if is_press(event, Button.START, Button.ENCODER):
        return Outcome(None, (EndGame(", ".join(kw.score(game).winners)),))
    return refuse(flow, ctx)


def _menu(flow: KnackFlow, stage: ActionMenu, event: Event, ctx: Ctx) -> Outcome:
    plain = replace(flow, message="")
    items = plain.menu_items(ctx.lang)
    step = cursor_step(event)
    if step is not None:
        return Outcome(replace(plain, stage=ActionMenu((stage.cursor + step) % len(items))))
    if is_press(event, Button.BACK):
        return Outcome(replace(plain, stage=Playing()))
    if isinstance(event, TextEntry) and event.text.strip():
        return plain._play(flow.play.current, event.text.strip(), ctx)
    if is_press(event, Button.START, Button.ENCODER):
        chosen, label = items[stage.cursor]
        return plain.enter(chosen, ctx, label)
    return refuse(plain, ctx)


def _scoreboard(flow: KnackFlow, stage: Scoreboard, event: Event, ctx: Ctx) -> Outcome:
    return Outcome(replace(flow, message="", stage=Playing()))


# --- what each stage shows and waits for ----------------------------------------------------------


def _playing_screen(flow: KnackFlow, stage: Playing, ctx: Ctx) -> Screen:
    lang, game = ctx.lang, flow.play
    standings = kw.score(game)
    if game.end is None:
        player = game.current
        turn = 1 + game.turns
        title = t(lang, "turn", n=turn, points=game.points(player))
        if (limit := limit_text(ctx)) is not None:
            title = t(lang, "turn_timed", n=turn, time=limit)
        if game.tasks:  # what the previous player's action cards ask of this turn
            title = t(lang, "tasks", tasks=", ".join(game.tasks))
        hint = t(lang, "played", cards=", ".join(game.cards)) if game.cards else t(lang, "hint_turn")
        # the big view: who is on turn and their total, what the table looks at
        return BigScreen(title, f"{player} {game.points(player)}", hint, line=flow.message)
    if not standings.final:
        title = t(lang, "left", player=_next_left(game))
        return BigScreen(title, str(stage.left), kw.end_reason(game, lang), line=flow.message)
    items = tuple(ListItem(f"{s.rank}. {s.player}", str(s.points), s.rank == 1) for s in standings.players)
    title = t(lang, "winner", players=", ".join(standings.winners))
    return ListScreen(title, items, None, flow.message or t(lang, "hint_final"))


def _playing_field(flow: KnackFlow, stage: Playing, ctx: Ctx) -> TextField | None:
    """The word (or its letter count) of the player on turn; the cards left at the end."""
    game = flow.play
    if game.end is None:
        return TextField(t(ctx.lang, "word_field", player=game.current), "word")
    if not kw.score(game).final:
        return TextField(t(ctx.lang, "left", player=_next_left(game)), "number")
    return None


def _menu_screen(flow: KnackFlow, stage: ActionMenu, ctx: Ctx) -> Screen:
    items = tuple(ListItem(label) for _, label in flow.menu_items(ctx.lang))
    return ListScreen(t(ctx.lang, "actions", player=flow.play.current), items, stage.cursor,
                      flow.message or t(ctx.lang, "hint_menu"))


def _menu_field(flow: KnackFlow, stage: ActionMenu, ctx: Ctx) -> TextField:
    """An action card's name."""
    return TextField(t(ctx.lang, "card_field", player=flow.play.current), "text")


def _scoreboard_screen(flow: KnackFlow, stage: Scoreboard, ctx: Ctx) -> Screen:
    return flow.scoreboard(ctx.lang)


KnackFlow.STAGES = {
    Seating: SEATING,
    Playing: StageRow(_playing, _playing_screen, _playing_field),
    ActionMenu: StageRow(_menu, _menu_screen, _menu_field),
    Scoreboard: StageRow(_scoreboard, _scoreboard_screen),
}


def _turn_mark(flow: KnackFlow | None) -> int | None:
    """The turns taken so far (a skip is one) while the game runs; None before and after it."""
    if flow is None or flow.played is None or flow.played.game.end is not None:
        return None
    return sum(1 for e in flow.played.game.log if e.kind != "out")


def _next_left(game: kw.Game) -> str:
    return next(p for p in game.players if game.cards_left(p) is None)


def new(ctx: Ctx, names: tuple[str, ...]) -> KnackFlow:
    return KnackFlow(Seating(Seats.of(names, ctx.lang, kw.MIN_PLAYERS, MAX_SEATS, ctx.people)))
