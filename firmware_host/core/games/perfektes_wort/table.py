"""Das perfekte Wort at the table (RULES.md §1, docs/perfektes-wort.md): the `Flow` from setup to the winner.

Setup, in order: players 1–6 (`seats.Seats`; one player = solo) → side (Turn/NEXT, START) → points card
(Turn/NEXT pick one of the faces, a typed id such as "3b" picks it, a long START lets the appliance draw
one from the event time; START) → deck (Turn/NEXT: the appliance's button deck, shuffled with a seed from
the event time, or physical cards: scan or type, e.g. "B7", the top cards of the shuffled pile in order —
all 10 the rounds need, or START after fewer and the rest one at a time at each reveal) → the game begins
(the setup line holds the deck order, `card` lines the cards added later, so a replay deals the same).

Each of the 9 rounds: reveal (NEXT; a scanned or typed card when the next card is not known yet) → the call
(round, letter, maximum length) → START runs the 1-minute timer; at the alarm (or a second START) word entry
opens → one typed line per player (empty: no word) → review: the round's words with what breaks a rule marked
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

The flow's `stage` is one of the stage values below, each holding its own cursor and choices; `HANDLERS`
and `SCREENS` map a stage's type to what it does with an event and what it shows.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, ClassVar, Self

from firmware_host.core.deck import Deck
from firmware_host.core.effects import CheckWords, Effect, EndGame, Keep, Record, RevealBest, Revealed
from firmware_host.core.events import BestRevealed, Button, CardScan, Event, Press, TextEntry, Turn, WordsChecked
from firmware_host.core.flow import Ctx, Outcome, ResetTimer, StartTimer
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.games.word_groups import WordGroups
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.played import Played, begin, enter
from firmware_host.core.table.seats import Seats, is_hold, is_press, refuse
from firmware_host.core.table.seats import t as seats_text
from firmware_host.core.text_field import TextField
from firmware_host.core.text_input import NAME, refusal
from firmware_host.core.timer import format_seconds

from . import GAME_ID
from .data import ROUNDS, LetterCard, card_from_code
from .defaults import DEFAULT_DATA
from .errors import DataError
from .fields import Mark
from .highscores import KEPT_NAME, HighScore, add_for_side, for_side, highscores_data, highscores_from_data
from .lexicon import Lexicon, shortenings
from .record import RULES
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
from .text import TITLE, t

ROUND_SECONDS = 60
SIDES = ("grundversion", "profi")
DECKS = ("buttons", "cards")
_FACE_TYPED = re.compile(r"^\s*(\d{1,2}[ab])\s*$", re.IGNORECASE)


def seed_of(at: float) -> int:
    """The shuffle seed for a deck chosen at event time `at` (journaled events replay the same time)."""
    return int(at * 1000) & 0x7FFFFFFF


# --- the stages -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Picks:
    """The setup's choices so far (kept while the table goes back and forth): indexes into `SIDES`, the
    points-card faces and `DECKS`."""

    side: int = 0
    face: int = 0
    deck: int = 0


@dataclass(frozen=True, slots=True)
class SeatPick:
    """The players are chosen (`PerfektesWortFlow.seats`)."""

    picks: Picks = Picks()


@dataclass(frozen=True, slots=True)
class _Pick:
    """A setup list: `OPTION` names the choice in `Picks` it moves, `count` how many there are."""

    OPTION: ClassVar[str]
    picks: Picks

    @property
    def index(self) -> int:
        return int(getattr(self.picks, self.OPTION))

    def count(self) -> int:
        return {"side": len(SIDES), "face": len(DEFAULT_DATA.faces), "deck": len(DECKS)}[self.OPTION]

    def moved(self, index: int) -> Self:
        return replace(self, picks=replace(self.picks, **{self.OPTION: index % self.count()}))


@dataclass(frozen=True, slots=True)
class SidePick(_Pick):
    OPTION: ClassVar[str] = "side"


@dataclass(frozen=True, slots=True)
class FacePick(_Pick):
    """The points card: also typed ("3b") or drawn by the appliance (a long START)."""

    OPTION: ClassVar[str] = "face"


@dataclass(frozen=True, slots=True)
class DeckPick(_Pick):
    OPTION: ClassVar[str] = "deck"


@dataclass(frozen=True, slots=True)
class Scanning:
    """Physical cards: the top cards of the shuffled pile scanned or typed so far, in order."""

    picks: Picks
    scanned: tuple[LetterCard, ...] = ()


@dataclass(frozen=True, slots=True)
class Revealing:
    """The next card is revealed (NEXT), or entered first when it is not known yet."""


@dataclass(frozen=True, slots=True)
class Calling:
    """The round's call is on screen; START runs the sand timer."""


