"""Perfect Words at the table (RULES.md §3, docs/perfect-words.md): the `Flow` from setup to the rank.

Stages, in order:
- setup: 2–6 players (`seats.Seats`), START begins;
- arrows (optional phase 1): a typed line "Dschungel Piraten" places the next arrow with these clue
  words; "3 Schatz Insel Sonne" sets arrow 3's clue words anew; NEXT goes on to the terms once the grid
  is complete (with no arrow placed: phase 1 is skipped);
- terms: per player, arrow 1…10, a typed term (NEXT leaves it empty; a long NEXT goes on to the choice).
  A term sharing 4+ letters with a clue word is kept and warned in the footer; a long START strikes it;
- choose: Turn/NEXT picks an arrow, START marks the doubled one, then the ignored one; START reveals;
- reveal: arrow by arrow, the groups of equal terms and their sizes; START selects a group, START on a
  second group merges the two; NEXT goes to the next arrow, after arrow 10 to the total;
- final: total and rank (a celebration beep); START or BACK leaves the game.
BACK undoes the last entry (the record line is retracted and the game rebuilt from the rest).
Every entry is a record line of the game's record format, applied through the rules core's parser.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core.effects import Beep, BeginGame, EndGame, Record, Retract
from firmware_host.core.events import Button, Event, TextEntry, Turn
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games import perfect_words as pw
from firmware_host.core.games.kit import GameKit
from firmware_host.core.games.table_rules import RuleError, apply_lines
from firmware_host.core.i18n import pick
from firmware_host.core.record import RecordLine
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.seats import Seats, is_hold, is_press, refuse
from firmware_host.core.table.seats import t as seats_text

TITLE = {"de": "Perfect Words", "en": "Perfect Words"}

TEXT = {
    "de": {
        "phase1": "Phase 1 · {placed}/10 Pfeile",
        "arrow": "Pfeil {arrow}",
        "grid_done": "Gitter fertig",
        "hint_arrows": "Hinweiswörter tippen · NEXT weiter",
        "terms_title": "{player} – Pfeil {arrow}",
        "clues": "Hinweise: {clues}",
        "hint_terms": "Begriff tippen · NEXT leer · lang NEXT: fertig",
        "strike_hint": "{warning} – lang START: streichen",
        "struck": "gestrichen: {player}, Pfeil {arrow}",
        "pick_double": "Welcher Pfeil zählt doppelt?",
        "pick_ignore": "Welcher Pfeil zählt nicht?",
        "hint_choose": "Drehen/NEXT wählen · START ok",
        "double_mark": "×2",
        "ignore_mark": "–",
        "reveal_title": "Aufdecken",
        "chosen": "×2: Pfeil {double} · –: Pfeil {ignore}",
        "hint_reveal_start": "START: aufdecken",
        "reveal": "Pfeil {arrow}{mark}: {points} P",
        "hint_reveal": "START 2 Gruppen zusammen · NEXT weiter",
        "selected": "gewählt: {term} – START auf die zweite Gruppe",
        "merged": "zusammengelegt: {terms}",
        "none": "(keine Begriffe)",
        "total": "{total} Punkte – {rank}",
        "hint_final": "START/BACK Ende",
        "undone": "Rückgängig",
        "no_text": "Hier ist keine Eingabe möglich",
    },
    "en": {
        "phase1": "Phase 1 · {placed}/10 arrows",
        "arrow": "Arrow {arrow}",
        "grid_done": "Grid done",
        "hint_arrows": "type clue words · NEXT goes on",
        "terms_title": "{player} – arrow {arrow}",
        "clues": "Clues: {clues}",
        "hint_terms": "type the term · NEXT empty · hold NEXT: done",
        "strike_hint": "{warning} – hold START: strike",
        "struck": "struck: {player}, arrow {arrow}",
        "pick_double": "Which arrow scores double?",
        "pick_ignore": "Which arrow does not score?",
        "hint_choose": "Turn/NEXT pick · START ok",
        "double_mark": "×2",
        "ignore_mark": "–",
        "reveal_title": "Reveal",
        "chosen": "×2: arrow {double} · –: arrow {ignore}",
        "hint_reveal_start": "START: reveal",
        "reveal": "Arrow {arrow}{mark}: {points} p",
        "hint_reveal": "START merge 2 groups · NEXT on",
        "selected": "selected: {term} – START on the second group",
        "merged": "merged: {terms}",
        "none": "(no terms)",
        "total": "{total} points – {rank}",
        "hint_final": "START/BACK leave",
        "undone": "Undone",
        "no_text": "No typing here",
    },
}

_SET_CLUES = re.compile(r"^\s*(\d{1,2})\s+(\S.*)$")


def _t(lang: str, key: str, **fields: object) -> str:
    return pick(TEXT, lang, key, **fields)


def rebuild(players: tuple[str, ...], lines: tuple[Mapping[str, Any], ...]) -> pw.Game:
    """The game the setup and these record lines stand for (each line was accepted when entered)."""
    return apply_lines(pw.new_game(pw.Setup(players)), lines, pw.parse_line, pw.apply)


@dataclass(frozen=True, slots=True)
class PerfectWordsFlow:
    """Perfect Words at the table. `seats` is set during setup; afterwards `play` is the rules core's
    state for the setup and `lines` (the record lines entered since, oldest first)."""

    seats: Seats | None
    players: tuple[str, ...] = ()
    lines: tuple[Mapping[str, Any], ...] = ()
    play: pw.Game | None = None
    stage: str = "arrows"  # arrows | terms | choose | reveal | final
    slot: int = 0  # terms: player index × 10 + arrow index
    cursor: int = 0  # choose: the arrow index; reveal: the group index
    first: int | None = None  # choose: the doubled arrow's index; reveal: the first selected group
    arrow: int = 1  # reveal: the arrow on screen
    strikable: tuple[str, int] | None = None  # the term just entered, warned by P2
    message: str = ""

    @property
    def game(self) -> str:
        return pw.GAME_ID

    # --- handling events ----------------------------------------------------------------------------

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        flow = replace(self, message="", strikable=None)
        if self.seats is not None:
            return flow._setup(self.seats, event, ctx)
        play = self.play
        assert play is not None
        if self.stage == "final":
            if is_press(event, Button.START, Button.BACK, Button.ENCODER):
                return Outcome(None, (EndGame(", ".join(self.players)),))
            return refuse(self, ctx)
        if is_press(event, Button.BACK):
            if self.first is not None:
                return Outcome(replace(flow, first=None))
            return flow._undo(play, ctx)
        if isinstance(event, TextEntry) and self.stage not in ("arrows", "terms"):
            return refuse(replace(self, message=_t(ctx.lang, "no_text")), ctx)
        if self.stage == "arrows":
            return flow._arrows(play, event, ctx)
        if self.stage == "terms":
            return flow._terms(play, event, ctx, self.strikable)
        if self.stage == "choose":
            return flow._choose(play, event, ctx)
        return flow._reveal(play, event, ctx)

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(self)

    def _setup(self, seats: Seats, event: Event, ctx: Ctx) -> Outcome:
        if is_press(event, Button.BACK):
            return Outcome(None)
        if is_press(event, Button.START, Button.ENCODER):
            players = seats.players
            try:
                game = pw.new_game(pw.Setup(players))
            except RuleError as exc:
                return refuse(replace(self, message=exc.text(ctx.lang)), ctx)
            line = {"event": "setup", "players": list(players)}
            flow = replace(self, seats=None, players=players, play=game)
            return Outcome(flow, (BeginGame(pw.GAME_ID, players), Record(line)))
        moved = seats.handle(event)
        if moved is None:
            return refuse(self, ctx)
        return Outcome(replace(self, seats=moved))

    def _enter(self, line: dict[str, Any], ctx: Ctx) -> tuple[PerfectWordsFlow, Outcome]:
        """Apply one table entry through the rules core. Returns the flow with it entered (unchanged when
        refused) and the outcome: the record line, or the refusal with the core's reason."""
        assert self.play is not None
        try:
            game = pw.apply(self.play, pw.parse_line(RecordLine(len(self.lines) + 3, line["event"], line)))
        except RuleError as exc:
            return self, refuse(replace(self, message=exc.text(ctx.lang)), ctx)
        flow = replace(self, play=game, lines=(*self.lines, line))
        return flow, Outcome(flow, (Record(line),))

    def _undo(self, play: pw.Game, ctx: Ctx) -> Outcome:
        undone = _t(ctx.lang, "undone")
        if not self.lines:
            if self.stage != "arrows":  # phase 1 was skipped: go back to it
                return Outcome(replace(self, stage="arrows", message=undone))
            return refuse(replace(self, message=seats_text(ctx.lang, "nothing_to_undo")), ctx)
        last, lines = self.lines[-1], self.lines[:-1]
        flow = replace(self, lines=lines, play=rebuild(self.players, lines), message=undone, first=None, cursor=0)
        event = last["event"]
        if event in ("arrow", "clues"):
            flow = replace(flow, stage="arrows")
        elif event == "term":
            slot = self.players.index(str(last["player"])) * pw.ARROWS + int(last["arrow"]) - 1
            flow = replace(flow, stage="terms", slot=slot)
        elif event == "strike":
            flow = replace(flow, stage="terms")
        elif event in ("choose", "reveal"):
            flow = replace(flow, stage="choose")
        elif event == "merge":
            flow = replace(flow, stage="reveal", arrow=int(last["arrow"]))
        return Outcome(flow, (Retract(),))

    def _arrows(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, TextEntry):
            match = _SET_CLUES.match(event.text)
            if match:
                line: dict[str, Any] = {"event": "clues", "arrow": int(match.group(1)),
                                        "clues": match.group(2).split()}
            else:
                line = {"event": "arrow", "arrow": len(play.lines) + 1, "clues": event.text.split()}
            return self._enter(line, ctx)[1]
        if is_press(event, Button.NEXT):
            status = pw.grid_status(play)
            if play.lines and not status.complete:
                error = pw.PerfectWordsError("grid_incomplete", placed=status.placed,
                                             short=", ".join(map(str, status.short)) or "–")
                return refuse(replace(self, message=error.text(ctx.lang)), ctx)
            return Outcome(replace(self, stage="terms", slot=0))
        return refuse(self, ctx)

    def _terms(self, play: pw.Game, event: Event, ctx: Ctx, strikable: tuple[str, int] | None) -> Outcome:
        player, arrow = self.players[self.slot // pw.ARROWS], self.slot % pw.ARROWS + 1
        if isinstance(event, TextEntry):
            line = {"event": "term", "player": player, "arrow": arrow, "term": event.text.strip()}
            flow, outcome = self._enter(line, ctx)
            if flow is self:
                return outcome
            warnings = pw.term_warnings(play, player, arrow, event.text)
            if warnings:
                warning = pick(pw.TEXTS, ctx.lang, "warning", **warnings[0].as_dict())
                flow = replace(flow, strikable=(player, arrow), message=_t(ctx.lang, "strike_hint", warning=warning))
            return replace(outcome, flow=flow._advance())
        if is_hold(event, Button.START) and strikable is not None:
            struck_player, struck_arrow = strikable
            flow, outcome = self._enter({"event": "strike", "player": struck_player, "arrow": struck_arrow}, ctx)
            message = _t(ctx.lang, "struck", player=struck_player, arrow=struck_arrow)
            return replace(outcome, flow=replace(flow, message=message, strikable=None))
        if is_press(event, Button.NEXT):
            return Outcome(self._advance())
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, stage="choose", cursor=0, first=None))
        return refuse(self, ctx)

    def _advance(self) -> PerfectWordsFlow:
        slot = self.slot + 1
        if slot >= len(self.players) * pw.ARROWS:
            return replace(self, stage="choose", cursor=0, first=None)
        return replace(self, slot=slot)

    def _choose(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if play.double is not None:  # chosen: the next step is the reveal
            if is_press(event, Button.START, Button.ENCODER):
                flow, outcome = self._enter({"event": "reveal"}, ctx)
                return replace(outcome, flow=replace(flow, stage="reveal", arrow=1, cursor=0, first=None))
            return refuse(self, ctx)
        if isinstance(event, Turn):
            return Outcome(replace(self, cursor=(self.cursor + event.steps) % pw.ARROWS))
        if is_press(event, Button.NEXT):
            return Outcome(replace(self, cursor=(self.cursor + 1) % pw.ARROWS))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, cursor=(self.cursor - 1) % pw.ARROWS))
        if is_press(event, Button.START, Button.ENCODER):
            if self.first is None:
                return Outcome(replace(self, first=self.cursor))
            line = {"event": "choose", "double": self.first + 1, "ignore": self.cursor + 1}
            flow, outcome = self._enter(line, ctx)
            return replace(outcome, flow=replace(flow, first=None) if flow is not self else outcome.flow)
        return refuse(self, ctx)

    def _reveal(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        groups = pw.score(play).arrows[self.arrow - 1].groups
        if isinstance(event, Turn) and groups:
            return Outcome(replace(self, cursor=(self.cursor + event.steps) % len(groups)))
        if is_hold(event, Button.NEXT) and groups:
            return Outcome(replace(self, cursor=(self.cursor + 1) % len(groups)))
        if is_press(event, Button.NEXT):
            if self.arrow < pw.ARROWS:
                return Outcome(replace(self, arrow=self.arrow + 1, cursor=0, first=None))
            return Outcome(replace(self, stage="final"), (Beep("celebrate", ctx.volume),))
        if is_press(event, Button.START, Button.ENCODER) and groups:
            if self.first is None or self.first == self.cursor:
                first = None if self.first == self.cursor else self.cursor
                term = _shown(play, self.arrow, groups[self.cursor].terms[0])
                message = _t(ctx.lang, "selected", term=term) if first is not None else ""
                return Outcome(replace(self, first=first, message=message))
            terms = [_shown(play, self.arrow, groups[i].terms[0]) for i in (self.first, self.cursor)]
            flow, outcome = self._enter({"event": "merge", "arrow": self.arrow, "terms": terms}, ctx)
            message = _t(ctx.lang, "merged", terms=" = ".join(terms))
            return replace(outcome, flow=replace(flow, first=None, cursor=0, message=message))
        return refuse(self, ctx)

    # --- screens ------------------------------------------------------------------------------------

    def screen(self, ctx: Ctx) -> Screen:
        lang = ctx.lang
        if self.seats is not None:
            return self.seats.screen(lang, TITLE.get(lang, TITLE["de"]), self.message)
        play = self.play
        assert play is not None
        if self.stage == "arrows":
            placed = len(play.lines)
            big = _t(lang, "arrow", arrow=placed + 1) if placed < pw.ARROWS else _t(lang, "grid_done")
            return BigScreen(_t(lang, "phase1", placed=placed), big, self.message or _t(lang, "hint_arrows"))
        if self.stage == "terms":
            player, arrow = self.players[self.slot // pw.ARROWS], self.slot % pw.ARROWS + 1
            clues = play.clues(arrow)
            lines = ((_t(lang, "clues", clues=" · ".join(clues)),) if clues else ()) + (_t(lang, "hint_terms"),)
            return MessageScreen(_t(lang, "terms_title", player=player, arrow=arrow), lines, self.message)
        if self.stage == "choose":
            if play.double is not None:
                lines = (_t(lang, "chosen", double=play.double, ignore=play.ignore), _t(lang, "hint_reveal_start"))
                return MessageScreen(_t(lang, "reveal_title"), lines, self.message)
            items = tuple(
                ListItem(_t(lang, "arrow", arrow=i + 1), _t(lang, "double_mark") if i == self.first else "",
                         i == self.first)
                for i in range(pw.ARROWS)
            )
            title = _t(lang, "pick_double" if self.first is None else "pick_ignore")
            return ListScreen(title, items, self.cursor, self.message or _t(lang, "hint_choose"))
        standing = pw.score(play)
        if self.stage == "reveal":
            score = standing.arrows[self.arrow - 1]
            mark = {"double": " ×2", "ignore": " –"}.get(score.role, "")
            items = tuple(
                ListItem(" = ".join(_shown(play, self.arrow, k) for k in g.terms), str(len(g.players)),
                         i == self.first)
                for i, g in enumerate(score.groups)
            ) or (ListItem(_t(lang, "none")),)
            title = _t(lang, "reveal", arrow=self.arrow, mark=mark, points=score.points)
            return ListScreen(title, items, self.cursor if score.groups else None,
                              self.message or _t(lang, "hint_reveal"))
        rank = standing.rank.name(lang) if standing.rank else pick(pw.TEXTS, lang, "rank.none")
        items = tuple(
            ListItem(_t(lang, "arrow", arrow=a.arrow) + {"double": " ×2", "ignore": " –"}.get(a.role, ""),
                     str(a.points))
            for a in standing.arrows
        )
        return ListScreen(_t(lang, "total", total=standing.total, rank=rank), items, None,
                          self.message or _t(lang, "hint_final"))


def _shown(play: pw.Game, arrow: int, key: str) -> str:
    """A term as written for a group's normalised form `key` (the first player's spelling)."""
    return next((t.text for t in play.terms if t.arrow == arrow and t.key == key), key)


def new(ctx: Ctx, names: tuple[str, ...]) -> PerfectWordsFlow:
    return PerfectWordsFlow(Seats.of(names, ctx.lang, pw.MIN_PLAYERS, pw.MAX_PLAYERS))


KIT = GameKit(pw.GAME_ID, TITLE, new, pw.score_record)
