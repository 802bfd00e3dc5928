"""Perfect Words at the table (RULES.md §3, docs/perfect-words.md): the `Flow` from setup to the rank.

Stages, in order:
- `Seating`: 2–6 players (`seats.Seats`), START begins;
- `Arrows` (optional phase 1): a typed line "Dschungel Piraten" places the next arrow with these clue
  words; "3 Schatz Insel Sonne" sets arrow 3's clue words anew; NEXT goes on to the terms once the grid
  is complete (with no arrow placed: phase 1 is skipped);
- `Terms`: per player, arrow 1…10, a typed term (NEXT leaves it empty; a long NEXT ends this player's
  terms: arrow 1 of the next player who has written nothing yet, else the choice — when the phones wrote
  the terms, every player has, so the box's long NEXT goes on to the choice).
  A term sharing 4+ letters with a clue word is kept and warned in the footer; a long START strikes it;
- `Choosing`: Turn/NEXT picks an arrow, START marks the doubled one, then the ignored one; START reveals;
- `Revealing`: arrow by arrow, the groups of equal terms and their sizes; START selects a group, START
  on a second group merges the two; NEXT goes to the next arrow, after arrow 10 to the total;
- `Final`: total and rank (a celebration beep); START or BACK leaves the game.
BACK undoes the last entry (`Played.undo`: the record line is retracted and the game rebuilt).
`PerfectWordsFlow.STAGES` (at the end) is the transitions table: each stage type's handler, screen and typed line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

import firmware_host.core.games.perfect_words.rules as pw
from firmware_host.core.effects import Beep, EndGame
from firmware_host.core.events import Button, Event, TextEntry, Turn
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.perfect_words.clues import term_warnings
from firmware_host.core.games.perfect_words.scoring import score
from firmware_host.core.i18n import pick
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.played import SEATING, PagedFlow, PhonePage, Played, StageRow, enter
from firmware_host.core.table.seats import Seating, Seats, cursor_step, is_hold, is_press, refuse
from firmware_host.core.table.seats import t as seats_text
from firmware_host.core.text_field import TextField

from . import page as phones
from .clues import arrow_event
from .ids import GAME_ID, TITLE
from .record import RULES
from .stages import Arrows, Choosing, Final, Revealing, Stage, Terms
from .text import t

_MARKS = {"double": " ×2", "ignore": " –"}

PlayedWords = Played[pw.Setup, pw.Game, pw.Event]


@dataclass(frozen=True, slots=True)
class PerfectWordsFlow(PagedFlow[Stage, pw.Setup, pw.Game, pw.Event]):
    """Perfect Words at the table: the stage on screen and, from the first arrow on, the game played."""

    GAME = GAME_ID
    TITLE = TITLE
    PHONES: ClassVar[PhonePage] = phones

    # --- handling events ----------------------------------------------------------------------------

    def start_game(self, players: tuple[str, ...]) -> Outcome:
        played, effects = Played.begin(RULES, pw.Setup(players), players)
        return Outcome(replace(self, stage=Arrows(), played=played), effects)

    def _undo(self, played: PlayedWords, ctx: Ctx) -> Outcome:
        undone = t(ctx.lang, "undone")
        step = played.undo()
        if step is None:
            if not isinstance(self.stage, Arrows):  # phase 1 was skipped: go back to it
                return Outcome(replace(self, stage=Arrows(), message=undone))
            return refuse(replace(self, message=seats_text(ctx.lang, "nothing_to_undo")), ctx)
        played, last, effects = step
        stage: Stage = self.stage
        if isinstance(last, pw.PlaceArrow | pw.SetClues):
            stage = Arrows()
        elif isinstance(last, pw.WriteTerm):
            stage = Terms(self.players.index(last.player) * pw.ARROWS + last.arrow - 1)
        elif isinstance(last, pw.Strike):
            slot = self.players.index(last.player) * pw.ARROWS + last.arrow
            stage = Terms(stage.slot if isinstance(stage, Terms) else min(slot, len(self.players) * pw.ARROWS - 1))
        elif isinstance(last, pw.Choose | pw.Reveal):
            stage = Choosing()
        elif isinstance(last, pw.Merge):
            stage = Revealing(last.arrow)
        return Outcome(replace(self, stage=stage, played=played, message=undone), effects)

    def arrows(self, stage: Arrows, game: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, TextEntry):
            return enter(self, ctx, arrow_event(game, event.text))[1]
        if is_press(event, Button.NEXT):
            return self.grid_done(game, ctx)
        return refuse(self, ctx)

    def grid_done(self, game: pw.Game, ctx: Ctx) -> Outcome:
        """Phase 1 ends: on to the terms once the grid is complete (or skipped with no arrow placed)."""
        status = pw.grid_status(game)
        if game.lines and not status.complete:
            error = pw.PerfectWordsError("grid_incomplete", placed=status.placed,
                                         short=", ".join(map(str, status.short)) or "–")
            return refuse(replace(self, message=error.text(ctx.lang)), ctx)
        return Outcome(replace(self, stage=Terms()))

    def terms(self, stage: Terms, game: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        player, arrow = self.players[stage.slot // pw.ARROWS], stage.slot % pw.ARROWS + 1
        if isinstance(event, TextEntry):
            flow, outcome = enter(self, ctx, pw.WriteTerm(player, arrow, event.text.strip()))
            if flow is None:
                return outcome
            warnings = term_warnings(game, player, arrow, event.text)
            message, strikable = "", None
            if warnings:
                warning = pick(pw.TEXTS, ctx.lang, "warning", **warnings[0].as_dict())
                message, strikable = t(ctx.lang, "strike_hint", warning=warning), (player, arrow)
            after = _advance(replace(stage, strikable=strikable), len(self.players))
            return replace(outcome, flow=replace(flow, stage=after, message=message))
        if is_hold(event, Button.START) and stage.strikable is not None:
            struck_player, struck_arrow = stage.strikable
            flow, outcome = enter(self, ctx, pw.Strike(struck_player, struck_arrow))
            if flow is None:
                return outcome
            message = t(ctx.lang, "struck", player=struck_player, arrow=struck_arrow)
            return replace(outcome, flow=replace(flow, message=message))
        if is_press(event, Button.NEXT):
            return Outcome(replace(self, stage=_advance(stage, len(self.players))))
        if is_hold(event, Button.NEXT):  # this player is done: the next one who has written nothing yet
            later = self.players[stage.slot // pw.ARROWS + 1:]
            waiting = next((p for p in later if not any(term.player == p for term in game.terms)), None)
            after = Choosing() if waiting is None else Terms(self.players.index(waiting) * pw.ARROWS)
            return Outcome(replace(self, stage=after))
        return refuse(self, ctx)

    def choose(self, stage: Choosing, game: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if game.double is not None:  # chosen: the next step is the reveal
            if is_press(event, Button.START, Button.ENCODER):
                flow, outcome = enter(self, ctx, pw.Reveal())
                return outcome if flow is None else replace(outcome, flow=replace(flow, stage=Revealing()))
            return refuse(self, ctx)
        step = cursor_step(event)
        if step is not None:
            return Outcome(replace(self, stage=replace(stage, cursor=(stage.cursor + step) % pw.ARROWS)))
        if is_press(event, Button.START, Button.ENCODER):
            if stage.first is None:
                return Outcome(replace(self, stage=replace(stage, first=stage.cursor)))
            flow, outcome = enter(self, ctx, pw.Choose(stage.first + 1, stage.cursor + 1))
            return outcome if flow is None else replace(outcome, flow=replace(flow, stage=replace(stage, first=None)))
        return refuse(self, ctx)

    def reveal(self, stage: Revealing, game: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        groups = score(game).arrows[stage.arrow - 1].groups
        if isinstance(event, Turn) and groups:
            return Outcome(replace(self, stage=replace(stage, cursor=(stage.cursor + event.steps) % len(groups))))
        if is_hold(event, Button.NEXT) and groups:
            return Outcome(replace(self, stage=replace(stage, cursor=(stage.cursor + 1) % len(groups))))
        if is_press(event, Button.NEXT):
            if stage.arrow < pw.ARROWS:
                return Outcome(replace(self, stage=Revealing(stage.arrow + 1)))
            return Outcome(replace(self, stage=Final()), (Beep("celebrate", ctx.volume),))
        if is_press(event, Button.START, Button.ENCODER) and groups:
            if stage.first is None or stage.first == stage.cursor:
                first = None if stage.first == stage.cursor else stage.cursor
                term = _shown(game, stage.arrow, groups[stage.cursor].terms[0])
                message = t(ctx.lang, "selected", term=term) if first is not None else ""
                return Outcome(replace(self, stage=replace(stage, first=first), message=message))
            terms = tuple(_shown(game, stage.arrow, groups[i].terms[0]) for i in (stage.first, stage.cursor))
            flow, outcome = enter(self, ctx, pw.Merge(stage.arrow, terms))
            if flow is None:
                return outcome
            message = t(ctx.lang, "merged", terms=" = ".join(terms))
            return replace(outcome, flow=replace(flow, stage=Revealing(stage.arrow), message=message))
        return refuse(self, ctx)


# --- the stages of the game played: BACK, typed lines, and what each shows ------------------------------


def _in_play(handler: Callable[..., Outcome]) -> Callable[..., Outcome]:
    """A stage of the game played: BACK drops a half-made choice, else undoes the last entry; a typed line
    only where terms or clue words are typed; anything else `handler(flow, stage, game, event, ctx)`."""

    def handle(flow: PerfectWordsFlow, stage: Stage, event: Event, ctx: Ctx) -> Outcome:
        plain = replace(flow, message="", stage=replace(stage, strikable=None) if isinstance(stage, Terms) else stage)
        played = flow.played
        assert played is not None
        if is_press(event, Button.BACK):
            if isinstance(stage, Choosing | Revealing) and stage.first is not None:
                return Outcome(replace(plain, stage=replace(stage, first=None)))
            return plain._undo(played, ctx)
        if isinstance(event, TextEntry) and not isinstance(stage, Arrows | Terms):
            return refuse(replace(flow, message=t(ctx.lang, "no_text")), ctx)
        return handler(plain, stage, played.game, event, ctx)

    return handle


def _final(flow: PerfectWordsFlow, stage: Final, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.BACK, Button.ENCODER):
        return Outcome(None, (EndGame(", ".join(flow.players)),))
    return refuse(flow, ctx)


def _game(flow: PerfectWordsFlow) -> pw.Game:
    assert flow.played is not None, "a stage after the setup has a game in play"
    return flow.played.game


def _arrows_screen(flow: PerfectWordsFlow, stage: Arrows, ctx: Ctx) -> Screen:
    lang, game = ctx.lang, _game(flow)
    placed = len(game.lines)
    big = t(lang, "arrow", arrow=placed + 1) if placed < pw.ARROWS else t(lang, "grid_done")
    return BigScreen(t(lang, "phase1", placed=placed), big, flow.message or t(lang, "hint_arrows"))


def _arrows_field(flow: PerfectWordsFlow, stage: Arrows, ctx: Ctx) -> TextField:
    """Clue words while the grid is laid."""
    return TextField(t(ctx.lang, "clues_field", arrow=min(len(_game(flow).lines) + 1, pw.ARROWS)), "text")


def _terms_screen(flow: PerfectWordsFlow, stage: Terms, ctx: Ctx) -> Screen:
    lang = ctx.lang
    player, arrow = flow.players[stage.slot // pw.ARROWS], stage.slot % pw.ARROWS + 1
    clues = _game(flow).clues(arrow)
    lines = ((t(lang, "clues", clues=" · ".join(clues)),) if clues else ()) + (t(lang, "hint_terms"),)
    return MessageScreen(t(lang, "terms_title", player=player, arrow=arrow), lines, flow.message)


def _terms_field(flow: PerfectWordsFlow, stage: Terms, ctx: Ctx) -> TextField:
    """A player's term for an arrow."""
    player, arrow = flow.players[stage.slot // pw.ARROWS], stage.slot % pw.ARROWS + 1
    return TextField(t(ctx.lang, "terms_title", player=player, arrow=arrow), "word")


def _choosing_screen(flow: PerfectWordsFlow, stage: Choosing, ctx: Ctx) -> Screen:
    lang, game = ctx.lang, _game(flow)
    if game.double is not None:
        lines = (t(lang, "chosen", double=game.double, ignore=game.ignore), t(lang, "hint_reveal_start"))
        return MessageScreen(t(lang, "reveal_title"), lines, flow.message)
    items = tuple(
        ListItem(t(lang, "arrow", arrow=i + 1), t(lang, "double_mark") if i == stage.first else "",
                 i == stage.first)
        for i in range(pw.ARROWS)
    )
    title = t(lang, "pick_double" if stage.first is None else "pick_ignore")
    return ListScreen(title, items, stage.cursor, flow.message or t(lang, "hint_choose"))


def _revealing_screen(flow: PerfectWordsFlow, stage: Revealing, ctx: Ctx) -> Screen:
    lang, game = ctx.lang, _game(flow)
    shown = score(game).arrows[stage.arrow - 1]
    items = tuple(
        ListItem(" = ".join(_shown(game, stage.arrow, k) for k in g.terms), str(len(g.players)),
                 i == stage.first)
        for i, g in enumerate(shown.groups)
    ) or (ListItem(t(lang, "none")),)
    title = t(lang, "reveal", arrow=stage.arrow, mark=_MARKS.get(shown.role, ""), points=shown.points)
    return ListScreen(title, items, stage.cursor if shown.groups else None, flow.message or t(lang, "hint_reveal"))


def _final_screen(flow: PerfectWordsFlow, stage: Final, ctx: Ctx) -> Screen:
    lang, standing = ctx.lang, score(_game(flow))
    rank = standing.rank.name(lang) if standing.rank else pick(pw.TEXTS, lang, "rank.none")
    # every arrow's points in one hint-like line ("Pfeil 1 ×2: 4 · 2: 0 · …"): three pages at most
    parts = [f"{a.arrow}{_MARKS.get(a.role, '')}: {a.points}" for a in standing.arrows]
    if parts:
        parts[0] = f"{t(lang, 'arrow', arrow=parts[0])}"
    return MessageScreen(t(lang, "total", total=standing.total, rank=rank), (" · ".join(parts),),
                         flow.message or t(lang, "hint_final"))


PerfectWordsFlow.STAGES = {
    Seating: SEATING,
    Arrows: StageRow(_in_play(PerfectWordsFlow.arrows), _arrows_screen, _arrows_field),
    Terms: StageRow(_in_play(PerfectWordsFlow.terms), _terms_screen, _terms_field),
    Choosing: StageRow(_in_play(PerfectWordsFlow.choose), _choosing_screen),
    Revealing: StageRow(_in_play(PerfectWordsFlow.reveal), _revealing_screen),
    Final: StageRow(_final, _final_screen),
}


def _advance(stage: Terms, players: int) -> Stage:
    """The next term to enter, or the choice after the last player's last arrow."""
    slot = stage.slot + 1
    return Choosing() if slot >= players * pw.ARROWS else replace(stage, slot=slot)



def _shown(game: pw.Game, arrow: int, key: str) -> str:
    """A term as written for a group's normalised form `key` (the first player's spelling)."""
    return next((term.text for term in game.terms if term.arrow == arrow and term.key == key), key)


def new(ctx: Ctx, names: tuple[str, ...]) -> PerfectWordsFlow:
    return PerfectWordsFlow(Seating(Seats.of(names, ctx.lang, pw.MIN_PLAYERS, pw.MAX_PLAYERS, ctx.people)))