@dataclass(frozen=True, slots=True)
class Timing:
    """The sand timer runs; its alarm (or START) opens the word entry."""


@dataclass(frozen=True, slots=True)
class Entering:
    """The word of the player `slot` is typed."""

    slot: int = 0


@dataclass(frozen=True, slots=True)
class Reviewing:
    """The round's words, the cursor on player `slot`."""

    slot: int = 0


@dataclass(frozen=True, slots=True)
class Fixing:
    """The word of player `slot` is shortened or struck; `choice` is the cursor on its options."""

    slot: int
    choice: int = 0


@dataclass(frozen=True, slots=True)
class Points:
    """The round's points and bonus fields."""


@dataclass(frozen=True, slots=True)
class SoloStriking:
    """Solo: a bonus field not used is struck; `choice` is the cursor on the open ones."""

    choice: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    """The scoreboard after the round; NEXT reveals the next card."""


@dataclass(frozen=True, slots=True)
class Final:
    """The final standing. Solo: `best` is the side's highscore list with this game's score, `place` its
    place on it (None: not on the list), `before` the kept list before (restored by undo); `listing`: the
    list is on screen."""

    best: tuple[HighScore, ...] = ()
    place: int | None = None
    before: tuple[HighScore, ...] | None = None
    listing: bool = False


Stage = (
    SeatPick | SidePick | FacePick | DeckPick | Scanning
    | Revealing | Calling | Timing | Entering | Reviewing | Fixing | Points | SoloStriking | Standing | Final
)


