"""The "Karten anlernen" mode: tell the appliance which tag or code is which card face. Pure.

Not a scored game: it never emits BeginGame/Record. Its `game` is "enrol-cards" (a menu key, not a
record's game id). Stages:
- choose: a list of the decks (`decks`: every game's, `registry.card_decks`). NEXT/turn move, START/encoder
  choose, BACK leaves.
- enrol: the selected face big, "17 von 24" in the title. A scan gives the selected face to the card
  (a card already enrolled is refused with an error beep and its face); NEXT / turn / long NEXT select
  another face, a typed line picks a face by name; BACK undoes the last card (with none: back to the
  list); START stops early and saves what is enrolled. When every card has a code the table is saved.
- saved: what was saved; any button returns to the menu.
An enrolment continues a saved table: its cards count as enrolled and their faces are not asked again.
Saving is the `Keep(cards/<game>, table)` effect (`cards.table_data`); the shell writes it to the state directory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.core.cards import Assigned, Enrolment, Refused, Selected, kept_name, table_data
from firmware_host.core.effects import Beep, Effect, Keep
from firmware_host.core.events import Button, CardScan, Event, LongPress, Press, TextEntry, Turn
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.kit import CardDeck
from firmware_host.core.i18n import pick
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.ids import ENROL
from firmware_host.core.table.seats import refuse
from firmware_host.core.text_field import TextField

TEXT = {
    "de": {
        "title": "Karten anlernen",
        "choose_hint": "START wählen · BACK Menü",
        "enrolled_n": "{n} angelernt",
        "progress_title": "Anlernen {progress}",
        "hint": "Karte scannen · NEXT andere",
        "assigned": "{code} = {face}",
        "undone": "Zurück: {code} ({face})",
        "saved": "{n} Karten gespeichert",
        "nothing_saved": "Nichts angelernt, nichts gespeichert",
        "saved_hint": "Taste: zum Menü",
        "not_here": "Hier nicht möglich",
        "face_field": "Kartenseite wählen",
    },
    "en": {
        "title": "Enrol cards",
        "choose_hint": "START choose · BACK menu",
        "enrolled_n": "{n} enrolled",
        "progress_title": "Enrol {progress}",
        "hint": "Scan a card · NEXT other",
        "assigned": "{code} = {face}",
        "undone": "Undone: {code} ({face})",
        "saved": "{n} cards saved",
        "nothing_saved": "Nothing enrolled, nothing saved",
        "saved_hint": "Any button: menu",
        "not_here": "Not possible here",
        "face_field": "Choose a card face",
    },
}


def resume_enrolment(deck: CardDeck, saved: dict[str, str]) -> Enrolment:
    """An enrolment of `deck` that keeps the saved cards whose faces the deck still has a copy of, or that
    the deck takes as a physical deck's own (`CardDeck.other`)."""
    pending = list(deck.faces)
    enrolled = []
    for code, face in sorted(saved.items()):
        if face in pending:
            pending.remove(face)
            enrolled.append((code, face))
        elif deck.other is not None and deck.other(face) == face:
            enrolled.append((code, face))
    return Enrolment(deck.game, tuple(pending), tuple(enrolled))


