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
asked about with `CheckWords` once all are entered, the answers come back as `WordsChecked`); Turn moves, NEXT
declares the word invalid, a typed line corrects it; a word too long or declared invalid is shortened
(Turn/NEXT pick a prefix — only those the word list knows, when it answered —, a typed length or prefix) or
struck; START goes on → the round's points with the bonus fields circled and struck → solo: strike a bonus
field → the scoreboard → NEXT reveals the next card. After round 9 the final breakdown and the winner; START
leaves. Solo: the score goes onto the highscore list of its side, kept under `highscores/perfektes-wort`
(`Keep`; read from `Ctx.kept`, which a restart fills with the `Kept` event); the final screen names its place,
NEXT shows the side's top 10 (BACK returns), and BACK on the final screen undoes the last entry and takes
the score off the list again. BACK undoes the last entry (its record line is retracted and the game rebuilt
from the rest). Every entry is applied through the rules core and recorded with its `record.event_to_line`,
so the record re-scores identically with `wordtable score`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core.deck import Deck
from firmware_host.core.effects import BeginGame, CheckWords, Effect, EndGame, Keep, Record, Retract
from firmware_host.core.events import Button, CardScan, Event, Press, TextEntry, Turn, WordsChecked
from firmware_host.core.flow import Ctx, Outcome, ResetTimer, StartTimer
from firmware_host.core.games import perfektes_wort as pw
from firmware_host.core.games.kit import CardDeck, GameKit
from firmware_host.core.games.perfektes_wort.data import ROUNDS, card_from_code
from firmware_host.core.games.perfektes_wort.defaults import DEFAULT_DATA
from firmware_host.core.games.perfektes_wort.game import MAX_PLAYERS
from firmware_host.core.games.perfektes_wort.highscores import (
    KEPT_NAME,
    HighScore,
    add_for_side,
    for_side,
    highscores_data,
    highscores_from_data,
)
from firmware_host.core.games.perfektes_wort.record import event_from_line, event_to_line, setup_to_line
from firmware_host.core.i18n import pick
from firmware_host.core.record import RecordLine
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.seats import Seats, is_hold, is_press, refuse
from firmware_host.core.table.seats import t as seats_text
from firmware_host.core.timer import format_seconds

GAME_ID = "perfektes-wort"
TITLE = {"de": "Das perfekte Wort", "en": "Das perfekte Wort"}
ROUND_SECONDS = 60
SIDES = ("grundversion", "profi")
DECKS = ("buttons", "cards")

