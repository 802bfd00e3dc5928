"""Quiddler at the table: setup, the eight rounds (plan, lay-downs, challenges, round table, scoreboard)
and the final standings, as a `core.flow.Flow`.

State: the game in play (`played`: the set-up and the record events entered since, through `Played`,
None during the setup) plus the stage in progress (`stage`, one of `stages`: what the screen asks for now;
`STAGES`, the transitions table, says what each does, shows and waits for). A refused entry keeps the
state, beeps and shows the reason (`message`) in the footer. BACK first takes back what
is being entered; with nothing in progress it undoes the last table event (`Played.undo`); on the setup's
first step (the player count) it leaves the game, as in every game.

Lay-down entry: words typed in card notation (`(QU)IT`, several separated by spaces) or scanned card by
card (a scanned code is looked up in the enrolled Quiddler card table; a code that is a face, e.g. "QU"
or a printed label's text, stands for itself); NEXT ends a scanned word (with no word open: the
words are done), a long NEXT or START ends the words; then the unused cards the same way (not for the
player who went out, who is asked for first).

With a per-turn limit (`table.turn_limit`), while a round is played (the screen asks who went out) the
timer runs from full for each turn: the round's starter first, then clockwise; a long START (or the turn
button) passes the turn on. The footer names the player on turn and the time left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, ClassVar

from firmware_host.core.effects import Effect, EndGame, RevealBest, Revealed
from firmware_host.core.events import BestRevealed, Button, CardScan, Event, TextEntry
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.word_groups import WordGroups
from firmware_host.core.roster import is_placeholder
from firmware_host.core.scoreboard import player_names
from firmware_host.core.screens import Screen
from firmware_host.core.table.played import PagedFlow, PhonePage, StageRow, enter
from firmware_host.core.table.reveals import answered
from firmware_host.core.table.seats import cursor_step, is_hold, is_press, refuse
from firmware_host.core.table.turn_limit import limit_text, with_limit

from . import page as phones
from .errors import RuleError
from .ids import GAME_ID
from .notation import format_cards, parse_cards
from .record import Challenge, Lay, RoundEnd, RoundStart, Setup, TableEvent
from .rules import Game
from .screens import (
    board_screen,
    challenger_screen,
    challenges_screen,
    closed,
    final_screen,
    game_of,
    lay_field,
    lay_screen,
    out_screen,
    plan_screen,
    table_screen,
    target_screen,
    targets,
    verdict_screen,
)
from .setup import SETUP_STAGES, confirms
from .stages import (
    MAX_PLAYERS,
    BoardPage,
    ChallengeList,
    ChallengerPick,
    FinalPage,
    LayEntry,
    OutChoice,
    PlanPage,
    PlayerCount,
    SetupStep,
    Stage,
    TablePage,
    TargetPick,
    VerdictPick,
    lay_order,
    next_stage,
)
from .text import t

__all__ = ["GAME_ID", "QuiddlerFlow", "new_flow"]


@dataclass(frozen=True, slots=True)
class QuiddlerFlow(PagedFlow[Stage, Setup, Game, TableEvent]):
    """Quiddler at the table: the stage on screen and, from the first round's plan on, the game played."""

    GAME = GAME_ID
    PHONES: ClassVar[PhonePage] = phones

    passes: int = 0  # turns passed on in the round being played (the per-turn limit's)
    best: tuple[BestRevealed, ...] = ()  # the word list's best lay-downs, one answer per round
    reveal: bool = True  # ask for them (the table's `reveal` setting is not "off")
    phone: tuple[tuple[int, int, tuple[tuple[str, ...], ...]], ...] = ()  # (seat, round, words) typed on phones

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order (the phones' seats): the game's, or the setup's while it is set up."""
        if self.played is not None:
            return self.played.setup.players
        return self.stage.players if isinstance(self.stage, SetupStep) else ()

    # --- events ------------------------------------------------------------------------------------

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        """`STAGES` (the word list's answers: `ANSWERS`), the per-turn limit around them: a long START (or
        the turn button) passes the turn on while a round is played."""
        if type(event) in self.ANSWERS:
            return self.dispatch(event, ctx)
        before = _turn_mark(self)
        if before is not None and ctx.turns.game_turn_s and (is_hold(event, Button.START)
                                                              or is_press(event, Button.TURN)):
            passed = replace(self, passes=self.passes + 1, message="")
            return with_limit(Outcome(passed), ctx, before, _turn_mark(passed))
        outcome = self.dispatch(event, ctx)
        after = outcome.flow if isinstance(outcome.flow, QuiddlerFlow) else None
        if after is not None and _round(after) != _round(self):  # a new round: its starter begins
            after = replace(after, passes=0)
            outcome = replace(outcome, flow=after)
        return with_limit(outcome, ctx, before, _turn_mark(after))

    def on_turn(self) -> str | None:
        """The player whose turn it is while a round is played (the per-turn limit's count)."""
        game = self.played.game if self.played is not None else None
        if game is None or game.current is None:
            return None
        players = game.players
        return players[(players.index(game.current.plan.starter) + self.passes) % len(players)]

    def asks(self, ctx: Ctx) -> tuple[Effect, ...]:
        """`Asks`: the best lay-downs of the round just scored while its table is on screen, when still owed."""
        game = self.played.game if self.played is not None else None
        if game is None or not isinstance(self.stage, TablePage) or any(b.round == len(game.rounds) for b in self.best):
            return ()
        return _revealing(Outcome(self)).effects

    def screen(self, ctx: Ctx) -> Screen:
        """The stage's screen (`STAGES`); its footer names the player on turn under a per-turn limit, and
        says the message when there is one."""
        shown = PagedFlow.screen(self, ctx)
        limit, player = limit_text(ctx), self.on_turn()
        if limit is not None and player is not None and _turn_mark(self) is not None:
            shown = replace(shown, footer=t(ctx.lang, "on_turn", player=player, time=limit))
        return replace(shown, footer=self.message) if self.message else shown

    # --- changes -----------------------------------------------------------------------------------

    def to(self, stage: Stage) -> Outcome:
        return Outcome(replace(self, stage=stage, message=""))

    def refused(self, ctx: Ctx, message: str) -> Outcome:
        return refuse(replace(self, message=message), ctx)

    def record(self, event: TableEvent, ctx: Ctx, *, then: Stage | None = None) -> Outcome:
        """Enter a table event; refused by the rules core: stay, beep and say why."""
        return self.entered(*enter(replace(self, message=""), ctx, event), then)

    @staticmethod
    def entered(flow: QuiddlerFlow | None, outcome: Outcome, then: Stage | None = None) -> Outcome:
        """A recorded change goes on to `then`, else to the stage the game asks for next."""
        if flow is None or flow.played is None:
            return outcome
        return replace(outcome, flow=replace(flow, stage=then or next_stage(flow.played.game)))

    def undo(self, ctx: Ctx) -> Outcome:
        """Take back the last table event (the setup stays: the game's record is open)."""
        undone = self.played.undo() if self.played is not None else None
        if undone is None:
            return self.refused(ctx, t(ctx.lang, "nothing_to_undo"))
        played, _, effects = undone
        undone_flow = replace(self, stage=next_stage(played.game), played=played, message="", passes=0)
        return Outcome(undone_flow, effects)


# --- what each stage after the setup does with an input ---------------------------------------------


def _forward(event: Event) -> bool:
    return confirms(event) or is_press(event, Button.NEXT)


def _plan(flow: QuiddlerFlow, stage: PlanPage, event: Event, ctx: Ctx) -> Outcome:
    game = game_of(flow)
    plan = game.next_round
    if confirms(event) and plan is not None:
        return flow.record(RoundStart(plan.number), ctx)
    if is_press(event, Button.BACK):
        return flow.to(BoardPage()) if game.rounds else flow.refused(ctx, t(ctx.lang, "nothing_to_undo"))
    return flow.refused(ctx, "")


def _table(flow: QuiddlerFlow, stage: TablePage, event: Event, ctx: Ctx) -> Outcome:
    if _forward(event):
        return flow.to(FinalPage() if game_of(flow).finished else BoardPage())
    return flow.undo(ctx) if is_press(event, Button.BACK) else flow.refused(ctx, "")


def _board(flow: QuiddlerFlow, stage: BoardPage, event: Event, ctx: Ctx) -> Outcome:
    if _forward(event):
        return flow.to(PlanPage())
    return flow.to(TablePage()) if is_press(event, Button.BACK) else flow.refused(ctx, "")


def _final(flow: QuiddlerFlow, stage: FinalPage, event: Event, ctx: Ctx) -> Outcome:
    if confirms(event) or is_press(event, Button.BACK):
        winners = game_of(flow).winners
        return Outcome(None, (EndGame(", ".join(winners) if winners else None),))
    return flow.refused(ctx, "")


def _out_choice(flow: QuiddlerFlow, e: OutChoice, event: Event, ctx: Ctx) -> Outcome:
    game = game_of(flow)
    options = len(game.players) + 1
    step = cursor_step(event)
    if step is not None:
        return flow.to(OutChoice((e.cursor + step) % options))
    if confirms(event):
        if e.cursor < len(game.players):
            return flow.to(LayEntry(game.players[e.cursor], went_out=True))
        return flow.to(LayEntry(lay_order(game)[0], went_out=False))
    return flow.undo(ctx) if is_press(event, Button.BACK) else flow.refused(ctx, "")


def _lay(flow: QuiddlerFlow, e: LayEntry, event: Event, ctx: Ctx) -> Outcome:
    game = game_of(flow)
    deck = game.setup.deck
    if isinstance(event, TextEntry):
        try:
            if e.unused_stage:
                return flow.to(replace(e, unused=e.unused + parse_cards(event.text, deck, allow_empty=True)))
            typed = tuple(parse_cards(word, deck) for word in event.text.split())
        except RuleError as exc:
            return flow.refused(ctx, exc.message)
        return flow.to(replace(e, words=(*closed(e), *typed), partial=()))
    if isinstance(event, CardScan):
        code = event.code.strip()
        face = ctx.cards.get("quiddler", {}).get(code, code).upper()
        if not deck.has(face):
            return flow.refused(ctx, t(ctx.lang, "unknown_card", code=event.code.strip()))
        if e.unused_stage:
            return flow.to(replace(e, unused=(*e.unused, face)))
        return flow.to(replace(e, partial=(*e.partial, face)))
    if is_press(event, Button.BACK):
        if e.unused_stage:
            return flow.to(replace(e, unused=e.unused[:-1]) if e.unused else replace(e, unused_stage=False))
        if e.partial:
            return flow.to(replace(e, partial=e.partial[:-1]))
        if e.words:
            return flow.to(replace(e, words=e.words[:-1]))
        if game.current is not None and not game.current.lays:
            return flow.to(OutChoice())
        return flow.undo(ctx)
    ends_word = is_press(event, Button.NEXT) and not e.unused_stage and e.partial
    if ends_word:
        return flow.to(replace(e, words=closed(e), partial=()))
    if is_press(event, Button.NEXT) or confirms(event) or is_hold(event, Button.NEXT):
        if e.unused_stage or e.went_out:
            words = tuple(format_cards(word) for word in closed(e))
            return flow.record(Lay(e.player, words, format_cards(e.unused), e.went_out), ctx)
        return flow.to(replace(e, words=closed(e), partial=(), unused_stage=True))
    return flow.refused(ctx, "")


def _challenge_list(flow: QuiddlerFlow, e: ChallengeList, event: Event, ctx: Ctx) -> Outcome:
    if confirms(event):
        return flow.to(ChallengerPick())
    if is_press(event, Button.NEXT):
        return _revealing(flow.record(RoundEnd(), ctx, then=TablePage()))
    return flow.undo(ctx) if is_press(event, Button.BACK) else flow.refused(ctx, "")


def _picking(count: Callable[[Game, Any], int], back: Callable[[Game, Any], Stage],
             chosen: Callable[[QuiddlerFlow, Any, Ctx], Outcome]) -> Callable[..., Outcome]:
    """A challenge's step chosen with a cursor over `count(game, stage)` options: Turn/NEXT move it, BACK
    goes to `back(game, stage)`, START is `chosen(flow, stage, ctx)`."""

    def handle(flow: QuiddlerFlow, e: Any, event: Event, ctx: Ctx) -> Outcome:
        game = game_of(flow)
        step = cursor_step(event)
        if step is not None:
            return flow.to(replace(e, cursor=(e.cursor + step) % count(game, e)))
        if is_press(event, Button.BACK):
            return flow.to(back(game, e))
        if not confirms(event):
            return flow.refused(ctx, t(ctx.lang, "no_text_here") if isinstance(event, TextEntry) else "")
        return chosen(flow, e, ctx)

    return handle


def _challenger_chosen(flow: QuiddlerFlow, e: ChallengerPick, ctx: Ctx) -> Outcome:
    challenger = game_of(flow).players[e.cursor]
    if not targets(game_of(flow), challenger):
        return flow.refused(ctx, t(ctx.lang, "no_words"))
    return flow.to(TargetPick(challenger))


def _target_chosen(flow: QuiddlerFlow, e: TargetPick, ctx: Ctx) -> Outcome:
    return flow.to(VerdictPick(e.challenger, e.cursor))


def _verdict_chosen(flow: QuiddlerFlow, e: VerdictPick, ctx: Ctx) -> Outcome:
    owner, word = targets(game_of(flow), e.challenger)[e.target]
    return flow.record(Challenge(e.challenger, owner, format_cards(word), allowed=e.cursor == 0), ctx)


def _answered(flow: QuiddlerFlow, event: BestRevealed, ctx: Ctx) -> Outcome:
    return Outcome(replace(flow, best=answered(flow.best, event)))


QuiddlerFlow.ANSWERS = {BestRevealed: _answered}
QuiddlerFlow.STAGES = {
    **SETUP_STAGES,
    PlanPage: StageRow(_plan, plan_screen),
    TablePage: StageRow(_table, table_screen),
    BoardPage: StageRow(_board, board_screen),
    FinalPage: StageRow(_final, final_screen),
    OutChoice: StageRow(_out_choice, out_screen),
    LayEntry: StageRow(_lay, lay_screen, lay_field),
    ChallengeList: StageRow(_challenge_list, challenges_screen),
    ChallengerPick: StageRow(_picking(lambda game, e: len(game.players), lambda game, e: ChallengeList(),
                                      _challenger_chosen), challenger_screen),
    TargetPick: StageRow(_picking(lambda game, e: len(targets(game, e.challenger)),
                                  lambda game, e: ChallengerPick(game.players.index(e.challenger)),
                                  _target_chosen), target_screen),
    VerdictPick: StageRow(_picking(lambda game, e: 2, lambda game, e: TargetPick(e.challenger, e.target),
                                   _verdict_chosen), verdict_screen),
}


def _revealing(outcome: Outcome) -> Outcome:
    """A round that was scored asks the English word list for every player's best lay-down."""
    flow = outcome.flow
    if not isinstance(flow, QuiddlerFlow) or flow.played is None or not flow.played.game.rounds or not flow.reveal:
        return outcome
    number = len(flow.played.game.rounds)
    ask = RevealBest("en", number, partial(_reveal_round, flow.played.game, number))
    return replace(outcome, effects=(*outcome.effects, ask))


def _reveal_round(game: Game, number: int, lists: WordGroups) -> Revealed:
    """`best_lay.reveal_round`, loaded when the shell asks it: a replay and the first frame need no solver."""
    from .best_lay import reveal_round

    return reveal_round(game, number, lists)


def new_flow(ctx: Ctx, names: tuple[str, ...]) -> QuiddlerFlow:
    """The flow at its setup: the configured names (a placeholder among them taken by the roster's next person
    not configured), then the roster's other people (recently played first), then "Spieler N"; as many players
    as are configured."""
    defaults = tuple(t(ctx.lang, "player_n", n=n + 1) for n in range(MAX_PLAYERS))
    configured = tuple(n for n in player_names(names[:MAX_PLAYERS], len(names[:MAX_PLAYERS]), "") if n)
    others = iter([p for p in ctx.people if p not in configured])
    given = tuple(next(others, n) if is_placeholder(n) else n for n in configured)
    seats = (*given, *others, *(d for d in defaults if d not in given))[:MAX_PLAYERS]
    return QuiddlerFlow(PlayerCount(seats, len(given) if given else 2), reveal=ctx.reveal != "off")


# --- the per-turn limit ---------------------------------------------------------------------------


def _round(flow: QuiddlerFlow) -> int | None:
    game = flow.played.game if flow.played is not None else None
    return None if game is None or game.current is None else game.current.plan.number


def _turn_mark(flow: QuiddlerFlow | None) -> int | None:
    """Round and turn while a round is played (nobody has gone out yet); None otherwise."""
    if flow is None or not isinstance(flow.stage, OutChoice) or flow.played is None:
        return None
    current = flow.played.game.current
    if current is None or current.lays:
        return None
    return current.plan.number * 1000 + flow.passes
