"""The one list of games: every `GameKit` the appliance knows, in menu order.

The menu, `wordtable score`, the record reader, the Deck and the card enrolment all read `GAMES` when they
need it (never a copy taken at import), so a new game is one package with a `KIT` plus one line here.
Importing it imports no game's code: kits are light (`games.kit`); a game loads when it is played.
"""

from __future__ import annotations

from firmware_host.core import record as records
from firmware_host.core.games import knack_das_wort, perfect_words, perfektes_wort, quiddler, zugzeit
from firmware_host.core.games.kit import CardDeck, GameKit
from firmware_host.core.record import GameRecord, RecordError, ScoreReport
from firmware_host.core.table.kits import table_kits


def parse_record(text: str) -> GameRecord:
    """A record's text parsed (`core.record.parse_record`), its header naming one of the games that keep a
    record. Raises `RecordError` at the first malformed line."""
    return records.parse_record(text, record_games())


def card_decks() -> tuple[CardDeck, ...]:
    """Every game's physical decks, in menu order."""
    return tuple(deck for g in GAMES for deck in g.decks)


DECK_KIT, ENROL_KIT = table_kits(card_decks)
GAMES: tuple[GameKit, ...] = (
    zugzeit.KIT,  # the turn timer, for any game: beside the sand timer and the scoreboard in the menu
    perfektes_wort.KIT,  # the main game
    quiddler.KIT,
    perfect_words.KIT,
    knack_das_wort.KIT,
    quiddler.SOLITAIRE_KIT,
    DECK_KIT,  # the Deck: button deck or physical cards on the readers
    ENROL_KIT,  # enrolment of card tables
)


def kit(game: str) -> GameKit | None:
    """The kit of a game id; None for an id no kit has."""
    return next((g for g in GAMES if g.id == game), None)


def record_games() -> tuple[str, ...]:
    """The ids of the games that keep a record (what a record's header may name)."""
    return tuple(g.id for g in GAMES if g.score_record is not None)


def score(record: GameRecord) -> ScoreReport:
    """A parsed record scored by its game's rules core (what `wordtable score`, the league and the page's
    past games show). Raises `RecordError` when its game keeps no record or the record breaks a rule."""
    found = kit(record.game)
    if found is None or found.score_record is None:
        raise RecordError(0, f"{record.game!r} keeps no record to score")
    return found.score_record(record)
