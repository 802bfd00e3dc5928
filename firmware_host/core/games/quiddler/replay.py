"""Reading a Quiddler game record (JSON Lines, see docs/quiddler.md) into a scored `Game`.

Events, after the header `{"record": "wordtable", "version": 1, "game": "quiddler"}`:
- `setup`: `players` (seating order, clockwise), optional `dealer` (deals round 1; default the first
  player), optional `bonus` ("longest" or "most": the one bonus of a two-player game, default longest),
  optional `deck` (`{face: [copies, value]}`, only when the game was played with a non-standard deck).
- `round_start`: optional `round` (checked against the expected number).
- `lay`: `player`, `words` (list of words in card notation, e.g. "(QU)IT"), `unused` (cards in notation,
  default ""), `went_out` (default false).
- `challenge`: `challenger`, `player` (the word's owner), `word` (card notation), `allowed` (verdict).
- `round_end`.
Any rule broken is reported as a `RecordError` with the line number.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.core.record import GameRecord, RecordError, RecordLine

from .deck import STANDARD_DECK, deck_from_table
from .errors import RuleError
from .game import Game, challenge, end_round, lay_down, new_game, start_round
from .notation import parse_cards

EVENTS = ("setup", "round_start", "lay", "challenge", "round_end")


def replay(record: GameRecord) -> Game:
    """Apply every event of `record` in order; the game after the last one (all rounds closed)."""
    game: Game | None = None
    opened_at = 0
    for line in record.lines:
        if line.event not in EVENTS:
            raise line.error(f"unknown event; a Quiddler record knows {', '.join(EVENTS)}")
        try:
            if line.event == "setup":
                if game is not None:
                    raise line.error("the game is already set up (setup comes once, first)")
                game = _setup(line)
                continue
            if game is None:
                raise line.error("the first event must be 'setup'")
            if line.event == "round_start":
                opened_at = line.line
            game = _STEPS[line.event](game, line)
        except RuleError as exc:
            raise line.error(exc.message) from None
    if game is None:
        raise RecordError(0, "the record has no 'setup' event")
    if game.current is not None:
        raise RecordError(opened_at, f"round {game.current.plan.number} was started but never ended")
    return game


def _setup(line: RecordLine) -> Game:
    deck = STANDARD_DECK
    if line.has("deck"):
        table = line.data["deck"]
        if not isinstance(table, dict):
            raise line.error("'deck' must be an object {face: [copies, value]}")
        deck = deck_from_table(table)
    dealer = line.text("dealer") if line.has("dealer") else None
    bonus = line.text("bonus", "longest")
    return new_game(line.texts("players"), dealer=dealer, two_player_bonus=bonus, deck=deck)


def _round_start(game: Game, line: RecordLine) -> Game:
    if line.has("round"):
        expected = len(game.rounds) + 1
        if line.whole("round") != expected:
            raise line.error(f"'round' is {line.whole('round')}, but the next round is {expected}")
    return start_round(game)


def _lay(game: Game, line: RecordLine) -> Game:
    deck = game.setup.deck
    words = [parse_cards(text, deck) for text in line.texts("words", [])]
    unused = parse_cards(line.text("unused", ""), deck, allow_empty=True)
    return lay_down(game, line.text("player"), words, unused, line.flag("went_out", False))


def _challenge(game: Game, line: RecordLine) -> Game:
    word = parse_cards(line.text("word"), game.setup.deck)
    return challenge(game, line.text("challenger"), line.text("player"), word, line.flag("allowed"))


def _round_end(game: Game, line: RecordLine) -> Game:
    return end_round(game)


_STEPS: dict[str, Callable[[Game, RecordLine], Game]] = {
    "round_start": _round_start,
    "lay": _lay,
    "challenge": _challenge,
    "round_end": _round_end,
}