# --- the flow -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PerfektesWortFlow:
    """Das perfekte Wort at the table. `seats` are chosen at the setup; from the first round on, `played`
    is the game in play (setup, events entered, the rules core's game). `checked` holds the word list's
    answers (none without a list); they are facts about words, so undo keeps them."""

    seats: Seats
    stage: Stage = SeatPick()
    played: Played[Setup, Game, TableEvent] | None = None
    checked: tuple[tuple[str, bool], ...] = ()  # the word list's answers so far: (word, known)
    message: str = ""
    reveal: str = "round"  # the perfect word: "off", after each "round", or only at the "end"
    best: tuple[BestRevealed, ...] = ()  # the word list's reveals so far, one per round
    drafts: tuple[tuple[int, str], ...] = ()  # words typed on phones while the sand runs: (seat, word), hidden

    def seat_entry(self, seat: int, text: str, ctx: Ctx) -> Outcome:
        """A word from the phone of seat `seat`: while the sand runs it is the seat's draft (hidden, checked
        by the rules core, replaced by a later one, withdrawn by an empty line) until the alarm enters all
        drafts at once; after the alarm it is the seat's word at once, if the seat has none yet; while the
        table shortens this seat's word (`Fixing`), the shortened word or its length."""
        flow, stage = replace(self, message=""), self.stage
        if self.played is None or not 0 <= seat < len(self.players):
            return refuse(replace(flow, message=t(ctx.lang, "phone_no_seat", seat=seat + 1)), ctx)
        play, player = self.played.game, self.players[seat]
        others = tuple(d for d in self.drafts if d[0] != seat)
        if isinstance(stage, Timing):
            if not text:
                return Outcome(replace(flow, drafts=others))
            try:
                self.played.enter(Word(play.revealed, player, text))  # checked only: entered at the alarm
            except RuleError as exc:
                return refuse(replace(flow, message=exc.text(ctx.lang)), ctx)
            return Outcome(replace(flow, drafts=tuple(sorted((*others, (seat, text))))))
        if isinstance(stage, Entering) and play.entry(play.revealed, player) is None:
            return _entered(flow._enter(ctx, (Word(play.revealed, player, text),), Flow._next_entry))
        if isinstance(stage, Fixing) and stage.slot == seat:  # the own word shortened, as typed on the box
            return _fixing(flow, stage, play, TextEntry(text, ctx.now), ctx)
        return refuse(replace(flow, message=t(ctx.lang, "phone_not_now", name=player)), ctx)

    def page(self, seat: int | None, ctx: Ctx) -> dict[str, Any]:
        from .page import page_data  # the page's view of this flow (kept apart: it is long)

        return page_data(self, seat, ctx)

    @property
    def game(self) -> str:
        return GAME_ID

    @property
    def play(self) -> Game | None:
        """The rules core's game (None during the setup)."""
        return self.played.game if self.played else None

    @property
    def players(self) -> tuple[str, ...]:
        return self.played.setup.players if self.played else self.seats.players

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, WordsChecked):
            known = dict(self.checked) | dict(event.known)
            return Outcome(replace(self, checked=tuple(known.items())))
        if isinstance(event, BestRevealed):
            kept = tuple(b for b in self.best if b.round != event.round)
            return Outcome(replace(self, best=tuple(sorted((*kept, event), key=lambda b: b.round))))
        flow, stage = replace(self, message=""), self.stage
        if self.played is None:
            if is_press(event, Button.BACK):
                return flow._back(ctx)
            return SETUP_HANDLERS[type(stage)](flow, stage, event, ctx)
        if isinstance(stage, Final):
            if is_press(event, Button.START, Button.ENCODER):
                winners = score(self.played.game).winners
                return Outcome(None, (EndGame(", ".join(winners)),))
            if self.played.game.solo and is_press(event, Button.NEXT) and not stage.listing:
                return Outcome(replace(flow, stage=replace(stage, listing=True)))
            if is_press(event, Button.BACK) and stage.listing:
                return Outcome(replace(flow, stage=replace(stage, listing=False)))
            if not is_press(event, Button.BACK):
                return refuse(self, ctx)
        if is_press(event, Button.BACK):
            return flow._undo(ctx)
        return HANDLERS[type(stage)](flow, stage, self.played.game, event, ctx)

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

    def screen(self, ctx: Ctx) -> Screen:
        return SCREENS[type(self.stage)](self, self.stage, ctx)

    def text_field(self, ctx: Ctx) -> TextField | None:
        """Names at the setup, a points card or a letter card ("3b", "B7"), a player's word (the only
        input at the word entry), a correction, a shortening, a bonus field to strike."""
        stage, lang, play = self.stage, ctx.lang, self.play
        if isinstance(stage, SeatPick):
            return self.seats.field(lang)
        if isinstance(stage, FacePick):
            return TextField(t(lang, "face_field"), "card")
        if isinstance(stage, Scanning):
            return TextField(t(lang, "card_field", n=len(stage.scanned) + 1), "card")
        if play is None:
            return None
        if isinstance(stage, Revealing | Standing) and _card_hint(play, lang) is not None:
            return TextField(t(lang, "card_field", n=len(play.setup.deck) + 1), "card")
        rnd = play.revealed
        if isinstance(stage, Entering):
            note = t(lang, "entry_note", letter=play.letter(rnd), length=play.max_length(rnd))
            title = t(lang, "entry_title", player=self.players[stage.slot], round=rnd)
            return TextField(title, "word", note=note, only=True, message=self.message)
        if isinstance(stage, Reviewing):
            return TextField(t(lang, "review_field", player=self.players[stage.slot]), "word")
        if isinstance(stage, Fixing):
            entry = play.entry(rnd, self.players[stage.slot])
            return TextField(t(lang, "fix_field", word=entry.current if entry else ""), "text")
        if isinstance(stage, SoloStriking):
            return TextField(t(lang, "solo_field"), "text")
        return None

    # --- setup ------------------------------------------------------------------------------------------

    def _back(self, ctx: Ctx) -> Outcome:
        """BACK at the setup: the last scanned card off, else the previous step (None: out to the menu)."""
        stage = self.stage
        if isinstance(stage, Scanning) and stage.scanned:
            return Outcome(replace(self, stage=replace(stage, scanned=stage.scanned[:-1]),
                                   message=t(ctx.lang, "undone")))
        if isinstance(stage, SeatPick):
            return Outcome(None)
        assert isinstance(stage, _Pick | Scanning), "BACK in the setup comes from a setup stage"
        before: Callable[[Picks], Stage] = {
            SidePick: SeatPick, FacePick: SidePick, DeckPick: FacePick, Scanning: DeckPick,
        }[type(stage)]
        return Outcome(replace(self, stage=before(stage.picks)))

    def _begin(self, picks: Picks, deck: tuple[LetterCard, ...], ctx: Ctx) -> Outcome:
        face = DEFAULT_DATA.faces[picks.face]
        setup = Setup(players=self.seats.players, sheet=DEFAULT_DATA.sheets[SIDES[picks.side]],
                      vowels=face.values, deck=deck, points_card=face.face)
        return begin(self, ctx, RULES, setup, setup.players, stage=Revealing())[1]

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

    def _known(self, word: str) -> bool | None:
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

    def _options(self, play: Game, slot: int) -> tuple[str, ...]:
        """The fix stage's choices for the word of player `slot`: its prefixes, longest first — only those
        the word list knows once it has answered about all of them (R3), else all."""
        entry = play.entry(play.revealed, self.players[slot])
        if entry is None:
            return ()
        prefixes = shortenings(entry.current, play.max_length(play.revealed))
        if any(self._known(p) is None for p in prefixes):
            return prefixes
        return shortenings(entry.current, play.max_length(play.revealed),
                           Lexicon.of(word for word, known in self.checked if known))

    def _open_fields(self, play: Game) -> tuple[str, ...]:
        marks = field_marks(play)[self.players[0]]
        return tuple(f for f, m in marks.items() if m.mark is Mark.OPEN)


