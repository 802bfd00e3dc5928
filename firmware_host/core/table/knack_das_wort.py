"""Knack das Wort at the table (RULES.md §4, docs/knack-das-wort.md): the `Flow` from setup to ranking.

Setup: the players in turn order (`seats.Seats`; a long NEXT changes who starts), START begins.
Each turn shows the player on turn. A typed word scores its letters, a typed number that many letters;
NEXT: the player draws or passes; a long START plays a Stop card; START opens the actions (action
cards, going out, the end conditions; a typed line there plays an action card of that name). A long
NEXT shows the scoreboard. After the end (reported, or 50 points reached) the cards left are entered
player by player (Turn/NEXT or a typed number, START), then the final ranking; START leaves it.
BACK undoes the last entry everywhere (the record line is retracted and the game rebuilt).
Every entry is a record line of the game's record format, applied through the rules core's parser.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core.effects import Beep, BeginGame, Effect, EndGame, Record, Retract
from firmware_host.core.events import Button, Event, TextEntry, Turn
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games import knack_das_wort as kw
from firmware_host.core.games.kit import GameKit
from firmware_host.core.games.table_rules import RuleError, apply_lines
from firmware_host.core.i18n import pick
from firmware_host.core.record import RecordLine
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, Screen
from firmware_host.core.table.seats import Seats, is_hold, is_press, refuse
from firmware_host.core.table.seats import t as seats_text

TITLE = {"de": "Knack das Wort", "en": "Knack das Wort"}
MAX_SEATS = 8
CARDS = ("Stop", "Zieh 2")  # the action cards offered in the menu; any other can be typed there

TEXT = {
    "de": {
        "turn": "Zug {n} · {points} Punkte",
        "hint_turn": "Wort/Zahl tippen · NEXT zieht · START Karten",
        "tasks": "Aufgabe: {tasks}",
        "played": "gespielt: {cards}",
        "scored": "{player} +{points} → {total}",
        "drew": "{player} zieht / passt",
        "card": "{player}: {card}",
        "out": "{player} keine Karten mehr",
        "actions": "Aktionen: {player}",
        "action_card": "Karte {card}",
        "action_draw": "zieht / passt",
        "action_out": "{player}: keine Karten mehr",
        "end_discard": "Ende: Ablagestapel leer",
        "end_grid": "Ende: Tabelle voll",
        "hint_menu": "START wählen · Karte tippen · BACK zurück",
        "board": "Punkte",
        "left": "Restkarten: {player}",
        "hint_left": "Drehen/NEXT ± · Zahl tippen · START ok",
        "winner": "Gewonnen: {players}",
        "hint_final": "START Ende · BACK rückgängig",
        "undone": "Rückgängig",
        "no_text": "Hier ist keine Eingabe möglich",
        "not_count": "„{text}“ ist keine Anzahl Karten",
    },
    "en": {
        "turn": "Turn {n} · {points} points",
        "hint_turn": "type word/number · NEXT draws · START cards",
        "tasks": "Task: {tasks}",
        "played": "played: {cards}",
        "scored": "{player} +{points} → {total}",
        "drew": "{player} draws / passes",
        "card": "{player}: {card}",
        "out": "{player} has no cards left",
        "actions": "Actions: {player}",
        "action_card": "Card {card}",
        "action_draw": "draws / passes",
        "action_out": "{player}: no cards left",
        "end_discard": "End: discard pile used up",
        "end_grid": "End: grid full",
        "hint_menu": "START choose · type a card · BACK back",
        "board": "Scores",
        "left": "Cards left: {player}",
        "hint_left": "Turn/NEXT ± · type a number · START ok",
        "winner": "Winner: {players}",
        "hint_final": "START leave · BACK undo",
        "undone": "Undone",
        "no_text": "No typing here",
        "not_count": "“{text}” is not a number of cards",
    },
}

_NUMBER = re.compile(r"^\s*(\d{1,3})\s*$")


def _t(lang: str, key: str, **fields: object) -> str:
    return pick(TEXT, lang, key, **fields)


def rebuild(players: tuple[str, ...], lines: tuple[Mapping[str, Any], ...]) -> kw.Game:
    """The game the setup and these record lines stand for (each line was accepted when entered)."""
    return apply_lines(kw.new_game(kw.Setup(players)), lines, kw.parse_line, kw.apply)


@dataclass(frozen=True, slots=True)
class KnackFlow:
    """Knack das Wort at the table. `seats` is set during setup; afterwards `play` is the rules core's
    state for the setup and `lines` (the record lines entered since, oldest first)."""

    seats: Seats | None
    players: tuple[str, ...] = ()
    lines: tuple[Mapping[str, Any], ...] = ()
    play: kw.Game | None = None
    menu: int | None = None  # cursor of the open action menu
    board: bool = False  # the scoreboard is shown
    left: int = 0  # cards left being entered for the next player
    message: str = ""

    @property
    def game(self) -> str:
        return kw.GAME_ID

    # --- handling events ----------------------------------------------------------------------------

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        flow = replace(self, message="")
        if self.seats is not None:
            return flow._setup(self.seats, event, ctx)
        game = self.play
        assert game is not None
        if is_press(event, Button.BACK) and self.menu is None and not self.board:
            return flow._undo(ctx)
        if self.board:
            return Outcome(replace(flow, board=False))
        if self.menu is not None:
            return flow._menu(self.menu, game, event, ctx)
        if game.end is None:
            return flow._turn(game, event, ctx)
        if not kw.score(game).final:
            return flow._left(game, event, ctx)
        if is_press(event, Button.START, Button.ENCODER):
            return Outcome(None, (EndGame(", ".join(kw.score(game).winners)),))
        return refuse(self, ctx)

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(self)

    def _setup(self, seats: Seats, event: Event, ctx: Ctx) -> Outcome:
        if is_press(event, Button.BACK):
            return Outcome(None)
        if is_press(event, Button.START, Button.ENCODER):
            players = seats.players
            try:
                game = kw.new_game(kw.Setup(players))
            except RuleError as exc:
                return refuse(replace(self, message=exc.text(ctx.lang)), ctx)
            line = {"event": "setup", "players": list(players)}
            flow = replace(self, seats=None, players=players, play=game)
            return Outcome(flow, (BeginGame(kw.GAME_ID, players), Record(line)))
        moved = seats.handle(event)
        if moved is None:
            return refuse(self, ctx)
        return Outcome(replace(self, seats=moved))

    def _enter(self, line: dict[str, Any], ctx: Ctx, message: str = "") -> Outcome:
        """Apply one table entry through the rules core; refused entries leave the flow as it was."""
        assert self.play is not None
        try:
            game = kw.apply(self.play, kw.parse_line(RecordLine(len(self.lines) + 3, line["event"], line)))
        except RuleError as exc:
            return refuse(replace(self, message=exc.text(ctx.lang), menu=None), ctx)
        flow = replace(self, play=game, lines=(*self.lines, line), menu=None, left=0, message=message)
        effects: list[Effect] = [Record(line)]
        if kw.score(game).final:
            effects.append(Beep("celebrate", ctx.volume))
        return Outcome(flow, tuple(effects))

    def _undo(self, ctx: Ctx) -> Outcome:
        if not self.lines:
            return refuse(replace(self, message=seats_text(ctx.lang, "nothing_to_undo")), ctx)
        lines = self.lines[:-1]
        flow = replace(self, lines=lines, play=rebuild(self.players, lines), left=0,
                       message=_t(ctx.lang, "undone"))
        return Outcome(flow, (Retract(),))

    def _turn(self, game: kw.Game, event: Event, ctx: Ctx) -> Outcome:
        player = game.current
        if isinstance(event, TextEntry):
            text = event.text.strip()
            number = _NUMBER.match(text)
            line: dict[str, Any] = {"event": "word", "player": player}
            if number:
                line["letters"] = int(number.group(1))
            else:
                line["word"] = text
            outcome = self._enter(line, ctx)
            if outcome.flow is not None and isinstance(outcome.flow, KnackFlow) and outcome.flow.lines != self.lines:
                scored = outcome.flow.play.points(player) if outcome.flow.play else 0
                points = scored - game.points(player)
                outcome = replace(outcome, flow=replace(
                    outcome.flow, message=_t(ctx.lang, "scored", player=player, points=points, total=scored)))
            return outcome
        if is_press(event, Button.NEXT):
            return self._enter({"event": "draw", "player": player}, ctx, _t(ctx.lang, "drew", player=player))
        if is_hold(event, Button.START):
            return self._play(player, CARDS[0], ctx)
        if is_press(event, Button.START, Button.ENCODER):
            return Outcome(replace(self, menu=0))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, board=True))
        return refuse(self, ctx)

    def _play(self, player: str, card: str, ctx: Ctx) -> Outcome:
        line = {"event": "action", "player": player, "card": card}
        return self._enter(line, ctx, _t(ctx.lang, "card", player=player, card=card))

    def menu_items(self, lang: str) -> tuple[tuple[dict[str, Any], str], ...]:
        """The action menu: (the record line it enters, its label), for the player on turn."""
        game = self.play
        assert game is not None
        player = game.current
        items: list[tuple[dict[str, Any], str]] = [
            ({"event": "action", "player": player, "card": card}, _t(lang, "action_card", card=card))
            for card in CARDS
        ]
        items.append(({"event": "draw", "player": player}, _t(lang, "action_draw")))
        out = {e.player for e in game.log if e.kind == "out"}
        items += [
            ({"event": "out", "player": p}, _t(lang, "action_out", player=p)) for p in game.players if p not in out
        ]
        items += [({"event": "end", "reason": r}, _t(lang, f"end_{r}")) for r in kw.END_REASONS]
        return tuple(items)

    def _menu(self, cursor: int, game: kw.Game, event: Event, ctx: Ctx) -> Outcome:
        items = self.menu_items(ctx.lang)
        if isinstance(event, Turn):
            return Outcome(replace(self, menu=(cursor + event.steps) % len(items)))
        if is_press(event, Button.NEXT):
            return Outcome(replace(self, menu=(cursor + 1) % len(items)))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, menu=(cursor - 1) % len(items)))
        if is_press(event, Button.BACK):
            return Outcome(replace(self, menu=None))
        if isinstance(event, TextEntry) and event.text.strip():
            return self._play(game.current, event.text.strip(), ctx)
        if is_press(event, Button.START, Button.ENCODER):
            line, label = items[cursor]
            return self._enter(line, ctx, label)
        return refuse(self, ctx)

    def _left(self, game: kw.Game, event: Event, ctx: Ctx) -> Outcome:
        player = _next_left(game)
        if isinstance(event, Turn):
            return Outcome(replace(self, left=max(0, self.left + event.steps)))
        if is_press(event, Button.NEXT):
            return Outcome(replace(self, left=self.left + 1))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, left=max(0, self.left - 1)))
        if isinstance(event, TextEntry):
            number = _NUMBER.match(event.text)
            if number is None:
                return refuse(replace(self, message=_t(ctx.lang, "not_count", text=event.text.strip())), ctx)
            return self._enter({"event": "left", "player": player, "cards": int(number.group(1))}, ctx)
        if is_press(event, Button.START, Button.ENCODER):
            return self._enter({"event": "left", "player": player, "cards": self.left}, ctx)
        return refuse(self, ctx)

    # --- screens ------------------------------------------------------------------------------------

    def screen(self, ctx: Ctx) -> Screen:
        lang = ctx.lang
        if self.seats is not None:
            return self.seats.screen(lang, TITLE.get(lang, TITLE["de"]), self.message)
        game = self.play
        assert game is not None
        if self.board:
            return self.scoreboard(lang)
        if self.menu is not None:
            items = tuple(ListItem(label) for _, label in self.menu_items(lang))
            return ListScreen(_t(lang, "actions", player=game.current), items, self.menu,
                              self.message or _t(lang, "hint_menu"))
        standings = kw.score(game)
        if game.end is None:
            player = game.current
            turn = 1 + sum(1 for e in game.log if e.kind != "out")
            title = _t(lang, "turn", n=turn, points=game.points(player))
            if game.tasks:  # what the previous player's action cards ask of this turn
                title = _t(lang, "tasks", tasks=", ".join(game.tasks))
            hint = _t(lang, "played", cards=", ".join(game.cards)) if game.cards else _t(lang, "hint_turn")
            return BigScreen(title, player, self.message or hint)
        if not standings.final:
            title = _t(lang, "left", player=_next_left(game))
            return BigScreen(title, str(self.left), self.message or kw._reason(game, lang))
        items = tuple(ListItem(f"{s.rank}. {s.player}", str(s.points), s.rank == 1) for s in standings.players)
        title = _t(lang, "winner", players=", ".join(standings.winners))
        return ListScreen(title, items, None, self.message or _t(lang, "hint_final"))

    def scoreboard(self, lang: str) -> ListScreen:
        """Every player's points so far (letters and bonus), the player on turn marked."""
        game = self.play
        assert game is not None
        items = tuple(ListItem(p, str(game.points(p)), p == game.current) for p in game.players)
        return ListScreen(_t(lang, "board"), items, game.turn, self.message)


def _next_left(game: kw.Game) -> str:
    return next(p for p in game.players if game.cards_left(p) is None)


def new(ctx: Ctx, names: tuple[str, ...]) -> KnackFlow:
    return KnackFlow(Seats.of(names, ctx.lang, kw.MIN_PLAYERS, MAX_SEATS))


KIT = GameKit(kw.GAME_ID, TITLE, new, kw.score_record)