TEXT = {
    "de": {
        "side_title": "Seite des Blocks",
        "face_title": "Punktekarte",
        "deck_title": "Karten",
        "deck_buttons": "Tasten-Stapel (Gerät mischt)",
        "deck_cards": "eigene Karten (scannen)",
        "hint_pick": "Drehen/NEXT wählen · START ok",
        "hint_face": "Drehen/NEXT · lang START: ziehen · START ok",
        "drawn": "gezogen: {face}",
        "scan_title": "Karten scannen: {n} von {need}",
        "scan_lines": "Die obersten Karten des gemischten Stapels der Reihe nach scannen (oder tippen, "
        "z. B. B7); START: die übrigen je Runde.",
        "unknown_card": "Unbekannte Karte ({code})",
        "reveal_title": "Runde {round} von 9",
        "reveal_big": "Karte?",
        "hint_reveal": "NEXT: Karte aufdecken",
        "hint_card": "Karte {n} scannen oder tippen (z. B. B7)",
        "card_not_needed": "Die Karte ist schon bekannt: NEXT deckt auf",
        "call_title": "Runde {round} · höchstens {length}",
        "hint_call": "START: Sanduhr (1 Minute)",
        "hint_timing": "START: Eingabe sofort",
        "entry_title": "{player} – Runde {round}",
        "entry_lines": "Wort mit {letter}, höchstens {length} Buchstaben",
        "hint_entry": "Wort tippen · leere Zeile: kein Wort",
        "review_title": "Runde {round}: prüfen",
        "hint_review": "NEXT ungültig · Text korrigiert · START weiter",
        "too_long": "zu lang",
        "invalid": "ungültig",
        "unknown_word": "nicht im Wörterbuch",
        "struck": "gestrichen",
        "no_word": "–",
        "fix_title": "{player}: {word} kürzen",
        "strike_option": "streichen",
        "hint_fix": "Drehen/NEXT · Länge/Wort tippen · START ok",
        "points_title": "Runde {round}: Punkte",
        "circled": "◯ {field}",
        "struck_field": "✗ {field}",
        "hint_points": "START weiter",
        "solo_title": "Solo: ein Bonusfeld streichen",
        "hint_solo": "Drehen/NEXT · Feld tippen · START streichen",
        "board_title": "Stand nach Runde {round}",
        "hint_board": "NEXT: nächste Karte",
        "hint_board_last": "NEXT: Endstand",
        "final_title": "Gewonnen: {names}",
        "final_shared": "Geteilter Sieg: {names}",
        "final_row": "{rank}. {name} {word}+{vowel}+{bonus}",
        "final_value": "{total}",
        "hint_final": "Wort+Vokal+Bonus · START Ende",
        "hs_place": "Platz {place} der Bestenliste",
        "hs_missed": "nicht in der Bestenliste",
        "hint_final_solo": "NEXT Bestenliste · START Ende",
        "hs_title": "Bestenliste {side}",
        "hs_row": "{place}. {name}",
        "hint_hs": "BACK zurück · START Ende",
        "undone": "Rückgängig",
        "no_text": "Hier ist keine Eingabe möglich",
        "not_a_length": "„{text}“: eine Länge oder ein Anfang von {word}",
    },
    "en": {
        "side_title": "Side of the pad",
        "face_title": "Points card",
        "deck_title": "Cards",
        "deck_buttons": "button deck (the appliance shuffles)",
        "deck_cards": "own cards (scan them)",
        "hint_pick": "Turn/NEXT pick · START ok",
        "hint_face": "Turn/NEXT · hold START: draw · START ok",
        "drawn": "drawn: {face}",
        "scan_title": "Scan cards: {n} of {need}",
        "scan_lines": "Scan the top cards of the shuffled pile in order (or type them, e.g. B7); START: "
        "the rest round by round.",
        "unknown_card": "Unknown card ({code})",
        "reveal_title": "Round {round} of 9",
        "reveal_big": "Card?",
        "hint_reveal": "NEXT: reveal the card",
        "hint_card": "scan or type card {n} (e.g. B7)",
        "card_not_needed": "That card is known already: NEXT reveals it",
        "call_title": "Round {round} · at most {length}",
        "hint_call": "START: sand timer (1 minute)",
        "hint_timing": "START: enter words now",
        "entry_title": "{player} – round {round}",
        "entry_lines": "A word with {letter}, at most {length} letters",
        "hint_entry": "type the word · empty line: no word",
        "review_title": "Round {round}: check",
        "hint_review": "NEXT invalid · text corrects · START on",
        "too_long": "too long",
        "invalid": "invalid",
        "unknown_word": "not in the word list",
        "struck": "struck",
        "no_word": "–",
        "fix_title": "{player}: shorten {word}",
        "strike_option": "strike",
        "hint_fix": "Turn/NEXT · type length/word · START ok",
        "points_title": "Round {round}: points",
        "circled": "◯ {field}",
        "struck_field": "✗ {field}",
        "hint_points": "START on",
        "solo_title": "Solo: strike a bonus field",
        "hint_solo": "Turn/NEXT · type a field · START strike",
        "board_title": "Standing after round {round}",
        "hint_board": "NEXT: next card",
        "hint_board_last": "NEXT: final standing",
        "final_title": "Winner: {names}",
        "final_shared": "Shared win: {names}",
        "final_row": "{rank}. {name} {word}+{vowel}+{bonus}",
        "final_value": "{total}",
        "hint_final": "word+vowel+bonus · START leave",
        "hs_place": "Place {place} on the highscore list",
        "hs_missed": "not on the highscore list",
        "hint_final_solo": "NEXT highscores · START leave",
        "hs_title": "Highscores {side}",
        "hs_row": "{place}. {name}",
        "hint_hs": "BACK back · START leave",
        "undone": "Undone",
        "no_text": "No typing here",
        "not_a_length": "“{text}”: a length or a beginning of {word}",
    },
}

Step = Callable[["PerfektesWortFlow"], "PerfektesWortFlow"]
_FACE_TYPED = re.compile(r"^\s*(\d{1,2}[ab])\s*$", re.IGNORECASE)


def _t(lang: str, key: str, **fields: object) -> str:
    return pick(TEXT, lang, key, **fields)


def seed_of(at: float) -> int:
    """The shuffle seed for a deck chosen at event time `at` (journaled events replay the same time)."""
    return int(at * 1000) & 0x7FFFFFFF