Flow = PerfektesWortFlow  # short, for the handlers below (not `core.flow.Flow`, the protocol it meets)


# --- what each stage does with an event -------------------------------------------------------------


def _seating(flow: Flow, stage: SeatPick, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER):
        return Outcome(replace(flow, stage=SidePick(stage.picks)))
    refused = refusal(event.text, NAME) if isinstance(event, TextEntry) else None
    if refused is not None:  # a typed name that is none (too long): the reason in the footer
        return refuse(replace(flow, message=refused.text(ctx.lang)), ctx)
    moved = flow.seats.handle(event)
    return refuse(flow, ctx) if moved is None else Outcome(replace(flow, seats=moved))


def _pick(flow: Flow, stage: SidePick | FacePick | DeckPick, event: Event, ctx: Ctx) -> Outcome:
    if isinstance(event, Turn | Press) and not is_press(event, Button.START, Button.ENCODER):
        steps = event.steps if isinstance(event, Turn) else 1 if event.button is Button.NEXT else 0
        if steps:
            return Outcome(replace(flow, stage=stage.moved(stage.index + steps)))
    faces = DEFAULT_DATA.faces
    if isinstance(stage, FacePick) and is_hold(event, Button.START):
        drawn = random.Random(seed_of(ctx.now)).randrange(len(faces))
        return Outcome(replace(flow, stage=stage.moved(drawn), message=t(ctx.lang, "drawn", face=faces[drawn].face)))
    if isinstance(stage, FacePick) and isinstance(event, TextEntry):
        match = _FACE_TYPED.match(event.text)
        names = [f.face for f in faces]
        if match and match.group(1).lower() in names:
            return Outcome(replace(flow, stage=stage.moved(names.index(match.group(1).lower()))))
        return refuse(replace(flow, message=t(ctx.lang, "no_text")), ctx)
    if not is_press(event, Button.START, Button.ENCODER):
        return refuse(flow, ctx)
    if isinstance(stage, SidePick):
        return Outcome(replace(flow, stage=FacePick(stage.picks)))
    if isinstance(stage, FacePick):
        return Outcome(replace(flow, stage=DeckPick(stage.picks)))
    if DECKS[stage.picks.deck] == "cards":
        return Outcome(replace(flow, stage=Scanning(stage.picks)))
    return flow._begin(stage.picks, Deck.shuffled(DEFAULT_DATA.deck, seed_of(ctx.now)).draw, ctx)


