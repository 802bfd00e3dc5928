"""The card decks the appliance knows, per game: the faces the enrolment mode and the Deck mode use.

A face is written in its game's notation (`core.cards`): Das perfekte Wort's letter cards as
`"LETTER/NUMBER"` (`"B/7"`, see `deck.LetterCard`), Quiddler's cards as their letters (`"QU"`).
Perfect Words and Knack das Wort have no card data yet, so they are not offered here.

Pure; shared by `enrol_cards` and `deck_mode`, which both start with a list to choose a deck from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.core.cards import CardTable, KnownCard, UnknownCard, printed_table
from firmware_host.core.deck import LetterCard
from firmware_host.core.games.quiddler import STANDARD_DECK

PERFEKTES_WORT = "perfektes-wort"
QUIDDLER = "quiddler"

# The appliance's own 24 letter cards (ruling R2), as in the Das perfekte Wort data file
# (firmware_host/data/perfektes_wort/deck.toml on the rules branch, written there as "B5").
# Replace by a load of that file once it is on main.
PERFEKTES_WORT_CARDS = (
    "B5", "D6", "F7", "G8", "H9", "K5", "L6", "M7",
    "N8", "P9", "R5", "S6", "T7", "W8", "Z9", "B8",
    "F6", "G5", "H7", "K9", "M6", "S8", "T5", "W7",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CardDeck:
    """One game's physical deck: its title by language and every card's face (repeats for copies)."""

    game: str
    title: Mapping[str, str]
    faces: tuple[str, ...]

    def name(self, lang: str) -> str:
        return self.title.get(lang) or self.title["de"]


DECKS: tuple[CardDeck, ...] = (
    CardDeck(
        PERFEKTES_WORT,
        {"de": "Das perfekte Wort", "en": "Das perfekte Wort"},
        tuple(f"{card[0]}/{card[1:]}" for card in PERFEKTES_WORT_CARDS),
    ),
    CardDeck(QUIDDLER, {"de": "Quiddler", "en": "Quiddler"}, tuple(STANDARD_DECK.cards())),
)


def letter_card(face: str) -> LetterCard | None:
    """The Das perfekte Wort card a face such as "B/7" names; None when it is not one."""
    letter, slash, number = face.partition("/")
    if not slash or len(letter.strip()) != 1 or not number.strip().isdigit():
        return None
    return LetterCard(letter.strip().upper(), int(number))


def card_lookup(deck: CardDeck, cards: Mapping[str, Mapping[str, str]], code: str) -> KnownCard | UnknownCard:
    """A scanned code's face: from the enrolled table of the game, else from the printed labels' codes
    (`cards.printed_codes`, which need no enrolment)."""
    enrolled = CardTable(deck.game, cards.get(deck.game, {})).lookup(code)
    if isinstance(enrolled, KnownCard):
        return enrolled
    return printed_table(deck.game, deck.faces).lookup(code)
