"""The rules core of Das perfekte Wort: its setup and table events (each one line of the game record, read
and written by `record.CODEC`), the state of a game, and how an event changes it. Pure: no I/O, no clock.

    game = new_game(Setup(...))            # raises SetupError / DataError
    game = apply(game, Reveal(1))          # each table event returns a new Game
    game = apply(game, Word(1, "Geli", "FUCHSBAU"))
    result = score(game)                   # firmware_host.core.games.perfektes_wort.scoring

`apply` raises a `RuleError` subclass (with `ref`, the caller's event reference, e.g. a record line)
when the event breaks a rule; the game passed in is left unchanged (all values are immutable).
Round r uses the letter of deck card r+1 (the new top of the draw pile) and the length on the back of
card r (the card just discarded).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import ClassVar

from firmware_host.core import record_codec, text_input
from firmware_host.core.text_input import Code, Label, Name, quoted, quoted_chars

from .data import (
    CARD_SCHEMA,
    DECK_SCHEMA,
    ROUNDS,
    SHEET_SCHEMA,
    VOWELS_SCHEMA,
    LetterCard,
    Sheet,
    read_card,
    read_deck,
    read_sheet,
    read_vowels,
    write_card,
    write_deck,
)
from .errors import (
    BadLetters,
    EntryError,
    FieldError,
    RoundError,
    SetupError,
    TooLong,
    UnknownPlayer,
    Unresolved,
    WrongStartingLetter,
)
from .fields import FieldMark, FieldStrike, Mark, resolve_fields
from .lexicon import Lexicon, shortenings
from .words import bad_letters, normalize

MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class Setup:
    """The table's choices before round 1. One player means the solo variant. Its record line embeds the
    sheet side whole (so a record stays scorable) and holds the deck order known at the start (`Card`
    lines add the rest); the line's keys are in field order, `points_card` is given by keyword."""

    EVENT: ClassVar[str] = "setup"

    players: tuple[Name, ...]
    sheet: Sheet = record_codec.entry(read=read_sheet, write=Sheet.to_json, schema=SHEET_SCHEMA)
    points_card: Code = field(default="", kw_only=True)
    vowels: Mapping[str, int] = record_codec.entry(read=read_vowels, write=dict, schema=VOWELS_SCHEMA)
    deck: tuple[LetterCard, ...] = record_codec.entry(read=read_deck, write=write_deck, schema=DECK_SCHEMA)
    house_rules: tuple[Label, ...] = ()


@dataclass(frozen=True, slots=True)
class Reveal:
    """The top letter card is flipped onto the discard pile: round `round` begins."""

    EVENT: ClassVar[str] = "reveal"

    round: int


@dataclass(frozen=True, slots=True)
class Word:
    """The word `player` wrote in row `round`, as written ("" = no word)."""

    EVENT: ClassVar[str] = "word"

    round: int
    player: Name
    word: text_input.Word


@dataclass(frozen=True, slots=True)
class Verdict:
    """The table's verdict on the word as it now stands (invalid only unanimously)."""

    EVENT: ClassVar[str] = "verdict"

    round: int
    player: Name
    valid: bool


@dataclass(frozen=True, slots=True)
class Shorten:
    """The word is cut from the end to the prefix `to`."""

    EVENT: ClassVar[str] = "shorten"

    round: int
    player: Name
    to: text_input.Word


@dataclass(frozen=True, slots=True)
class Correct:
    """A spelling correction: the word now reads `word` (verdict and shortening start afresh)."""

    EVENT: ClassVar[str] = "correct"

    round: int
    player: Name
    word: text_input.Word


@dataclass(frozen=True, slots=True)
class Strike:
    """The word is struck: it scores nothing (no points, vowels or bonus fields)."""

    EVENT: ClassVar[str] = "strike"

    round: int
    player: Name


@dataclass(frozen=True, slots=True)
class SoloStrike:
    """Solo variant: after `round` the player strikes the bonus field `field`, which they have not used."""

    EVENT: ClassVar[str] = "solo_strike"

    round: int
    player: Name
    field: text_input.Word


@dataclass(frozen=True, slots=True)
class Card:
    """The next letter card of the draw pile, entered as it comes (physical cards scanned round by round):
    it is appended to the deck order. A setup may hold fewer than the 10 cards the rounds need."""

    EVENT: ClassVar[str] = "card"

    card: LetterCard = record_codec.entry(read=read_card, write=write_card, schema=CARD_SCHEMA)


TableEvent = Card | Reveal | Word | Verdict | Shorten | Correct | Strike | SoloStrike
EVENTS = (Card, Reveal, Word, Verdict, Shorten, Correct, Strike, SoloStrike)  # the record's order of them


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's row in one round: the word as written (or corrected), and what the table did to it."""

    round: int
    player: str
    written: str
    kept: int | None = None  # the length kept by shortening
    invalid: bool = False  # the table's verdict on the current form
    struck: bool = False
    corrected: bool = False
    ref: int = field(default=0, compare=False)  # the event that wrote (or last corrected) the word

    @property
    def current(self) -> str:
        return self.written if self.kept is None else self.written[: self.kept]