def _scanning(flow: Flow, stage: Scanning, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER):  # the rest of the cards come round by round
        return flow._begin(stage.picks, stage.scanned, ctx)
    card = _card_of(event, ctx)
    if not isinstance(card, LetterCard):
        return refuse(replace(flow, message=card), ctx)
    scanned = (*stage.scanned, card)
    if len(scanned) < ROUNDS + 1:
        return Outcome(replace(flow, stage=replace(stage, scanned=scanned)))
    return flow._begin(stage.picks, scanned, ctx)


def _revealing(flow: Flow, stage: Revealing | Standing, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.NEXT, Button.START, Button.ENCODER):
        if play.revealed == ROUNDS:
            return flow._final(play, ctx)
        return flow._enter(ctx, (Reveal(play.revealed + 1),), Calling())
    if isinstance(event, CardScan | TextEntry):
        if play.revealed == ROUNDS or _cards_wanted(play) == 0:
            return refuse(replace(flow, message=t(ctx.lang, "card_not_needed")), ctx)
        card = _card_of(event, ctx)
        if not isinstance(card, LetterCard):
            return refuse(replace(flow, message=card), ctx)
        if _cards_wanted(play) > 1:  # one more is needed before this round can begin
            return flow._enter(ctx, (Card(card),), Revealing())
        return flow._enter(ctx, (Card(card), Reveal(play.revealed + 1)), Calling())
    return refuse(flow, ctx)


def _calling(flow: Flow, stage: Calling, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER):
        return Outcome(replace(flow, stage=Timing(), drafts=()), timer=StartTimer(ROUND_SECONDS))
    return refuse(flow, ctx)


def _timing(flow: Flow, stage: Timing, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER):
        return flow._pens_down(ctx, ResetTimer())
    return refuse(flow, ctx)


def _entering(flow: Flow, stage: Entering, play: Game, event: Event, ctx: Ctx) -> Outcome:
    if not isinstance(event, TextEntry):
        return refuse(flow, ctx)
    word = Word(play.revealed, flow.players[stage.slot], event.text.strip())
    return _entered(flow._enter(ctx, (word,), Flow._next_entry))


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
    options = flow._options(play, stage.slot)
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
        if play.solo and play.revealed < ROUNDS and flow._open_fields(play):
            return Outcome(replace(flow, stage=SoloStriking()))
        return Outcome(replace(flow, stage=Standing()))
    return refuse(flow, ctx)


def _solo_striking(flow: Flow, stage: SoloStriking, play: Game, event: Event, ctx: Ctx) -> Outcome:
    fields = flow._open_fields(play)
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


SETUP_HANDLERS: dict[type, Callable[[Flow, Any, Event, Ctx], Outcome]] = {
    SeatPick: _seating, SidePick: _pick, FacePick: _pick, DeckPick: _pick, Scanning: _scanning,
}
HANDLERS: dict[type, Callable[[Flow, Any, Game, Event, Ctx], Outcome]] = {
    Revealing: _revealing, Standing: _revealing, Calling: _calling, Timing: _timing, Entering: _entering,
    Reviewing: _reviewing, Fixing: _fixing, Points: _points, SoloStriking: _solo_striking,
}


# --- what each stage shows ----------------------------------------------------------------------------


def _seating_screen(flow: Flow, stage: SeatPick, ctx: Ctx) -> Screen:
    return flow.seats.screen(ctx.lang, TITLE.get(ctx.lang, TITLE["de"]), flow.message)


