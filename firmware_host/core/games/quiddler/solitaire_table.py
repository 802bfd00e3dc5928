"""Quiddler solitaire at the table: a practice mode without a game record (no BeginGame/Record).

The appliance deals the layout from a game number (the seed of the rules core's `new_solitaire`), shows
the 8 face-up cards, and takes a word given as piles: START adds the pile under the cursor (NEXT or the
encoder move it), a long NEXT or long START takes the picked word; or typed, as pile numbers (`3 1 5`,
`315`) or as the cards (`CAT`, `(QU)IT`, matched to the face-up cards left to right). BACK drops the last
picked pile, else puts the last word back. Whether a word is allowed is the player's call.

A typed "?" asks for a hint: the shell finds the word of most cards among the face-up ones in the English
word list (`RevealBest` → `BestRevealed`, journaled); the footer shows it and the game counts as hinted
(`hints`, shown when it is won — the solitaire keeps no record, so that is where it is marked).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from firmware_host.core.effects import RevealBest
from firmware_host.core.events import BestRevealed, Button, Event, TextEntry, Turn
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.word_groups import WordGroups
from firmware_host.core.i18n import word_list
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.seats import is_hold, is_press, refuse
from firmware_host.core.text_field import TextField

from .best_lay import hint
from .deck import STANDARD_DECK
from .errors import RuleError
from .ids import SOLITAIRE_ID
from .notation import format_cards, parse_cards
from .solitaire import PILES, Solitaire, new_solitaire, take_word
from .text import t

__all__ = ["SOLITAIRE_ID", "SolitaireFlow", "new_solitaire_flow"]

MAX_SEED = 99999


@dataclass(frozen=True, slots=True)
class SolitaireFlow:
    seed: int
    layout: Solitaire | None = None  # None: the game number is being chosen
    history: tuple[Solitaire, ...] = ()  # the layouts before each word taken, for BACK
    picked: tuple[int, ...] = ()  # piles (0-based) of the word being picked, in word order
    cursor: int = 0
    message: str = ""
    note: str = ""
    hints: int = 0  # hints asked for and answered: a hinted game

    @property
    def game(self) -> str:
        return SOLITAIRE_ID

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        layout = self.layout
        if isinstance(event, BestRevealed):
            if layout is None or layout.won:
                return Outcome(self)
            found = event.best[0] if event.best else None
            source = word_list(ctx.lang, event.source)
            note = (t(ctx.lang, "hint", cards=found[1], source=source) if found
                    else t(ctx.lang, "no_hint", source=source))
            return self._ok(note=note, hints=self.hints + 1)
        if layout is None:
            return self._choose_seed(event, ctx)
        if layout.won:
            if is_press(event, Button.START, Button.ENCODER, Button.BACK):
                return Outcome(None)
            return self._refuse(ctx, "")
        if isinstance(event, TextEntry) and event.text.strip() == "?":
            visible = tuple(face for face in layout.visible if face is not None)
            return Outcome(self, (RevealBest("en", len(layout.words) + 1, partial(_hint_lines, visible)),))
        if isinstance(event, TextEntry):
            piles = _typed_piles(event.text, layout)
            if piles is None:
                return self._refuse(ctx, t(ctx.lang, "no_such_cards", text=event.text.strip()))
            return self._take(layout, piles, ctx)
        if isinstance(event, Turn) or is_press(event, Button.NEXT):
            steps = event.steps if isinstance(event, Turn) else 1
            return self._ok(cursor=(self.cursor + steps) % PILES)
        if is_press(event, Button.START, Button.ENCODER):
            if not layout.piles[self.cursor] or self.cursor in self.picked:
                return self._refuse(ctx, "")
            return self._ok(picked=(*self.picked, self.cursor))
        if is_hold(event, Button.NEXT, Button.START):
            return self._take(layout, self.picked, ctx)
        if is_press(event, Button.BACK):
            if self.picked:
                return self._ok(picked=self.picked[:-1])
            if self.history:
                return self._ok(layout=self.history[-1], history=self.history[:-1])
            return self._refuse(ctx, t(ctx.lang, "nothing_to_undo"))
        return self._refuse(ctx, "")

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(replace(self, message=""))  # a stale footer must not stand beside "Zeit!"

    def _choose_seed(self, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, TextEntry):
            text = event.text.strip().lstrip("#")
            if not text.isdigit() or int(text) > MAX_SEED:
                return self._refuse(ctx, t(ctx.lang, "not_a_seed", text=event.text.strip()))
            return self._ok(seed=int(text))
        if isinstance(event, Turn) or is_press(event, Button.NEXT):
            steps = event.steps if isinstance(event, Turn) else 1
            return self._ok(seed=(self.seed + steps) % (MAX_SEED + 1))
        if is_press(event, Button.START, Button.ENCODER):
            return self._ok(layout=new_solitaire(self.seed))
        if is_press(event, Button.BACK):  # out of the setup, as from every game's first step
            return Outcome(None)
        return self._refuse(ctx, "")

    def _take(self, layout: Solitaire, piles: tuple[int, ...], ctx: Ctx) -> Outcome:
        try:
            after = take_word(layout, piles)
        except RuleError as exc:
            return self._refuse(ctx, exc.message)
        note = t(ctx.lang, "taken", cards=format_cards(after.words[-1]))
        return self._ok(layout=after, history=(*self.history, layout), picked=(), note=note)

    def _ok(self, **changes: object) -> Outcome:
        keep_note = "note" in changes
        flow = replace(self, message="", note=self.note if keep_note else "")
        return Outcome(replace(flow, **changes))  # type: ignore[arg-type]

    def _refuse(self, ctx: Ctx, message: str) -> Outcome:
        return refuse(replace(self, message=message), ctx)

    def text_field(self, ctx: Ctx) -> TextField | None:
        """The game number while it is chosen; then a word (cards or pile numbers) until it is won."""
        if self.layout is None:
            return TextField(t(ctx.lang, "seed_title"), "number")
        return None if self.layout.won else TextField(t(ctx.lang, "word_field"), "text")

    def screen(self, ctx: Ctx) -> Screen:
        lang, layout = ctx.lang, self.layout
        if layout is None:
            return BigScreen(t(lang, "seed_title"), str(self.seed), self.message or t(lang, "seed_hint"))
        if layout.won:
            lines: tuple[str, ...] = (t(lang, "won_line", words=len(layout.words)),)
            if self.hints:
                lines = (*lines, t(lang, "won_hinted", n=self.hints))
            return MessageScreen(t(lang, "won_title"), lines, t(lang, "won_hint"))
        items = tuple(
            ListItem(
                t(lang, "pile", n=p + 1, face=pile[-1]) if pile else t(lang, "empty_pile", n=p + 1),
                str(len(pile)),
                marked=p in self.picked,
            )
            for p, pile in enumerate(layout.piles)
        )
        picked = (
            t(lang, "picked", cards=format_cards([layout.piles[p][-1] for p in self.picked])) if self.picked else ""
        )
        footer = self.message or picked or self.note or t(lang, "pick_hint")
        return ListScreen(t(lang, "piles_title", left=layout.cards_left), items, self.cursor, footer)


def new_solitaire_flow(ctx: Ctx, names: tuple[str, ...]) -> SolitaireFlow:
    """The game-number screen; the proposed number comes from the clock of the event that opened it."""
    return SolitaireFlow(seed=int(ctx.now * 1000) % (MAX_SEED + 1))


def _hint_lines(visible: tuple[str, ...], words: WordGroups) -> tuple[tuple[str, str, int, str, int], ...]:
    """The hint as the lines of a `BestRevealed`: one line with the word in card notation, none without."""
    found = hint(visible, words, STANDARD_DECK)
    return () if found is None else (("", format_cards(found.cards), found.value, "", 0),)


def _typed_piles(text: str, layout: Solitaire) -> tuple[int, ...] | None:
    """Piles (0-based) from typed pile numbers 1–8 or typed cards; None when they are not face up."""
    body = text.strip()
    digits = body.replace(" ", "").replace(",", "")
    if digits.isdigit():
        piles = tuple(int(d) - 1 for d in digits)
        return piles if all(0 <= p < PILES for p in piles) else None
    try:
        faces = parse_cards(body, STANDARD_DECK)
    except RuleError:
        return None
    visible = layout.visible
    chosen: list[int] = []
    for face in faces:
        pile = next((p for p, top in enumerate(visible) if top == face and p not in chosen), None)
        if pile is None:
            return None
        chosen.append(pile)
    return tuple(chosen)