@dataclass(frozen=True, slots=True)
class Game:
    setup: Setup
    revealed: int = 0
    entries: tuple[Entry, ...] = ()
    strikes: tuple[FieldStrike, ...] = ()
    lexicon: Lexicon | None = field(default=None, compare=False)

    @property
    def solo(self) -> bool:
        return len(self.setup.players) == 1

    @property
    def finished(self) -> bool:
        return self.revealed == ROUNDS

    def letter(self, rnd: int) -> str:
        """The round's starting letter: the front of card rnd+1."""
        return self.setup.deck[rnd].letter

    def max_length(self, rnd: int) -> int:
        """The round's maximum length: the back of card rnd."""
        return self.setup.deck[rnd - 1].length

    def entry(self, rnd: int, player: str) -> Entry | None:
        for item in self.entries:
            if item.round == rnd and item.player == player:
                return item
        return None


def new_game(setup: Setup, lexicon: Lexicon | None = None) -> Game:
    """A game before round 1. Raises `SetupError` for a setup the rules cannot play."""
    players = setup.players
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise SetupError("players_count", max=MAX_PLAYERS, n=len(players))
    for name in players:
        if not name.strip():
            raise SetupError("empty_name")
        if players.count(name) > 1:
            raise SetupError("name_twice", name=name)
    for position, card in enumerate(setup.deck[:ROUNDS], start=1):
        _check_card(setup, position, card)
    return Game(setup, lexicon=lexicon)


def _check_card(setup: Setup, position: int, card: LetterCard, ref: int = 0) -> None:
    """Card `position` (1-based) gives round `position` its maximum length: it must fit the sheet's row."""
    if position <= ROUNDS and card.length > setup.sheet.cells(position):
        raise SetupError("card_too_long", ref, round=position, length=card.length, cells=setup.sheet.cells(position))


def _add_card(game: Game, event: Card, ref: int) -> Game:
    deck = game.setup.deck
    if len(deck) >= ROUNDS + 1:
        raise SetupError("deck_full", ref, need=ROUNDS + 1)
    _check_card(game.setup, len(deck) + 1, event.card, ref)
    return replace(game, setup=replace(game.setup, deck=(*deck, event.card)))


def apply(game: Game, event: TableEvent, ref: int = 0) -> Game:
    """The game after `event`. Raises a `RuleError` subclass carrying `ref` when the event is illegal."""
    if isinstance(event, Reveal):
        return _reveal(game, event, ref)
    if isinstance(event, Card):
        return _add_card(game, event, ref)
    _check_round(game, event.round, ref)
    if event.player not in game.setup.players:
        raise UnknownPlayer("unknown_player", ref, name=event.player, players=", ".join(game.setup.players))
    if isinstance(event, SoloStrike):
        return _checked(_solo_strike(game, event, ref), ref)
    entry = game.entry(event.round, event.player)
    if isinstance(event, Word):
        if entry is not None and entry.written:  # an entry of "no word" may still get its word
            raise EntryError(
                "second_word", ref, player=event.player, round=event.round, word=entry.written or "—"
            )
        new = Entry(
            event.round, event.player, _spelled(game, event.round, event.word, ref, allow_empty=True), ref=ref
        )
    else:
        if entry is None or not entry.written:
            raise EntryError("no_word", ref, player=event.player, round=event.round)
        new = _change(game, entry, event, ref)
    others = tuple(e for e in game.entries if (e.round, e.player) != (new.round, new.player))
    return _checked(replace(game, entries=(*others, new)), ref)


def pending(game: Game) -> tuple[Unresolved | TooLong, ...]:
    """The entries that still need the table (too long, or declared invalid): one error each, in round
    order. Scoring refuses while any is left; the next card may not be revealed over one."""
    found: list[Unresolved | TooLong] = []
    for entry in sorted(game.entries, key=lambda e: (e.round, game.setup.players.index(e.player))):
        problem = _problem(game, entry)
        if problem is not None:
            found.append(problem)
    return tuple(found)


def unknown_words(game: Game) -> tuple[Entry, ...]:
    """The dictionary assist (R3): entries whose word, as it now stands, the word list does not know —
    a hint for the table's vote. Empty without a word list."""
    if game.lexicon is None:
        return ()
    lexicon = game.lexicon
    return tuple(e for e in game.entries if e.written and not e.struck and e.current not in lexicon)


def final_word(game: Game, entry: Entry) -> str:
    """The word that is scored: "" when there is none, it is struck, or it still needs the table."""
    if entry.struck or _problem(game, entry) is not None:
        return ""
    return entry.current


def field_marks(game: Game) -> dict[str, dict[str, FieldMark]]:
    """Each player's mark on each bonus field after the revealed rounds (see `fields.resolve_fields`)."""
    finals = {(e.round, e.player): final_word(game, e) for e in game.entries}
    return resolve_fields(
        game.setup.players, game.setup.sheet.bonus_fields, finals, game.strikes, game.revealed
    )