@dataclass(frozen=True, slots=True)
class EnrolFlow:
    decks: tuple[CardDeck, ...] = ()  # every game's physical decks (`registry.card_decks`)
    cursor: int = 0  # in `decks`
    enrolment: Enrolment | None = None  # None: choosing a deck
    saved: str | None = None  # the saved screen's line; not None: enrolment is over
    message: str = ""

    @property
    def game(self) -> str:
        return ENROL

    def _deck(self, enrolment: Enrolment) -> CardDeck:
        """The deck `enrolment` is of."""
        return next((deck for deck in self.decks if deck.game == enrolment.game), self.decks[self.cursor])

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        if self.saved is not None:
            return Outcome(None) if isinstance(event, Press | LongPress) else Outcome(self)
        if self.enrolment is None:
            return self._choose(event, ctx)
        return self._enrol(self.enrolment, event, ctx)

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(replace(self, message=""))  # a stale footer must not stand beside "Zeit!"

    def _choose(self, event: Event, ctx: Ctx) -> Outcome:
        cleared = replace(self, message="")
        if isinstance(event, Turn):
            return Outcome(replace(cleared, cursor=(self.cursor + event.steps) % len(self.decks)))
        if isinstance(event, Press):
            if event.button is Button.NEXT:
                return Outcome(replace(cleared, cursor=(self.cursor + 1) % len(self.decks)))
            if event.button in (Button.START, Button.ENCODER):
                deck = self.decks[self.cursor]
                enrolment = resume_enrolment(deck, dict(ctx.cards.get(deck.game, {})))
                return Outcome(replace(cleared, enrolment=enrolment))
            if event.button is Button.BACK:
                return Outcome(None)
        return self._refuse(ctx, _t(ctx, "not_here"))

    def _enrol(self, enrolment: Enrolment, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, CardScan):
            return self._feedback(ctx, *enrolment.scan(event.code))
        if isinstance(event, Turn):
            return self._feedback(ctx, *enrolment.turn(event.steps))
        if isinstance(event, TextEntry):
            return self._feedback(ctx, *enrolment.choose(event.text, self._deck(enrolment).other))
        if isinstance(event, Press | LongPress) and event.button is Button.NEXT:
            return self._feedback(ctx, *enrolment.turn(1 if isinstance(event, Press) else -1))
        if isinstance(event, Press) and event.button is Button.BACK:
            if not enrolment.enrolled:
                return Outcome(replace(self, enrolment=None, message=""))
            return self._feedback(ctx, *enrolment.undo())
        if isinstance(event, Press) and event.button is Button.START:
            return self._save(enrolment, ctx)
        return self._refuse(ctx, _t(ctx, "not_here"))

    def _feedback(self, ctx: Ctx, enrolment: Enrolment, feedback: Assigned | Refused | Selected) -> Outcome:
        if isinstance(feedback, Refused):
            return self._refuse(ctx, feedback.text(ctx.lang))
        if isinstance(feedback, Selected):
            return Outcome(replace(self, enrolment=enrolment, message=""))
        key = "undone" if feedback.undone else "assigned"
        after = replace(self, enrolment=enrolment, message=_t(ctx, key, code=feedback.code, face=feedback.face))
        if enrolment.done:
            return after._save(enrolment, ctx)
        return Outcome(after, (Beep("key", ctx.volume),))

    def _save(self, enrolment: Enrolment, ctx: Ctx) -> Outcome:
        if not enrolment.enrolled:
            return Outcome(replace(self, saved=_t(ctx, "nothing_saved"), message=""))
        effects: tuple[Effect, ...] = (
            Keep(kept_name(enrolment.game), table_data(enrolment.table())),
            Beep("celebrate" if enrolment.done else "key", ctx.volume),
        )
        return Outcome(replace(self, saved=_t(ctx, "saved", n=enrolment.count), message=""), effects)

    def _refuse(self, ctx: Ctx, message: str) -> Outcome:
        return refuse(replace(self, message=message), ctx)

    def text_field(self, ctx: Ctx) -> TextField | None:
        """While cards are enrolled, a typed face selects it."""
        if self.enrolment is None or self.saved is not None:
            return None
        return TextField(_t(ctx, "face_field"), "card")

    def screen(self, ctx: Ctx) -> Screen:
        if self.enrolment is None:
            items = tuple(
                ListItem(deck.name(ctx.lang), _enrolled_count(ctx, deck)) for deck in self.decks
            )
            return ListScreen(_t(ctx, "title"), items, self.cursor, self.message or _t(ctx, "choose_hint"))
        enrolment = self.enrolment
        deck_name = next(deck.name(ctx.lang) for deck in self.decks if deck.game == enrolment.game)
        if self.saved is not None:
            return MessageScreen(_t(ctx, "title"), (deck_name, self.saved), _t(ctx, "saved_hint"))
        title = _t(ctx, "progress_title", progress=enrolment.progress(ctx.lang))
        return BigScreen(title, enrolment.selected or "–", self.message or _t(ctx, "hint"))


def _enrolled_count(ctx: Ctx, deck: CardDeck) -> str:
    count = len(ctx.cards.get(deck.game, {}))
    return _t(ctx, "enrolled_n", n=count) if count else ""


def _t(ctx: Ctx, key: str, **fields: object) -> str:
    return pick(TEXT, ctx.lang, key, **fields)


def new_enrolment(ctx: Ctx, players: tuple[str, ...], decks: tuple[CardDeck, ...]) -> EnrolFlow:
    return EnrolFlow(decks)

