"""Das perfekte Wort at the table (RULES.md §1, docs/perfektes-wort.md): the `Flow` from setup to the winner.

Setup, in order: players 1–6 (`seats.Seats`; one player = solo) → side (Turn/NEXT, START) → points card
(Turn/NEXT pick one of the faces, a typed id such as "3b" picks it, a long START lets the appliance draw
one from the event time; START) → deck (Turn/NEXT: the appliance's button deck, shuffled with a seed from
the event time, or physical cards: scan or type, e.g. "B7", the top cards of the shuffled pile in order —
all 10 the rounds need, or START after fewer and the rest one at a time at each reveal) → the game begins
(the setup line holds the deck order, `card` lines the cards added later, so a replay deals the same).

Each of the 9 rounds: reveal (NEXT; a scanned or typed card when the next card is not known yet) → the call
(round, letter, maximum length) → START runs the 1-minute timer; at the alarm (or a second START) word entry
opens (a minute that came back paused from a power cut runs on with START, to its alarm) → one typed line
per player (empty: no word) → review: the round's words with what breaks a rule marked
(and, when the appliance has a word list, the words it does not know: the round's words and their prefixes are
asked about with `CheckWords` once all are entered, the answers come back as `WordsChecked`); Turn or NEXT
moves (a long NEXT back), a long START declares the word invalid, a typed line corrects it; a word too long
or declared invalid is shortened
(Turn/NEXT pick a prefix — only those the word list knows, when it answered —, a typed length or prefix) or
struck; START goes on → the round's points with the bonus fields circled and struck → solo: strike a bonus
field → the scoreboard → NEXT reveals the next card. After round 9 the final breakdown and the winner; START
leaves. Solo: the score goes onto the highscore list of its side, kept under `highscores/perfektes-wort`
(`Keep`; read from `Ctx.kept`, which a restart fills with the `Kept` event); the final screen names its place,
NEXT shows the side's top 10 (BACK returns), and BACK on the final screen undoes the last entry and takes
the score off the list again. BACK undoes the last entry (its record line is retracted and the game rebuilt
from the rest). Every entry goes through `Played` (the rules core, and the record line `record.CODEC` writes),
so the record re-scores identically with `wordtable score`.

The flow's `stage` is one of the values in `stages`, each holding its own cursor and choices; its transitions
table `STAGES` (at the end: the setup's rows from `setup`, the screens from `screens`) maps a stage's type
to what it does with an event, what it shows and the line it waits for; `ANSWERS` takes the word list's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar

from firmware_host.core.effects import Beep, CheckWords, Effect, EndGame, Keep, Record, RevealBest, Revealed
from firmware_host.core.events import BestRevealed, Button, CardScan, Event, TextEntry, Turn, WordsChecked
from firmware_host.core.flow import Ctx, Outcome, PauseTimer, ResetTimer, StartTimer
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.games.word_groups import WordGroups
from firmware_host.core.table.played import PagedFlow, PhonePage, StageRow, enter
from firmware_host.core.table.reveals import answered
from firmware_host.core.table.seats import Seats, is_hold, is_press, refuse
from firmware_host.core.table.seats import t as seats_text

from . import page as phones
from .data import ROUNDS, LetterCard
from .fields import Mark
from .highscores import KEPT_NAME, HighScore, add_for_side, for_side, highscores_data, highscores_from_data
from .ids import GAME_ID, TITLE
from .lexicon import Lexicon, shortenings
from .rules import (
    MAX_PLAYERS,
    Card,
    Correct,
    Game,
    Reveal,
    Setup,
    Shorten,
    SoloStrike,
    Strike,
    TableEvent,
    Verdict,
    Word,
    field_marks,
    pending,
)
from .scoring import score
from .screens import (
    calling_screen,
    card_field,
    cards_wanted,
    entering_field,
    entering_screen,
    final_screen,
    fixing_field,
    fixing_screen,
    play_of,
    points_screen,
    revealing_screen,
    reviewing_field,
    reviewing_screen,
    sand_paused,
    solo_field,
    solo_striking_screen,
    standing_screen,
)
from .setup import SETUP_STAGES, card_of
from .stages import (
    Calling,
    Entering,
    Final,
    Fixing,
    Points,
    Revealing,
    Reviewing,
    SeatPick,
    SoloStriking,
    Stage,
    Standing,
    Timing,
)
from .text import t

ROUND_SECONDS = 60


@dataclass(frozen=True, slots=True)
class PerfektesWortFlow(PagedFlow[Stage, Setup, Game, TableEvent]):
    """Das perfekte Wort at the table. `seats` are chosen at the setup; from the first round on, `played`
    is the game in play (setup, events entered, the rules core's game). `checked` holds the word list's
    answers (none without a list); they are facts about words, so undo keeps them."""

    GAME = GAME_ID
    TITLE = TITLE
    PHONES: ClassVar[PhonePage] = phones

    seats: Seats = field(kw_only=True)
    checked: tuple[tuple[str, bool], ...] = ()  # the word list's answers so far: (word, known)
    reveal: str = "round"  # the perfect word: "off", after each "round", or only at the "end"
    best: tuple[BestRevealed, ...] = ()  # the word list's reveals so far, one per round
    drafts: tuple[tuple[int, str], ...] = ()  # words typed on phones while the sand runs: (seat, word), hidden

    @property
    def play(self) -> Game | None:
        """The rules core's game (None during the setup)."""
        return self.played.game if self.played else None

    @property
    def players(self) -> tuple[str, ...]:
        return self.played.setup.players if self.played else self.seats.players

    def explains_pause(self, ctx: Ctx) -> bool:
        """`ExplainsPause`: the minute's screen says that its sand stands paused and that START runs it on."""
        return isinstance(self.stage, Timing) and sand_paused(ctx)

    def timer_over(self, ctx: Ctx) -> Outcome:
        if isinstance(self.stage, Timing):
            return self._pens_down(ctx)
        return Outcome(replace(self, message=""))  # a stale footer must not stand beside "Zeit!"

    def asks(self, ctx: Ctx) -> tuple[Effect, ...]:
        """`Asks`: the review's words not checked yet, the round's perfect word on its points, every
        round's on the final standing (when the reveal comes only at the end) — each only when still owed."""
        if self.played is None:
            return ()
        play, stage = self.played.game, self.stage
        owed: tuple[Effect, ...] = ()
        if isinstance(stage, Reviewing | Fixing | Points) and (words := self._questions()):
            owed = (CheckWords(words),)
        revealed = {b.round for b in self.best}
        if isinstance(stage, Points) and self.reveal == "round" and play.revealed not in revealed:
            owed += (_reveal_best(play, play.revealed),)
        if isinstance(stage, Final) and self.reveal == "end":
            owed += tuple(_reveal_best(play, rnd) for rnd in range(1, ROUNDS + 1) if rnd not in revealed)
        return owed

    def _pens_down(self, ctx: Ctx, timer: ResetTimer | None = None) -> Outcome:
        """The sand has run out (or START stopped it): the phones' drafts are entered all at once (one the
        rules now refuse is left out, its reason in the footer: the player types it on the box), and entry
        goes on with the first player without a word — or, when all have one, to the review."""
        assert self.played is not None
        play, played, message = self.played.game, self.played, ""
        effects: tuple[Effect, ...] = ()
        for seat, text in self.drafts:
            try:
                played, more = played.enter(Word(play.revealed, self.players[seat], text))
            except RuleError as exc:
                message = exc.text(ctx.lang)
                continue
            effects += more
        flow = replace(self, played=played, drafts=(), message=message, stage=Entering(0))
        return _entered(Outcome(replace(flow, stage=flow._next_entry()), effects, timer))

    def enter_word(self, word: Word, ctx: Ctx) -> Outcome:
        """A player's word for the round, typed on the box or on the phone: entry goes on with the next
        player without a word; once all have one, the word list is asked."""
        return _entered(self._enter(ctx, (word,), PerfektesWortFlow._next_entry))

    def fix_word(self, event: Event, ctx: Ctx) -> Outcome:
        """An input while the table shortens a word (`Fixing`), from the box or the word's seat's phone."""
        assert isinstance(self.stage, Fixing) and self.played is not None
        return _fixing(self, self.stage, self.played.game, event, ctx)

    def _next_entry(self) -> Stage:
        """The first player without an entry this round, from the current one on; none: the review."""
        assert self.played is not None
        play = self.played.game
        start = self.stage.slot if isinstance(self.stage, Entering) else 0
        count = len(self.players)
        for slot in (*range(start, count), *range(start)):
            if play.entry(play.revealed, self.players[slot]) is None:
                return Entering(slot)
        return self._after_changes()

    # --- rounds -----------------------------------------------------------------------------------------

    def _enter(self, ctx: Ctx, events: tuple[TableEvent, ...],
               to: Stage | Callable[[PerfektesWortFlow], Stage]) -> Outcome:
        """Enter table events through the rules core, all or none: recorded and on to stage `to` (or the
        stage `to` picks for the flow with them entered), or refused (the flow unchanged) with the first
        refusal's reason."""
        flow, outcome = enter(self, ctx, *events)
        if flow is None:
            return outcome
        return replace(outcome, flow=replace(flow, stage=to(flow) if callable(to) else to))

    def _undo(self, ctx: Ctx) -> Outcome:
        assert self.played is not None
        undone = self.played.undo()
        if undone is None:
            return refuse(replace(self, message=seats_text(ctx.lang, "nothing_to_undo")), ctx)
        played, last, effects = undone
        stage: Stage
        if isinstance(last, Reveal | Card):
            stage = Revealing()
        elif isinstance(last, Word):
            stage = Entering(self.players.index(last.player))
        elif isinstance(last, SoloStrike):
            stage = SoloStriking()
        else:
            stage = Reviewing(self.players.index(last.player))
        timer = ResetTimer() if isinstance(self.stage, Timing) else None
        if isinstance(self.stage, Final) and self.stage.before is not None:  # the score leaves the list again
            effects += (Keep(KEPT_NAME, highscores_data(self.stage.before)),)
        return Outcome(replace(self, played=played, stage=stage, message=t(ctx.lang, "undone")), effects, timer)

    def _final(self, play: Game, ctx: Ctx) -> Outcome:
        """The final standing (with the reveal of all nine rounds when it comes only at the end); solo:
        the score goes onto the kept highscore list of its side (RULES §1)."""
        outcome = self._final_standing(play, ctx)
        if self.reveal != "end":
            return outcome
        asks = tuple(_reveal_best(play, rnd) for rnd in range(1, ROUNDS + 1))
        return replace(outcome, effects=(*outcome.effects, *asks))

    def _final_standing(self, play: Game, ctx: Ctx) -> Outcome:
        if not play.solo:
            return Outcome(replace(self, stage=Final()))
        try:
            before = highscores_from_data(ctx.kept.get(KEPT_NAME))
        except ValueError:  # the shell checks the file when it loads it; a damaged list counts as none
            before = ()
        side = play.setup.sheet.side
        player = score(play).players[0]
        table, place = add_for_side(before, HighScore(player.name, player.total, side))
        final = Final(best=for_side(table, side), place=place, before=before)
        return Outcome(replace(self, stage=final), (Keep(KEPT_NAME, highscores_data(table)),))

    def _questions(self) -> tuple[str, ...]:
        """The round's words as they stand and every prefix each could be shortened to, not yet asked."""
        assert self.played is not None
        play = self.played.game
        rnd, asked = play.revealed, dict(self.checked)
        words: dict[str, None] = {}
        for player in self.players:
            entry = play.entry(rnd, player)
            if entry is not None and entry.written and not entry.struck:
                for word in (entry.current, *shortenings(entry.current, play.max_length(rnd))):
                    if word not in asked:
                        words[word] = None
        return tuple(words)

    def known(self, word: str) -> bool | None:
        """The word list's answer about `word`; None when there is none (no list, or not asked)."""
        return dict(self.checked).get(word)

    def _after_changes(self) -> Stage:
        """Where the round goes after an entry: to the first word that needs shortening or striking, else
        to the review of the round's words."""
        assert self.played is not None
        for problem in pending(self.played.game):
            player = str(problem.fields.get("player", ""))
            if player in self.players:
                return Fixing(self.players.index(player))
        return Reviewing(self.stage.slot if isinstance(self.stage, Reviewing | Fixing) else 0)

    def options(self, play: Game, slot: int) -> tuple[str, ...]:
        """The fix stage's choices for the word of player `slot`: its prefixes, longest first — only those
        the word list knows once it has answered about all of them (R3), else all."""
        entry = play.entry(play.revealed, self.players[slot])
        if entry is None:
            return ()
        prefixes = shortenings(entry.current, play.max_length(play.revealed))
        if any(self.known(p) is None for p in prefixes):
            return prefixes
        return shortenings(entry.current, play.max_length(play.revealed),
                           Lexicon.of(word for word, known in self.checked if known))

    def open_fields(self, play: Game) -> tuple[str, ...]:
        marks = field_marks(play)[self.players[0]]
        return tuple(f for f, m in marks.items() if m.mark is Mark.OPEN)


Flow = PerfektesWortFlow  # short, for the handlers below (not `core.flow.Flow`, the protocol it meets)


# --- what each stage of a round does with an event -----------------------------------------------------


def _revealing(flow: Flow, stage: Revealing | Standing, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.NEXT, Button.START, Button.ENCODER):
        if play.revealed == ROUNDS:
            return flow._final(play, ctx)
        return flow._enter(ctx, (Reveal(play.revealed + 1),), Calling())
    if isinstance(event, CardScan | TextEntry):
        if play.revealed == ROUNDS or cards_wanted(play) == 0:
            return refuse(replace(flow, message=t(ctx.lang, "card_not_needed")), ctx)
        card = card_of(event, ctx)
        if not isinstance(card, LetterCard):
            return refuse(replace(flow, message=card), ctx)
        if cards_wanted(play) > 1:  # one more is needed before this round can begin
            return flow._enter(ctx, (Card(card),), Revealing())
        return flow._enter(ctx, (Card(card), Reveal(play.revealed + 1)), Calling())
    return refuse(flow, ctx)


def _calling(flow: Flow, stage: Calling, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER):
        return Outcome(replace(flow, stage=Timing(), drafts=()), timer=StartTimer(ROUND_SECONDS))
    return refuse(flow, ctx)


def _timing(flow: Flow, stage: Timing, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER) and sand_paused(ctx):  # the sand runs on from where it stood
        return Outcome(flow, (Beep("start", ctx.volume),), PauseTimer())
    if is_press(event, Button.START, Button.ENCODER):
        return flow._pens_down(ctx, ResetTimer())
    if isinstance(event, TextEntry):  # a keyboard belongs to no seat: its word is typed after the alarm
        return refuse(replace(flow, message=t(ctx.lang, "typed_too_early", word=event.text.strip())), ctx)
    return refuse(flow, ctx)


def _entering(flow: Flow, stage: Entering, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if not isinstance(event, TextEntry):
        return refuse(flow, ctx)
    return flow.enter_word(Word(play.revealed, flow.players[stage.slot], event.text.strip()), ctx)


def _reviewing(flow: Flow, stage: Reviewing, play: Game, event: Event, ctx: Ctx) -> Outcome:
    rnd, player, count = play.revealed, flow.players[stage.slot], len(flow.players)
    if isinstance(event, Turn):
        return Outcome(replace(flow, stage=Reviewing((stage.slot + event.steps) % count)))
    if is_press(event, Button.NEXT):  # a short NEXT only moves: it never marks a word
        return Outcome(replace(flow, stage=Reviewing((stage.slot + 1) % count)))
    if is_hold(event, Button.NEXT):
        return Outcome(replace(flow, stage=Reviewing((stage.slot - 1) % count)))
    if is_hold(event, Button.START):
        return flow._enter(ctx, (Verdict(rnd, player, False),), Flow._after_changes)
    if isinstance(event, TextEntry):
        return _asking(flow._enter(ctx, (Correct(rnd, player, event.text.strip()),), Flow._after_changes))
    if is_press(event, Button.START, Button.ENCODER):
        asks = (_reveal_best(play, rnd),) if flow.reveal == "round" else ()
        return Outcome(replace(flow, stage=Points()), asks)
    return refuse(flow, ctx)


def _fixing(flow: Flow, stage: Fixing, play: Game, event: Event, ctx: Ctx) -> Outcome:
    rnd, player = play.revealed, flow.players[stage.slot]
    options = flow.options(play, stage.slot)
    count = len(options) + 1  # the last choice strikes the word
    if isinstance(event, Turn):
        return Outcome(replace(flow, stage=replace(stage, choice=(stage.choice + event.steps) % count)))
    if is_press(event, Button.NEXT):
        return Outcome(replace(flow, stage=replace(stage, choice=(stage.choice + 1) % count)))
    if is_hold(event, Button.NEXT):
        return Outcome(replace(flow, stage=replace(stage, choice=(stage.choice - 1) % count)))
    change: TableEvent | None = None
    if isinstance(event, TextEntry):
        text = event.text.strip()
        entry = play.entry(rnd, player)
        word = entry.current if entry else ""
        if text.isdigit():
            change = Shorten(rnd, player, word[: int(text)])
        elif text:
            change = Shorten(rnd, player, text)
        else:
            return refuse(replace(flow, message=t(ctx.lang, "not_a_length", text=text, word=word)), ctx)
    elif is_press(event, Button.START, Button.ENCODER):
        change = Shorten(rnd, player, options[stage.choice]) if stage.choice < len(options) else Strike(rnd, player)
    if change is None:
        return refuse(flow, ctx)
    return flow._enter(ctx, (change,), Flow._after_changes)


def _points(flow: Flow, stage: Points, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.NEXT, Button.ENCODER):
        if play.solo and play.revealed < ROUNDS and flow.open_fields(play):
            return Outcome(replace(flow, stage=SoloStriking()))
        return Outcome(replace(flow, stage=Standing()))
    return refuse(flow, ctx)


def _solo_striking(flow: Flow, stage: SoloStriking, play: Game, event: Event, ctx: Ctx) -> Outcome:
    fields = flow.open_fields(play)
    if isinstance(event, Turn):
        return Outcome(replace(flow, stage=SoloStriking((stage.choice + event.steps) % len(fields))))
    if is_press(event, Button.NEXT):
        return Outcome(replace(flow, stage=SoloStriking((stage.choice + 1) % len(fields))))
    if isinstance(event, TextEntry):
        chosen = event.text.strip()
    elif is_press(event, Button.START, Button.ENCODER):
        chosen = fields[stage.choice % len(fields)]
    else:
        return refuse(flow, ctx)
    return flow._enter(ctx, (SoloStrike(play.revealed, flow.players[0], chosen),), Standing())


# --- helpers -------------------------------------------------------------------------------------------


def _reveal_best(play: Game, rnd: int) -> RevealBest:
    """Ask the German word list for the perfect word of round `rnd` (as the game stands now)."""
    return RevealBest("de", rnd, partial(_reveal_lines, play, rnd))


def _reveal_lines(play: Game, rnd: int, lists: WordGroups) -> Revealed:
    """`best_word.reveal_lines`, loaded when the shell asks it: a replay and the first frame need no solver."""
    from .best_word import reveal_lines

    return reveal_lines(play, rnd, lists)


def _entered(outcome: Outcome) -> Outcome:
    """After words were entered: once every player has one (the entry is over), ask the word list."""
    flow = outcome.flow
    if isinstance(flow, PerfektesWortFlow) and isinstance(flow.stage, Entering):
        return outcome
    return _asking(outcome)


def _asking(outcome: Outcome) -> Outcome:
    """An accepted entry (one that recorded a line) asks the word list about the round's new words."""
    flow = outcome.flow
    if not isinstance(flow, PerfektesWortFlow) or not any(isinstance(e, Record) for e in outcome.effects):
        return outcome
    words = flow._questions()
    return replace(outcome, effects=(*outcome.effects, CheckWords(words))) if words else outcome


# --- the inputs every stage takes, and the transitions table --------------------------------------------


def _checked(flow: Flow, event: WordsChecked, ctx: Ctx) -> Outcome:
    known = dict(flow.checked) | dict(event.known)
    return Outcome(replace(flow, checked=tuple(known.items())))


def _revealed(flow: Flow, event: BestRevealed, ctx: Ctx) -> Outcome:
    return Outcome(replace(flow, best=answered(flow.best, event)))


def _in_round(handler: Callable[[Flow, Any, Game, Event, Ctx], Outcome]) -> Callable[[Flow, Any, Event, Ctx], Outcome]:
    """A stage of a round: BACK undoes the last entry, anything else `handler(flow, stage, game, event,
    ctx)`; the footer's message is cleared."""

    def handle(flow: Flow, stage: Any, event: Event, ctx: Ctx) -> Outcome:
        plain = replace(flow, message="")
        if is_press(event, Button.BACK):
            return plain._undo(ctx)
        return handler(plain, stage, play_of(flow), event, ctx)

    return handle


def _final(flow: Flow, stage: Final, event: Event, ctx: Ctx) -> Outcome:
    """START leaves; solo: NEXT shows the side's highscores (BACK returns); BACK undoes the last entry."""
    plain, play = replace(flow, message=""), play_of(flow)
    if is_press(event, Button.START, Button.ENCODER):
        return Outcome(None, (EndGame(", ".join(score(play).winners)),))
    if play.solo and is_press(event, Button.NEXT) and not stage.listing:
        return Outcome(replace(plain, stage=replace(stage, listing=True)))
    if is_press(event, Button.BACK) and stage.listing:
        return Outcome(replace(plain, stage=replace(stage, listing=False)))
    if not is_press(event, Button.BACK):
        return refuse(flow, ctx)
    return plain._undo(ctx)


PerfektesWortFlow.ANSWERS = {WordsChecked: _checked, BestRevealed: _revealed}
PerfektesWortFlow.STAGES = {
    **SETUP_STAGES,
    Revealing: StageRow(_in_round(_revealing), revealing_screen, card_field),
    Calling: StageRow(_in_round(_calling), calling_screen),
    Timing: StageRow(_in_round(_timing), calling_screen),
    Entering: StageRow(_in_round(_entering), entering_screen, entering_field),
    Reviewing: StageRow(_in_round(_reviewing), reviewing_screen, reviewing_field),
    Fixing: StageRow(_in_round(_fixing), fixing_screen, fixing_field),
    Points: StageRow(_in_round(_points), points_screen),
    SoloStriking: StageRow(_in_round(_solo_striking), solo_striking_screen, solo_field),
    Standing: StageRow(_in_round(_revealing), standing_screen, card_field),
    Final: StageRow(_final, final_screen),
}


def new(ctx: Ctx, names: tuple[str, ...]) -> PerfektesWortFlow:
    """The flow at its setup: the seats from the configured names."""
    return PerfektesWortFlow(SeatPick(), seats=Seats.of(names, ctx.lang, 1, MAX_PLAYERS, ctx.people), reveal=ctx.reveal)