def _pick_screen(flow: Flow, stage: _Pick, ctx: Ctx) -> Screen:
    lang, index = ctx.lang, stage.index
    if isinstance(stage, SidePick):
        items = tuple(ListItem(DEFAULT_DATA.sheets[s].title, "", i == index) for i, s in enumerate(SIDES))
        return ListScreen(t(lang, "side_title"), items, index, flow.message or t(lang, "hint_pick"))
    if isinstance(stage, FacePick):
        items = tuple(
            ListItem(f.face, " ".join(f"{v}{n}" for v, n in f.values.items()), i == index)
            for i, f in enumerate(DEFAULT_DATA.faces)
        )
        return ListScreen(t(lang, "face_title"), items, index, flow.message or t(lang, "hint_face"))
    items = tuple(ListItem(t(lang, f"deck_{d}"), "", i == index) for i, d in enumerate(DECKS))
    return ListScreen(t(lang, "deck_title"), items, index, flow.message or t(lang, "hint_pick"))


def _scanning_screen(flow: Flow, stage: Scanning, ctx: Ctx) -> Screen:
    lines = (t(ctx.lang, "scan_lines"), " ".join(c.code for c in stage.scanned[-3:]))
    return MessageScreen(t(ctx.lang, "scan_title", n=len(stage.scanned), need=ROUNDS + 1), lines, flow.message)


def _card_hint(play: Game, lang: str) -> str | None:
    """The footer asking for the next card when the deck lacks it for the next round; else None."""
    if play.revealed < ROUNDS and _cards_wanted(play):
        return t(lang, "hint_card", n=len(play.setup.deck) + 1)
    return None


def _revealing_screen(flow: Flow, stage: Revealing, ctx: Ctx) -> Screen:
    play, lang = _play(flow), ctx.lang
    return BigScreen(t(lang, "reveal_title", round=play.revealed + 1), t(lang, "reveal_big"),
                     flow.message or _card_hint(play, lang) or t(lang, "hint_reveal"))


def _calling_screen(flow: Flow, stage: Calling | Timing, ctx: Ctx) -> Screen:
    play, lang = _play(flow), ctx.lang
    rnd = play.revealed
    title = t(lang, "call_title", round=rnd, length=play.max_length(rnd))
    if isinstance(stage, Calling):  # the big view: the card as it looks, letter and longest length
        return BigScreen(title, f"{play.letter(rnd)} {play.max_length(rnd)}", flow.message or t(lang, "hint_call"))
    big = f"{play.letter(rnd)}  {format_seconds(ctx.timer_left)}"
    drafts = t(lang, "hint_drafts", n=len(flow.drafts), count=len(flow.players)) if flow.drafts else ""
    return BigScreen(title, big, flow.message or drafts or t(lang, "hint_timing"))


def _entering_screen(flow: Flow, stage: Entering, ctx: Ctx) -> Screen:
    play, lang = _play(flow), ctx.lang
    rnd = play.revealed
    title = t(lang, "entry_title", player=flow.players[stage.slot], round=rnd)
    lines = (t(lang, "entry_lines", letter=play.letter(rnd), length=play.max_length(rnd)), t(lang, "hint_entry"))
    return MessageScreen(title, lines, flow.message)


def _reviewing_screen(flow: Flow, stage: Reviewing, ctx: Ctx) -> Screen:
    play, lang, footer = _play(flow), ctx.lang, flow.message
    items = tuple(ListItem(p, _status(flow, play, p, lang)) for p in flow.players)
    entry = play.entry(play.revealed, flow.players[stage.slot])
    if not footer and entry is not None and flow._known(entry.current) is False and not entry.struck:
        footer = f"{entry.current}: {t(lang, 'unknown_word')}"  # the row's value may be cut short
    return ListScreen(t(lang, "review_title", round=play.revealed), items, stage.slot,
                      footer or t(lang, "hint_review"))


def _fixing_screen(flow: Flow, stage: Fixing, ctx: Ctx) -> Screen:
    play, lang = _play(flow), ctx.lang
    entry = play.entry(play.revealed, flow.players[stage.slot])
    word = entry.current if entry else ""
    options = flow._options(play, stage.slot)
    items = (*(ListItem(p, str(len(p))) for p in options), ListItem(t(lang, "strike_option")))
    title = t(lang, "fix_title", player=flow.players[stage.slot], word=word)
    return ListScreen(title, items, stage.choice % len(items), flow.message or t(lang, "hint_fix"))


