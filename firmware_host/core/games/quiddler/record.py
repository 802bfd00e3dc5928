"""The Quiddler game record (JSON Lines, docs/quiddler.md): its events, the codec and the rules value.

Events, after the header `{"record": "wordtable", "version": 1, "game": "quiddler"}`:
- `setup`: `players` (seating order, clockwise), optional `dealer` (deals round 1; default the first
  player), optional `bonus` ("longest" or "most": the one bonus of a two-player game, default longest;
  the table writes it for two players only), optional `deck` (`{face: [copies, value]}`, only when the
  game was played with a non-standard deck).
- `round_start`: optional `round` (checked against the expected number).
- `lay`: `player`, `words` (list of words in card notation, e.g. "(QU)IT"), `unused` (cards in notation,
  default ""), `went_out` (default false).
- `challenge`: `challenger`, `player` (the word's owner), `word` (card notation), `allowed` (verdict).
- `round_end`.
Cards stay in notation in the events: they are read with the game's own deck when applied. `RULES.replay`
reports any rule broken as a `RecordError` with the line number; a record may stop anywhere (a round
still open is not scored yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from firmware_host.core.games.rules import Rules
from firmware_host.core.record import GameRecord, RecordLine
from firmware_host.core.record_codec import Codec, entry
from firmware_host.core.text_input import Name, Word

from .deck import STANDARD_DECK, Deck, deck_from_table
from .errors import SequenceError
from .ids import GAME_ID
from .notation import parse_cards
from .report import QuiddlerReport
from .rules import Game, challenge, end_round, lay_down, new_game, start_round


def _read_deck(line: RecordLine, key: str) -> Deck:
    table = line.data[key]
    if not isinstance(table, dict):
        raise line.error(f"'{key}' must be an object {{face: [copies, value]}}")
    return deck_from_table(table)


DECK_SCHEMA = {
    "type": "object",
    "description": "a non-standard deck: each card face (in card notation) -> [copies, value]",
    "additionalProperties": {
        "type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2,
    },
}


def _write_deck(deck: Any) -> dict[str, list[int]]:
    assert isinstance(deck, Deck)
    return deck.to_table()


@dataclass(frozen=True, slots=True)
class Setup:
    """The set-up line; `dealer` None: the first player; `bonus` None: "longest"; `deck` None: standard."""

    EVENT: ClassVar[str] = "setup"
    players: tuple[Name, ...]
    dealer: Name | None = None
    bonus: str | None = entry(None, schema={"enum": ["longest", "most"]})
    deck: Deck | None = entry(None, read=_read_deck, write=_write_deck, schema=DECK_SCHEMA)


@dataclass(frozen=True, slots=True)
class RoundStart:
    EVENT: ClassVar[str] = "round_start"
    number: int | None = entry(None, key="round")


@dataclass(frozen=True, slots=True)
class Lay:
    """A player's lay-down: words and unused cards in card notation."""

    EVENT: ClassVar[str] = "lay"
    player: Name
    words: tuple[Word, ...] = ()
    unused: str = entry("", omit=True)
    went_out: bool = entry(False, omit=True)


@dataclass(frozen=True, slots=True)
class Challenge:
    """`challenger` names `owner`'s laid word `word` (card notation); the table's verdict `allowed`."""

    EVENT: ClassVar[str] = "challenge"
    challenger: Name
    owner: Name = entry(key="player")
    word: Word = entry()
    allowed: bool = entry()


@dataclass(frozen=True, slots=True)
class RoundEnd:
    EVENT: ClassVar[str] = "round_end"


TableEvent = RoundStart | Lay | Challenge | RoundEnd
CODEC: Codec[Setup | TableEvent] = Codec(Setup, RoundStart, Lay, Challenge, RoundEnd)


def start(setup: Setup) -> Game:
    """The game a set-up line starts. Raises `RuleError`."""
    bonus = setup.bonus if setup.bonus is not None else "longest"
    return new_game(setup.players, dealer=setup.dealer, two_player_bonus=bonus, deck=setup.deck or STANDARD_DECK)


def apply(game: Game, event: TableEvent, line: int) -> Game:
    """The game after a table event at record line `line`. Raises `RuleError`."""
    deck = game.setup.deck
    match event:
        case RoundStart(number=number):
            expected = len(game.rounds) + 1
            if number is not None and number != expected:
                raise SequenceError(f"'round' is {number}, but the next round is {expected}")
            return start_round(game)
        case Lay(player, words, unused, went_out):
            laid = [parse_cards(text, deck) for text in words]
            return lay_down(game, player, laid, parse_cards(unused, deck, allow_empty=True), went_out)
        case Challenge(challenger, owner, word, allowed):
            return challenge(game, challenger, owner, parse_cards(word, deck), allowed)
        case RoundEnd():
            return end_round(game)


RULES: Rules[Setup, Game, TableEvent] = Rules(GAME_ID, CODEC, Setup, start, apply, QuiddlerReport)


def score_record(record: GameRecord) -> QuiddlerReport:
    """Replay and score a Quiddler record: the rounds ended are scored, a round still open is named (a
    record that stops before the eighth round's end is unfinished). Raises `RecordError` (with the
    line) on a broken one."""
    return QuiddlerReport(RULES.replay(record))
