"""The deck mode, *Karten ziehen* ("Draw cards") in the menu: the draw and discard piles of a game's
cards, on screen. Pure.

Not a scored game: it never emits BeginGame/Record. Its `game` is "deck" (a menu key). Stages:
- choose: a list of (deck, source): the appliance's own button deck, or physical cards on readers.
- buttons: the deck is shuffled with the seed `int(ctx.now * 1000)` of the choosing event — event times
  are journaled, so a replay shuffles the same (the seed is also logged); a typed number reshuffles with
  that seed. NEXT turns the top card onto the discard pile, BACK puts it back (with none turned: back to
  the list). The screen shows the top of each pile and the cards left.
- cards: a scan shows the card's face (enrolled table, else the printed labels' codes) on a pile: a
  reader named "draw" or "discard" watches that pile, any other reader puts it on the chosen pile, which
  NEXT switches (the marked row). BACK takes back the last scan. An unknown card: error beep, a message
  naming the code, nothing else changes.
START starts and pauses the appliance's timer in both. For a deck whose piles call a round (`CardDeck.call`:
Das perfekte Wort's letter cards, RULES.md §1), once a card is turned the screen is the round's call: the
starting letter on the draw pile and the maximum length on the discard pile.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from firmware_host.core.cards import UnknownCard
from firmware_host.core.deck import Deck, DeckRefusal, Pile, RefusalReason, TablePiles
from firmware_host.core.effects import Log
from firmware_host.core.events import Button, CardScan, Event, Press, TextEntry
from firmware_host.core.flow import Ctx, Outcome, PauseTimer
from firmware_host.core.games.kit import CardDeck, RoundCall
from firmware_host.core.i18n import pick
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, Screen
from firmware_host.core.table.card_decks import card_lookup
from firmware_host.core.table.ids import DECK
from firmware_host.core.table.seats import refuse
from firmware_host.core.text_field import TextField

SOURCES = ("buttons", "cards")


def choices(decks: tuple[CardDeck, ...]) -> tuple[tuple[CardDeck, str], ...]:
    """What the choosing list offers: every deck of `decks` from every source."""
    return tuple((deck, source) for deck in decks for source in SOURCES)


TEXT = {
    "de": {
        "title": "Karten ziehen",
        "buttons": "Gerät mischt",
        "cards": "echte Karten",
        "choose_hint": "START wählen · BACK Menü",
        "draw": "Nachziehstapel",
        "discard": "Ablagestapel",
        "left": "übrig",
        "turned": "aufgedeckt",
        "hint_buttons": "NEXT ziehen · BACK zurück",
        "hint_cards": "Karte scannen · NEXT Stapel",
        "shuffled": "Gemischt, Seed {seed}",
        "scanned": "{pile}: {face}",
        "use_buttons": "Gerät mischt: Karte {code} nicht gebraucht",
        "not_here": "Hier nicht möglich",
        "seed_field": "Neu mischen: Seed",
        "round": "Runde {round} · {left}",
        "call": "Anfang {letter}, höchstens {length} Buchstaben",
    },
    "en": {
        "title": "Draw cards",
        "buttons": "buttons",
        "cards": "cards",
        "choose_hint": "START choose · BACK menu",
        "draw": "Draw pile",
        "discard": "Discard pile",
        "left": "left",
        "turned": "turned",
        "hint_buttons": "NEXT draw · BACK undo",
        "hint_cards": "Scan a card · NEXT pile",
        "shuffled": "Shuffled, seed {seed}",
        "scanned": "{pile}: {face}",
        "use_buttons": "Button deck: card {code} not needed",
        "not_here": "Not possible here",
        "seed_field": "Shuffle anew: seed",
        "round": "Round {round} · {left}",
        "call": "Starts with {letter}, at most {length} letters",
    },
}


def seed_at(now: float) -> int:
    """The shuffle's seed from the (journaled) time of the event that asked for the deck."""
    return int(now * 1000)


def pile_for(reader: str, chosen: Pile) -> Pile:
    """The pile a reader's scan lands on: its own when it is named after one, else the chosen pile."""
    return Pile(reader) if reader in (Pile.DRAW.value, Pile.DISCARD.value) else chosen