def _solo_striking_screen(flow: Flow, stage: SoloStriking, ctx: Ctx) -> Screen:
    items = tuple(ListItem(f) for f in flow._open_fields(_play(flow)))
    return ListScreen(t(ctx.lang, "solo_title"), items, stage.choice % max(1, len(items)),
                      flow.message or t(ctx.lang, "hint_solo"))


def _points_screen(flow: Flow, stage: Points, ctx: Ctx) -> Screen:
    play, lang = _play(flow), ctx.lang
    rnd = play.revealed
    rows = [ListItem(f"{p.name} {p.rows[rnd - 1].word or t(lang, 'no_word')}", str(p.rows[rnd - 1].points))
            for p in score(play).players]
    rows += _field_items(flow, play, rnd, lang)
    rows += best_items(flow, rnd, lang)
    return ListScreen(t(lang, "points_title", round=rnd), tuple(rows), None, flow.message or t(lang, "hint_points"))


def _standing_screen(flow: Flow, stage: Standing, ctx: Ctx) -> Screen:
    play, lang = _play(flow), ctx.lang
    rnd = play.revealed
    items = tuple(ListItem(p.name, str(p.total), p.winner) for p in score(play).players)
    hint = _card_hint(play, lang) or t(lang, "hint_board" if rnd < ROUNDS else "hint_board_last")
    return ListScreen(t(lang, "board_title", round=rnd), items, None, flow.message or hint)


def _final_screen(flow: Flow, stage: Final, ctx: Ctx) -> Screen:
    play, lang, footer = _play(flow), ctx.lang, flow.message
    if stage.listing:
        items = tuple(ListItem(t(lang, "hs_row", place=i, name=h.name), str(h.total), i == stage.place)
                      for i, h in enumerate(stage.best, start=1))
        return ListScreen(t(lang, "hs_title", side=play.setup.sheet.title), items, None, footer or t(lang, "hint_hs"))
    result = score(play)
    ranked = sorted(result.players, key=lambda p: (p.rank, flow.players.index(p.name)))
    items = tuple(
        ListItem(t(lang, "final_row", rank=p.rank, name=p.name, word=p.word_points, vowel=p.vowels.points,
                   bonus=p.bonus_points), t(lang, "final_value", total=p.total), p.winner)
        for p in ranked
    )
    if flow.reveal == "end" and flow.best:
        from .best_word import reveal_text

        items = (*items, *(ListItem(t(lang, "best_round", round=b.round, word=word or "—", points=points))
                           for b in flow.best for _, word, points in reveal_text(b.best, play.solo)[:1]),
                 ListItem(t(lang, "best_source", source=flow.best[0].source)))
    title = t(lang, "final_shared" if result.shared else "final_title", names=", ".join(result.winners))
    if play.solo:
        placed = t(lang, "hs_place", place=stage.place) if stage.place else t(lang, "hs_missed")
        return ListScreen(title, (*items, ListItem(placed)), None, footer or t(lang, "hint_final_solo"))
    return ListScreen(title, items, None, footer or t(lang, "hint_final"))


SCREENS: dict[type, Callable[[Flow, Any, Ctx], Screen]] = {
    SeatPick: _seating_screen, SidePick: _pick_screen, FacePick: _pick_screen, DeckPick: _pick_screen,
    Scanning: _scanning_screen, Revealing: _revealing_screen, Calling: _calling_screen, Timing: _calling_screen,
    Entering: _entering_screen, Reviewing: _reviewing_screen, Fixing: _fixing_screen, Points: _points_screen,
    SoloStriking: _solo_striking_screen, Standing: _standing_screen, Final: _final_screen,
}


# --- helpers -------------------------------------------------------------------------------------------