def _problem(game: Game, entry: Entry) -> Unresolved | TooLong | None:
    if entry.struck or not entry.written:
        return None
    word, limit = entry.current, game.max_length(entry.round)
    if len(word) <= limit and not entry.invalid:
        return None
    options = shortenings(word, limit, game.lexicon)
    fields = {"player": entry.player, "round": entry.round, "word": word, "options": ", ".join(options)}
    offer = "shorten" if options else "strike"
    if len(word) > limit:
        return TooLong(f"too_long_{offer}", options, entry.ref, n=len(word), limit=limit, **fields)
    return Unresolved(f"invalid_{offer}", entry.ref, **fields)


def _check_round(game: Game, rnd: int, ref: int) -> None:
    if not 1 <= rnd <= ROUNDS:
        raise RoundError("no_round", ref, round=rnd)
    if rnd > game.revealed:
        raise RoundError("not_revealed", ref, round=rnd, revealed=game.revealed)


def _reveal(game: Game, event: Reveal, ref: int) -> Game:
    if game.revealed >= ROUNDS:
        raise RoundError("after_ninth", ref)
    if event.round != game.revealed + 1:
        raise RoundError("wrong_reveal", ref, next=game.revealed + 1, round=event.round)
    if len(game.setup.deck) < event.round + 1:
        raise RoundError("card_missing", ref, round=event.round, need=event.round + 1, have=len(game.setup.deck))
    open_problems = pending(game)
    if open_problems:
        raise Unresolved("before_next", ref, problem=open_problems[0])
    last = game.revealed
    if game.solo and last >= 1 and not any(s.round == last for s in game.strikes):
        player = game.setup.players[0]
        open_fields = [f for f, m in field_marks(game)[player].items() if m.mark is Mark.OPEN]
        if open_fields:
            raise Unresolved("solo_strike_due", ref, round=last, open=", ".join(open_fields))
    return replace(game, revealed=event.round)


def _spelled(game: Game, rnd: int, text: str, ref: int, allow_empty: bool = False) -> str:
    word = normalize(text)
    if not word:
        if allow_empty:
            return ""
        raise EntryError("empty_word", ref)
    wrong = bad_letters(word)
    if wrong:
        raise BadLetters("bad_letters", ref, text=quoted(text), wrong=quoted_chars(wrong))
    letter = game.letter(rnd)
    if not word.startswith(letter):
        raise WrongStartingLetter("wrong_letter", ref, word=word, round=rnd, letter=letter)
    cells = game.setup.sheet.cells(rnd)
    if len(word) > cells:
        options = shortenings(word, game.max_length(rnd), game.lexicon)
        raise TooLong("longer_than_row", options, ref, word=word, n=len(word), round=rnd, cells=cells)
    return word


def _change(game: Game, entry: Entry, event: TableEvent, ref: int) -> Entry:
    if isinstance(event, Correct):
        return Entry(
            entry.round, entry.player, _spelled(game, entry.round, event.word, ref), corrected=True, ref=ref
        )
    if entry.struck:
        raise EntryError("is_struck", ref, player=entry.player, round=entry.round)
    limit = game.max_length(entry.round)
    if isinstance(event, Verdict):
        if event.valid and len(entry.current) > limit:
            options = shortenings(entry.current, limit, game.lexicon)
            raise TooLong("too_long_not_valid", options, ref, word=entry.current, limit=limit)
        return replace(entry, invalid=not event.valid)
    if isinstance(event, Shorten):
        to = normalize(event.to)
        if not to or not entry.current.startswith(to) or len(to) >= len(entry.current):
            raise EntryError("not_prefix", ref, to=to or "—", word=entry.current)
        if len(to) > limit:
            options = shortenings(entry.current, limit, game.lexicon)
            raise TooLong("still_too_long", options, ref, to=to, limit=limit)
        return replace(entry, kept=len(to), invalid=False)
    if isinstance(event, Strike):
        return replace(entry, struck=True, invalid=False)
    raise TypeError(f"not an entry event: {event!r}")  # pragma: no cover - exhaustive above


def _solo_strike(game: Game, event: SoloStrike, ref: int) -> Game:
    if not game.solo:
        raise EntryError("solo_only", ref)
    fieldname = normalize(event.field)
    if fieldname not in game.setup.sheet.bonus_fields:
        raise FieldError("not_a_field", ref, field=fieldname, fields=", ".join(game.setup.sheet.bonus_fields))
    return replace(game, strikes=(*game.strikes, FieldStrike(event.round, fieldname, ref)))


def _checked(game: Game, ref: int = 0) -> Game:
    """Re-resolve the bonus fields so that a conflict (a solo strike of a used field) is raised now."""
    if game.solo:
        try:
            field_marks(game)
        except FieldError as exc:
            raise exc.at(ref) from None
    return game