@dataclass(frozen=True, slots=True)
class DeckFlow:
    decks: tuple[CardDeck, ...] = ()  # every game's physical decks (`registry.card_decks`)
    cursor: int = 0  # in choices(decks)
    deck: CardDeck | None = None  # None: choosing
    buttons: Deck[str] | None = None  # the button deck (source "buttons")
    piles: TablePiles[str] = field(default_factory=TablePiles)  # physical cards (source "cards")
    history: tuple[TablePiles[str], ...] = ()  # the piles before each scan, for undo
    message: str = ""

    @property
    def game(self) -> str:
        return DECK

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, Press) and event.button is Button.START and self.deck is not None:
            return Outcome(replace(self, message=""), timer=PauseTimer())
        if self.deck is None:
            return self._choose(event, ctx)
        if self.buttons is not None:
            return self._buttons(self.buttons, event, ctx)
        return self._cards(self.deck, event, ctx)

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(replace(self, message=""))  # a stale footer must not stand beside "Zeit!"

    def _choose(self, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, Press):
            if event.button is Button.NEXT:
                return Outcome(replace(self, cursor=(self.cursor + 1) % len(choices(self.decks)), message=""))
            if event.button in (Button.START, Button.ENCODER):
                deck, source = choices(self.decks)[self.cursor]
                if source == "cards":
                    return Outcome(replace(self, deck=deck, piles=TablePiles(), history=(), message=""))
                return self._shuffle(deck, seed_at(ctx.now), ctx)
            if event.button is Button.BACK:
                return Outcome(None)
        return self._refuse(ctx, _t(ctx, "not_here"))

    def _shuffle(self, deck: CardDeck, seed: int, ctx: Ctx) -> Outcome:
        shuffled = Deck.shuffled(deck.faces, seed)
        log = Log(f"deck: {deck.game} button deck shuffled with seed {seed}")
        return Outcome(replace(self, deck=deck, buttons=shuffled, message=_t(ctx, "shuffled", seed=seed)), (log,))

    def _buttons(self, deck: Deck[str], event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, Press) and event.button in (Button.NEXT, Button.ENCODER):
            return self._moved(deck.next(), ctx)
        if isinstance(event, Press) and event.button is Button.BACK:
            if not deck.discard:
                return Outcome(replace(self, deck=None, buttons=None, message=""))
            return self._moved(deck.undo(), ctx)
        if isinstance(event, TextEntry) and event.text.strip().isdigit() and self.deck is not None:
            return self._shuffle(self.deck, int(event.text.strip()), ctx)
        if isinstance(event, CardScan):
            return self._refuse(ctx, _t(ctx, "use_buttons", code=event.code))
        return self._refuse(ctx, _t(ctx, "not_here"))

    def _moved(self, moved: Deck[str] | DeckRefusal, ctx: Ctx) -> Outcome:
        if isinstance(moved, DeckRefusal):
            return self._refuse(ctx, moved.text(ctx.lang))
        return Outcome(replace(self, buttons=moved, message=""))

    def _cards(self, deck: CardDeck, event: Event, ctx: Ctx) -> Outcome:
        piles = self.piles
        if isinstance(event, CardScan):
            found = card_lookup(deck, ctx.cards, event.code)
            if isinstance(found, UnknownCard):
                return self._refuse(ctx, found.text(ctx.lang))
            pile = pile_for(event.reader, piles.chosen)
            message = _t(ctx, "scanned", pile=_t(ctx, pile.value), face=found.face)
            flow = replace(self, piles=piles.show(pile, found.face), history=(*self.history, piles), message=message)
            return Outcome(flow)
        if isinstance(event, Press) and event.button in (Button.NEXT, Button.ENCODER):
            return Outcome(replace(self, piles=piles.toggle(), message=""))
        if isinstance(event, Press) and event.button is Button.BACK:
            if not self.history:
                return Outcome(replace(self, deck=None, message=""))
            before = replace(self.history[-1], chosen=piles.chosen)
            return Outcome(replace(self, piles=before, history=self.history[:-1], message=""))
        return self._refuse(ctx, _t(ctx, "not_here"))

    def _refuse(self, ctx: Ctx, message: str) -> Outcome:
        return refuse(replace(self, message=message), ctx)

    # --- what it shows ---

    def call(self) -> RoundCall | DeckRefusal | None:
        """The round the piles call (`CardDeck.call`; None: the deck's piles call none, or not yet)."""
        if self.deck is None or self.deck.call is None:
            return None
        if self.buttons is not None:
            return self.deck.call(self.buttons.draw_top, self.buttons.discard_top, self.buttons.turned)
        piles = self.piles
        if piles.draw_top is None or piles.discard_top is None:
            return None
        return self.deck.call(piles.draw_top, piles.discard_top, piles.turned)

    def text_field(self, ctx: Ctx) -> TextField | None:
        """The button deck takes a seed to shuffle anew; nothing else here is typed."""
        return TextField(_t(ctx, "seed_field"), "number") if self.buttons is not None else None

    def screen(self, ctx: Ctx) -> Screen:
        if self.deck is None:
            items = tuple(
                ListItem(deck.name(ctx.lang), _t(ctx, source)) for deck, source in choices(self.decks)
            )
            return ListScreen(_t(ctx, "title"), items, self.cursor, self.message or _t(ctx, "choose_hint"))
        counter = (
            f"{self.buttons.left} {_t(ctx, 'left')}"
            if self.buttons is not None
            else f"{self.piles.turned} {_t(ctx, 'turned')}"
        )
        call = self.call()
        if isinstance(call, RoundCall):
            title = _t(ctx, "round", round=call.round, left=counter)
            footer = self.message or _t(ctx, "call", letter=call.letter, length=call.max_length)
            return BigScreen(title, f"{call.letter} · {call.max_length}", footer)
        if self.buttons is not None:
            draw, discard, marked = self.buttons.draw_top, self.buttons.discard_top, None
            hint = _t(ctx, "hint_buttons")
        else:
            draw, discard, marked = self.piles.draw_top, self.piles.discard_top, self.piles.chosen
            hint = _t(ctx, "hint_cards")
        last = isinstance(call, DeckRefusal) and call.reason is RefusalReason.LAST_CARD
        footer = self.message or (call.text(ctx.lang) if isinstance(call, DeckRefusal) and last else hint)
        items = (
            ListItem(_t(ctx, "draw"), draw or "–", marked is Pile.DRAW),
            ListItem(_t(ctx, "discard"), discard or "–", marked is Pile.DISCARD),
            ListItem(counter),
        )
        return ListScreen(f"{_t(ctx, 'title')} · {self.deck.name(ctx.lang)}", items, None, footer)


def _t(ctx: Ctx, key: str, **fields: object) -> str:
    return pick(TEXT, ctx.lang, key, **fields)


def new_deck(ctx: Ctx, players: tuple[str, ...], decks: tuple[CardDeck, ...]) -> DeckFlow:
    return DeckFlow(decks)