def rebuild(setup: pw.Setup, lines: tuple[Mapping[str, Any], ...]) -> pw.Game:
    """The game the setup and these record lines stand for (each line was accepted when entered)."""
    game = pw.new_game(setup)
    for number, line in enumerate(lines, start=3):
        game = pw.apply(game, event_from_line(RecordLine(number, str(line["event"]), line)), number)
    return game


@dataclass(frozen=True, slots=True)
class PerfektesWortFlow:
    """Das perfekte Wort at the table. During setup `seats` (stage "players") and the option fields are
    set; from the first round on `setup`, `play` (the rules core's game) and `lines` (the record lines
    entered after the setup line, oldest first). `checked` holds the word list's answers (none without
    a list); they are facts about words, so undo keeps them."""

    seats: Seats
    stage: str = "players"  # players side face deck scan | reveal call timing entry review fix points solo board final
    side: int = 0
    face: int = 0
    deck_mode: int = 0
    scanned: tuple[pw.LetterCard, ...] = ()
    setup: pw.Setup | None = None
    play: pw.Game | None = None
    lines: tuple[Mapping[str, Any], ...] = ()
    checked: tuple[tuple[str, bool], ...] = ()  # the word list's answers so far: (word, known)
    slot: int = 0  # entry: the player index; review/fix: the player under the cursor
    choice: int = 0  # side/face/deck lists, fix options, solo fields
    message: str = ""
    best: tuple[HighScore, ...] = ()  # solo, final: the side's highscore list with this game's score
    place: int | None = None  # solo, final: the score's place on it (None: not on the list)
    before: tuple[HighScore, ...] | None = None  # solo, final: the kept list before, restored by undo
    listing: bool = False  # solo, final: the highscore list is on screen

    @property
    def game(self) -> str:
        return GAME_ID

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players if self.setup else self.seats.players

    # --- handling events ----------------------------------------------------------------------------

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, WordsChecked):
            known = dict(self.checked) | dict(event.known)
            return Outcome(replace(self, checked=tuple(known.items())))
        flow = replace(self, message="")
        if self.play is None:
            return flow._setup_event(event, ctx)
        if self.stage == "final":
            if is_press(event, Button.START, Button.ENCODER):
                winners = pw.score(self.play).winners
                return Outcome(None, (EndGame(", ".join(winners)),))
            if self.play.solo and is_press(event, Button.NEXT) and not self.listing:
                return Outcome(replace(flow, listing=True))
            if is_press(event, Button.BACK) and self.listing:
                return Outcome(replace(flow, listing=False))
            if not is_press(event, Button.BACK):
                return refuse(self, ctx)
        if is_press(event, Button.BACK):
            return flow._undo(ctx)
        handler = {
            "reveal": PerfektesWortFlow._reveal,
            "board": PerfektesWortFlow._reveal,
            "call": PerfektesWortFlow._call,
            "timing": PerfektesWortFlow._timing,
            "entry": PerfektesWortFlow._entry,
            "review": PerfektesWortFlow._review,
            "fix": PerfektesWortFlow._fix,
            "points": PerfektesWortFlow._points,
            "solo": PerfektesWortFlow._solo,
        }[self.stage]
        return handler(flow, self.play, event, ctx)

    def timer_over(self, ctx: Ctx) -> Outcome:
        if self.stage == "timing":
            return Outcome(replace(self, stage="entry", slot=0))
        return Outcome(self)

    # --- setup --------------------------------------------------------------------------------------

    def _setup_event(self, event: Event, ctx: Ctx) -> Outcome:
        stages = ("players", "side", "face", "deck", "scan")
        if is_press(event, Button.BACK):
            if self.stage == "players":
                return Outcome(None)
            if self.stage == "scan" and self.scanned:
                return Outcome(replace(self, scanned=self.scanned[:-1], message=_t(ctx.lang, "undone")))
            previous = stages[stages.index(self.stage) - 1]
            return Outcome(replace(self, stage=previous, choice=0))
        if self.stage == "players":
            if is_press(event, Button.START, Button.ENCODER):
                return Outcome(replace(self, stage="side"))
            moved = self.seats.handle(event)
            return refuse(self, ctx) if moved is None else Outcome(replace(self, seats=moved))
        if self.stage == "scan":
            return self._scan(event, ctx)
        count = {"side": len(SIDES), "face": len(DEFAULT_DATA.faces), "deck": len(DECKS)}[self.stage]
        current = {"side": self.side, "face": self.face, "deck": self.deck_mode}[self.stage]
        if isinstance(event, Turn | Press) and not is_press(event, Button.START, Button.ENCODER):
            steps = event.steps if isinstance(event, Turn) else 1 if event.button is Button.NEXT else 0
            if steps:
                return Outcome(self._option((current + steps) % count))
        if self.stage == "face" and is_hold(event, Button.START):
            drawn = random.Random(seed_of(ctx.now)).randrange(count)
            return Outcome(replace(self, face=drawn, message=_t(ctx.lang, "drawn",
                                                                face=DEFAULT_DATA.faces[drawn].face)))
        if self.stage == "face" and isinstance(event, TextEntry):
            match = _FACE_TYPED.match(event.text)
            names = [f.face for f in DEFAULT_DATA.faces]
            if match and match.group(1).lower() in names:
                return Outcome(replace(self, face=names.index(match.group(1).lower())))
            return refuse(replace(self, message=_t(ctx.lang, "no_text")), ctx)
        if is_press(event, Button.START, Button.ENCODER):
            if self.stage == "side":
                return Outcome(replace(self, stage="face"))
            if self.stage == "face":
                return Outcome(replace(self, stage="deck"))
            if DECKS[self.deck_mode] == "cards":
                return Outcome(replace(self, stage="scan", scanned=()))
            deck = Deck.shuffled(DEFAULT_DATA.deck, seed_of(ctx.now)).draw
            return self._begin(deck, ctx)
        return refuse(self, ctx)

    def _option(self, value: int) -> PerfektesWortFlow:
        if self.stage == "side":
            return replace(self, side=value)
        if self.stage == "face":
            return replace(self, face=value)
        return replace(self, deck_mode=value)

    def _scan(self, event: Event, ctx: Ctx) -> Outcome:
        if is_press(event, Button.START, Button.ENCODER):  # the rest of the cards come round by round
            return self._begin(self.scanned, ctx)
        card = _card_of(event, ctx)
        if not isinstance(card, pw.LetterCard):
            return refuse(replace(self, message=card), ctx)
        scanned = (*self.scanned, card)
        if len(scanned) < ROUNDS + 1:
            return Outcome(replace(self, scanned=scanned))
        return self._begin(scanned, ctx)

    def _begin(self, deck: tuple[pw.LetterCard, ...], ctx: Ctx) -> Outcome:
        face = DEFAULT_DATA.faces[self.face]
        setup = pw.Setup(players=self.seats.players, sheet=DEFAULT_DATA.sheets[SIDES[self.side]],
                         vowels=face.values, deck=deck, points_card=face.face)
        try:
            game = pw.new_game(setup)
        except pw.RuleError as exc:
            return refuse(replace(self, message=exc.text(ctx.lang)), ctx)
        flow = replace(self, stage="reveal", setup=setup, play=game, lines=(), choice=0)
        return Outcome(flow, (BeginGame(GAME_ID, setup.players), Record(setup_to_line(setup))))

    # --- rounds -------------------------------------------------------------------------------------

    def _enter(self, event: pw.TableEvent, ctx: Ctx, then: Step | None = None, **after: Any) -> Outcome:
        """Apply one table event through the rules core: recorded and moved on (`after`, then `then`), or
        refused (the flow unchanged) with the core's reason."""
        return self._enter_all((event,), ctx, then, **after)

    def _enter_all(self, events: tuple[pw.TableEvent, ...], ctx: Ctx, then: Step | None = None,
                   **after: Any) -> Outcome:
        """`_enter` for events that go together: all recorded, or none (the first refusal's reason)."""
        assert self.play is not None
        game, new = self.play, list[dict[str, Any]]()
        for event in events:
            try:
                game = pw.apply(game, event, len(self.lines) + len(new) + 3)
            except pw.RuleError as exc:
                return refuse(replace(self, message=exc.text(ctx.lang)), ctx)
            new.append(event_to_line(event))
        flow = replace(self, play=game, lines=(*self.lines, *new), **after)
        return Outcome(flow if then is None else then(flow), tuple(Record(line) for line in new))

    def _undo(self, ctx: Ctx) -> Outcome:
        assert self.setup is not None
        if not self.lines:
            return refuse(replace(self, message=seats_text(ctx.lang, "nothing_to_undo")), ctx)
        last, lines = self.lines[-1], self.lines[:-1]
        flow = replace(self, lines=lines, play=rebuild(self.setup, lines), message=_t(ctx.lang, "undone"),
                       choice=0)
        event = last["event"]
        if event in ("reveal", "card"):
            flow = replace(flow, stage="reveal")
        elif event == "word":
            flow = replace(flow, stage="entry", slot=self.players.index(str(last["player"])))
        elif event == "solo_strike":
            flow = replace(flow, stage="solo")
        else:
            flow = replace(flow, stage="review", slot=self.players.index(str(last["player"])))
        timer = ResetTimer() if self.stage == "timing" else None
        effects: tuple[Effect, ...] = (Retract(),)
        if self.stage == "final" and self.before is not None:  # the score leaves the highscore list again
            effects += (Keep(KEPT_NAME, highscores_data(self.before)),)
            flow = replace(flow, best=(), place=None, before=None, listing=False)
        return Outcome(flow, effects, timer)

    def _reveal(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if is_press(event, Button.NEXT, Button.START, Button.ENCODER):
            if play.revealed == ROUNDS:
                return self._final(play, ctx)
            return self._enter(pw.Reveal(play.revealed + 1), ctx, stage="call")
        if isinstance(event, CardScan | TextEntry):
            if play.revealed == ROUNDS or _cards_wanted(play) == 0:
                return refuse(replace(self, message=_t(ctx.lang, "card_not_needed")), ctx)
            card = _card_of(event, ctx)
            if not isinstance(card, pw.LetterCard):
                return refuse(replace(self, message=card), ctx)
            if _cards_wanted(play) > 1:  # one more is needed before this round can begin
                return self._enter(pw.Card(card), ctx, stage="reveal")
            return self._enter_all((pw.Card(card), pw.Reveal(play.revealed + 1)), ctx, stage="call")
        return refuse(self, ctx)

    def _final(self, play: pw.Game, ctx: Ctx) -> Outcome:
        """The final standing; solo: the score goes onto the kept highscore list of its side (RULES §1)."""
        final = replace(self, stage="final", listing=False)
        if not play.solo:
            return Outcome(final)
        try:
            before = highscores_from_data(ctx.kept.get(KEPT_NAME))
        except ValueError:  # the shell checks the file when it loads it; a damaged list counts as none
            before = ()
        side = play.setup.sheet.side
        player = pw.score(play).players[0]
        table, place = add_for_side(before, HighScore(player.name, player.total, side))
        final = replace(final, best=for_side(table, side), place=place, before=before)
        return Outcome(final, (Keep(KEPT_NAME, highscores_data(table)),))

    def _call(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if is_press(event, Button.START, Button.ENCODER):
            return Outcome(replace(self, stage="timing"), timer=StartTimer(ROUND_SECONDS))
        return refuse(self, ctx)

    def _timing(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if is_press(event, Button.START, Button.ENCODER):
            return Outcome(replace(self, stage="entry", slot=0), timer=ResetTimer())
        return refuse(self, ctx)

    def _entry(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if not isinstance(event, TextEntry):
            return refuse(self, ctx)
        player = self.players[self.slot]
        if self.slot + 1 < len(self.players):
            return self._enter(pw.Word(play.revealed, player, event.text.strip()), ctx, slot=self.slot + 1)
        return _asking(self._enter(pw.Word(play.revealed, player, event.text.strip()), ctx,
                                   PerfektesWortFlow._after_changes))

    def _questions(self) -> tuple[str, ...]:
        """The round's words as they stand and every prefix each could be shortened to, not yet asked."""
        assert self.play is not None
        play, rnd = self.play, self.play.revealed
        asked = dict(self.checked)
        words: dict[str, None] = {}
        for player in self.players:
            entry = play.entry(rnd, player)
            if entry is not None and entry.written and not entry.struck:
                for word in (entry.current, *pw.shortenings(entry.current, play.max_length(rnd))):
                    if word not in asked:
                        words[word] = None
        return tuple(words)

    def _known(self, word: str) -> bool | None:
        """The word list's answer about `word`; None when there is none (no list, or not asked)."""
        return dict(self.checked).get(word)

    def _after_changes(self) -> PerfektesWortFlow:
        """Where the round goes after an entry: to the first word that needs shortening or striking, else
        to the review of the round's words."""
        assert self.play is not None
        for problem in pw.pending(self.play):
            player = str(problem.fields.get("player", ""))
            if player in self.players:
                return replace(self, stage="fix", slot=self.players.index(player), choice=0)
        return replace(self, stage="review", slot=self.slot if self.stage in ("review", "fix") else 0)

    def _review(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        rnd, player = play.revealed, self.players[self.slot]
        if isinstance(event, Turn):
            return Outcome(replace(self, slot=(self.slot + event.steps) % len(self.players)))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, slot=(self.slot + 1) % len(self.players)))
        if is_press(event, Button.NEXT):
            return self._enter(pw.Verdict(rnd, player, False), ctx, PerfektesWortFlow._after_changes)
        if isinstance(event, TextEntry):
            return _asking(self._enter(pw.Correct(rnd, player, event.text.strip()), ctx,
                                       PerfektesWortFlow._after_changes))
        if is_press(event, Button.START, Button.ENCODER):
            return Outcome(replace(self, stage="points"))
        return refuse(self, ctx)

    def _options(self, play: pw.Game) -> tuple[str, ...]:
        """The fix stage's choices for the word under the cursor: its prefixes, longest first — only those
        the word list knows once it has answered about all of them (R3), else all."""
        entry = play.entry(play.revealed, self.players[self.slot])
        if entry is None:
            return ()
        prefixes = pw.shortenings(entry.current, play.max_length(play.revealed))
        if any(self._known(p) is None for p in prefixes):
            return prefixes
        return pw.shortenings(entry.current, play.max_length(play.revealed),
                              pw.Lexicon.of(word for word, known in self.checked if known))

    def _fix(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        rnd, player = play.revealed, self.players[self.slot]
        options = self._options(play)
        count = len(options) + 1  # the last choice strikes the word
        if isinstance(event, Turn):
            return Outcome(replace(self, choice=(self.choice + event.steps) % count))
        if is_press(event, Button.NEXT):
            return Outcome(replace(self, choice=(self.choice + 1) % count))
        if is_hold(event, Button.NEXT):
            return Outcome(replace(self, choice=(self.choice - 1) % count))
        change: pw.TableEvent | None = None
        if isinstance(event, TextEntry):
            text = event.text.strip()
            entry = play.entry(rnd, player)
            word = entry.current if entry else ""
            if text.isdigit():
                change = pw.Shorten(rnd, player, word[: int(text)])
            elif text:
                change = pw.Shorten(rnd, player, text)
            else:
                return refuse(replace(self, message=_t(ctx.lang, "not_a_length", text=text, word=word)), ctx)
        elif is_press(event, Button.START, Button.ENCODER):
            if self.choice < len(options):
                change = pw.Shorten(rnd, player, options[self.choice])
            else:
                change = pw.Strike(rnd, player)
        if change is None:
            return refuse(self, ctx)
        return self._enter(change, ctx, PerfektesWortFlow._after_changes)

    def _points(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        if is_press(event, Button.START, Button.NEXT, Button.ENCODER):
            if play.solo and play.revealed < ROUNDS and self._open_fields(play):
                return Outcome(replace(self, stage="solo", choice=0))
            return Outcome(replace(self, stage="board"))
        return refuse(self, ctx)

    def _open_fields(self, play: pw.Game) -> tuple[str, ...]:
        marks = pw.field_marks(play)[self.players[0]]
        return tuple(f for f, m in marks.items() if m.mark is pw.Mark.OPEN)

    def _solo(self, play: pw.Game, event: Event, ctx: Ctx) -> Outcome:
        fields = self._open_fields(play)
        if isinstance(event, Turn):
            return Outcome(replace(self, choice=(self.choice + event.steps) % len(fields)))
        if is_press(event, Button.NEXT):
            return Outcome(replace(self, choice=(self.choice + 1) % len(fields)))
        if isinstance(event, TextEntry):
            chosen = event.text.strip()
        elif is_press(event, Button.START, Button.ENCODER):
            chosen = fields[self.choice % len(fields)]
        else:
            return refuse(self, ctx)
        return self._enter(pw.SoloStrike(play.revealed, self.players[0], chosen), ctx, stage="board", choice=0)

    # --- screens ------------------------------------------------------------------------------------

    def screen(self, ctx: Ctx) -> Screen:
        lang, footer = ctx.lang, self.message
        if self.play is None:
            return self._setup_screen(lang, footer)
        play, rnd = self.play, self.play.revealed
        wanted = _cards_wanted(play) if rnd < ROUNDS else 0
        card_hint = _t(lang, "hint_card", n=len(play.setup.deck) + 1)
        if self.stage == "reveal":
            return BigScreen(_t(lang, "reveal_title", round=rnd + 1), _t(lang, "reveal_big"),
                             footer or (card_hint if wanted else _t(lang, "hint_reveal")))
        if self.stage in ("call", "timing"):
            title = _t(lang, "call_title", round=rnd, length=play.max_length(rnd))
            if self.stage == "call":
                return BigScreen(title, play.letter(rnd), footer or _t(lang, "hint_call"))
            big = f"{play.letter(rnd)}  {format_seconds(ctx.timer_left)}"
            return BigScreen(title, big, footer or _t(lang, "hint_timing"))
        if self.stage == "entry":
            title = _t(lang, "entry_title", player=self.players[self.slot], round=rnd)
            lines = (_t(lang, "entry_lines", letter=play.letter(rnd), length=play.max_length(rnd)),
                     _t(lang, "hint_entry"))
            return MessageScreen(title, lines, footer)
        if self.stage == "review":
            items = tuple(ListItem(p, self._status(play, p, lang)) for p in self.players)
            entry = play.entry(rnd, self.players[self.slot])
            if not footer and entry is not None and self._known(entry.current) is False and not entry.struck:
                footer = f"{entry.current}: {_t(lang, 'unknown_word')}"  # the row's value may be cut short
            return ListScreen(_t(lang, "review_title", round=rnd), items, self.slot, footer or _t(lang, "hint_review"))
        if self.stage == "fix":
            entry = play.entry(rnd, self.players[self.slot])
            word = entry.current if entry else ""
            options = self._options(play)
            items = (*(ListItem(p, str(len(p))) for p in options), ListItem(_t(lang, "strike_option")))
            title = _t(lang, "fix_title", player=self.players[self.slot], word=word)
            return ListScreen(title, items, self.choice % len(items), footer or _t(lang, "hint_fix"))
        if self.stage == "solo":
            fields = self._open_fields(play)
            items = tuple(ListItem(f) for f in fields)
            return ListScreen(_t(lang, "solo_title"), items, self.choice % max(1, len(items)),
                              footer or _t(lang, "hint_solo"))
        result = pw.score(play)
        if self.stage == "points":
            rows = [ListItem(f"{p.name} {p.rows[rnd - 1].word or _t(lang, 'no_word')}", str(p.rows[rnd - 1].points))
                    for p in result.players]
            rows += self._field_items(play, rnd, lang)
            return ListScreen(_t(lang, "points_title", round=rnd), tuple(rows), None, footer or _t(lang, "hint_points"))
        if self.stage == "board":
            items = tuple(ListItem(p.name, str(p.total), p.winner) for p in result.players)
            hint = card_hint if wanted else _t(lang, "hint_board" if rnd < ROUNDS else "hint_board_last")
            return ListScreen(_t(lang, "board_title", round=rnd), items, None, footer or hint)
        if self.listing:
            items = tuple(ListItem(_t(lang, "hs_row", place=i, name=h.name), str(h.total), i == self.place)
                          for i, h in enumerate(self.best, start=1))
            return ListScreen(_t(lang, "hs_title", side=play.setup.sheet.title), items, None,
                              footer or _t(lang, "hint_hs"))
        ranked = sorted(result.players, key=lambda p: (p.rank, self.players.index(p.name)))
        items = tuple(
            ListItem(_t(lang, "final_row", rank=p.rank, name=p.name, word=p.word_points, vowel=p.vowels.points,
                        bonus=p.bonus_points), _t(lang, "final_value", total=p.total), p.winner)
            for p in ranked
        )
        title = _t(lang, "final_shared" if result.shared else "final_title", names=", ".join(result.winners))
        if play.solo:
            placed = _t(lang, "hs_place", place=self.place) if self.place else _t(lang, "hs_missed")
            return ListScreen(title, (*items, ListItem(placed)), None, footer or _t(lang, "hint_final_solo"))
        return ListScreen(title, items, None, footer or _t(lang, "hint_final"))

    def _setup_screen(self, lang: str, footer: str) -> Screen:
        title = TITLE.get(lang, TITLE["de"])
        if self.stage == "players":
            return self.seats.screen(lang, title, footer)
        if self.stage == "scan":
            need = ROUNDS + 1
            lines = (_t(lang, "scan_lines"), " ".join(c.code for c in self.scanned[-3:]))
            return MessageScreen(_t(lang, "scan_title", n=len(self.scanned), need=need), lines, footer)
        if self.stage == "side":
            items = tuple(ListItem(DEFAULT_DATA.sheets[s].title, "", i == self.side) for i, s in enumerate(SIDES))
            return ListScreen(_t(lang, "side_title"), items, self.side, footer or _t(lang, "hint_pick"))
        if self.stage == "face":
            items = tuple(
                ListItem(f.face, " ".join(f"{v}{n}" for v, n in f.values.items()), i == self.face)
                for i, f in enumerate(DEFAULT_DATA.faces)
            )
            return ListScreen(_t(lang, "face_title"), items, self.face, footer or _t(lang, "hint_face"))
        items = tuple(ListItem(_t(lang, f"deck_{d}"), "", i == self.deck_mode) for i, d in enumerate(DECKS))
        return ListScreen(_t(lang, "deck_title"), items, self.deck_mode, footer or _t(lang, "hint_pick"))

    def _status(self, play: pw.Game, player: str, lang: str) -> str:
        entry = play.entry(play.revealed, player)
        if entry is None or not entry.written:
            return _t(lang, "no_word")
        if entry.struck:
            return f"{entry.written} {_t(lang, 'struck')}"
        shown = entry.written if entry.kept is None else f"{entry.written}→{entry.current}"
        if len(entry.current) > play.max_length(play.revealed):
            return f"{shown} {_t(lang, 'too_long')}"
        if entry.invalid:
            return f"{shown} {_t(lang, 'invalid')}"
        if self._known(entry.current) is False:
            return f"{shown} {_t(lang, 'unknown_word')}"
        return shown

    def _field_items(self, play: pw.Game, rnd: int, lang: str) -> list[ListItem]:
        """The bonus fields marked in round `rnd`: who circled each, who struck it."""
        marks = pw.field_marks(play)
        items: list[ListItem] = []
        for field in play.setup.sheet.bonus_fields:
            circled = [p for p in self.players if marks[p][field].mark is pw.Mark.CIRCLED
                       and marks[p][field].round == rnd]
            struck = [p for p in self.players if marks[p][field].mark is pw.Mark.STRUCK
                      and marks[p][field].round == rnd]
            if circled:
                items.append(ListItem(_t(lang, "circled", field=field), ", ".join(circled)))
            if struck and circled:
                items.append(ListItem(_t(lang, "struck_field", field=field), ", ".join(struck)))
        return items


def _cards_wanted(play: pw.Game) -> int:
    """How many cards the deck still lacks for the next round to begin (its length and its letter)."""
    return max(0, play.revealed + 2 - len(play.setup.deck))


def _card_of(event: Event, ctx: Ctx) -> pw.LetterCard | str:
    """The letter card a scan (looked up in the enrolled table, face like "B/7") or a typed "B7" names;
    else the reason, for the footer."""
    if isinstance(event, CardScan):
        face = ctx.cards.get(GAME_ID, {}).get(event.code.strip())
        if face is None:
            return _t(ctx.lang, "unknown_card", code=event.code.strip())
        code = face.replace("/", "")
    elif isinstance(event, TextEntry):
        code = event.text.replace("/", "").replace(" ", "")
    else:
        return _t(ctx.lang, "no_text")
    try:
        return card_from_code(code, "card")
    except pw.DataError as exc:
        return exc.text(ctx.lang)


def _asking(outcome: Outcome) -> Outcome:
    """An accepted entry (one that recorded a line) asks the word list about the round's new words."""
    flow = outcome.flow
    if not isinstance(flow, PerfektesWortFlow) or not any(isinstance(e, Record) for e in outcome.effects):
        return outcome
    words = flow._questions()
    return replace(outcome, effects=(*outcome.effects, CheckWords(words))) if words else outcome


def new(ctx: Ctx, names: tuple[str, ...]) -> PerfektesWortFlow:
    return PerfektesWortFlow(Seats.of(names, ctx.lang, 1, MAX_PLAYERS))


# The appliance's own 24 letter cards (ruling R2), their faces in the card-table notation "B/5".
DECK = CardDeck(GAME_ID, {"de": "Das perfekte Wort", "en": "Das perfekte Wort"},
                tuple(f"{card.letter}/{card.length}" for card in DEFAULT_DATA.deck))
KIT = GameKit(GAME_ID, TITLE, new, pw.score_record, (DECK,), ("highscores/perfektes-wort",))