def _reveal_best(play: Game, rnd: int) -> RevealBest:
    """Ask the German word list for the perfect word of round `rnd` (as the game stands now)."""
    return RevealBest("de", rnd, partial(_reveal_lines, play, rnd))


def _reveal_lines(play: Game, rnd: int, lists: WordGroups) -> Revealed:
    """`best_word.reveal_lines`, loaded when the shell asks it: a replay and the first frame need no solver."""
    from .best_word import reveal_lines

    return reveal_lines(play, rnd, lists)


def best_items(flow: Flow, rnd: int, lang: str) -> list[ListItem]:
    """The perfect word of round `rnd` once the word list answered; nothing before (or without a list)."""
    found = next((b for b in flow.best if b.round == rnd), None)
    if found is None:
        return []
    from .best_word import reveal_text

    items = []
    for key, word, points in reveal_text(found.best, _play(flow).solo):
        if not word:
            items.append(ListItem(t(lang, "best_none")))
        elif key == "all":
            items.append(ListItem(t(lang, "best_all", word=word, points=points)))
        elif key.startswith("solo:"):
            items.append(ListItem(t(lang, "best_solo", own=key[5:], word=word, points=points)))
        else:
            items.append(ListItem(t(lang, "best_for", player=key, word=word, points=points)))
    return [*items, ListItem(t(lang, "best_source", source=found.source))]


def _play(flow: Flow) -> Game:
    assert flow.played is not None, "a round's stage has a game in play"
    return flow.played.game


def _status(flow: Flow, play: Game, player: str, lang: str) -> str:
    entry = play.entry(play.revealed, player)
    if entry is None or not entry.written:
        return t(lang, "no_word")
    if entry.struck:
        return f"{entry.written} {t(lang, 'struck')}"
    shown = entry.written if entry.kept is None else f"{entry.written}→{entry.current}"
    if len(entry.current) > play.max_length(play.revealed):
        return f"{shown} {t(lang, 'too_long')}"
    if entry.invalid:
        return f"{shown} {t(lang, 'invalid')}"
    if flow._known(entry.current) is False:
        return f"{shown} {t(lang, 'unknown_word')}"
    return shown


def _field_items(flow: Flow, play: Game, rnd: int, lang: str) -> list[ListItem]:
    """The bonus fields marked in round `rnd`: who circled each, who struck it."""
    marks = field_marks(play)
    items: list[ListItem] = []
    for field in play.setup.sheet.bonus_fields:
        circled = [p for p in flow.players if marks[p][field].mark is Mark.CIRCLED and marks[p][field].round == rnd]
        struck = [p for p in flow.players if marks[p][field].mark is Mark.STRUCK and marks[p][field].round == rnd]
        if circled:
            items.append(ListItem(t(lang, "circled", field=field), ", ".join(circled)))
        if struck and circled:
            items.append(ListItem(t(lang, "struck_field", field=field), ", ".join(struck)))
    return items


def _cards_wanted(play: Game) -> int:
    """How many cards the deck still lacks for the next round to begin (its length and its letter)."""
    return max(0, play.revealed + 2 - len(play.setup.deck))


def _card_of(event: Event, ctx: Ctx) -> LetterCard | str:
    """The letter card a scan (looked up in the enrolled table, face like "B/7") or a typed "B7" names;
    else the reason, for the footer."""
    if isinstance(event, CardScan):
        face = ctx.cards.get(GAME_ID, {}).get(event.code.strip())
        if face is None:
            return t(ctx.lang, "unknown_card", code=event.code.strip())
        code = face.replace("/", "")
    elif isinstance(event, TextEntry):
        code = event.text.replace("/", "").replace(" ", "")
    else:
        return t(ctx.lang, "no_text")
    try:
        return card_from_code(code, "")  # no key: the table reads only why
    except DataError as exc:
        return exc.text(ctx.lang)


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


def new(ctx: Ctx, names: tuple[str, ...]) -> PerfektesWortFlow:
    """The flow at its setup: the seats from the configured names."""
    return PerfektesWortFlow(Seats.of(names, ctx.lang, 1, MAX_PLAYERS), reveal=ctx.reveal)
