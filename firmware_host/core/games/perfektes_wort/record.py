"""Das perfekte Wort's events in the game record (docs/perfektes-wort.md) and `score_record`.

Each event line maps 1:1 to a table event of `game.py`; the line number is passed on as the event's
`ref`, so a rule broken anywhere — also one found only while scoring — is reported with its line.
"""

from __future__ import annotations

from typing import Any

from firmware_host.core.record import GameRecord, RecordError, RecordLine

from .data import card_from_code, deck_from_codes, sheet_from_mapping, vowels_from_mapping
from .errors import DataError, RuleError
from .game import (
    Card,
    Correct,
    Game,
    Reveal,
    Setup,
    Shorten,
    SoloStrike,
    Strike,
    TableEvent,
    Verdict,
    Word,
    apply,
    new_game,
)
from .lexicon import Lexicon
from .report import Report
from .scoring import score

EVENTS = ("setup", "card", "reveal", "word", "verdict", "shorten", "correct", "strike", "solo_strike")


def setup_from_line(line: RecordLine) -> Setup:
    """The `setup` line: players, sheet (embedded, so a record stays scorable), vowels, deck order (the
    cards known at the start; `card` lines add the rest)."""
    if line.event != "setup":
        raise line.error("the first event must be 'setup'")
    names: list[str] = line.texts("players")
    players = tuple(name.strip() for name in names)
    sheet_data = line.data.get("sheet")
    if not isinstance(sheet_data, dict):
        raise line.error("'sheet' must be the sheet side as an object (side, rows, arrows, bonus)")
    try:
        sheet = sheet_from_mapping(sheet_data)
    except DataError as exc:
        raise line.error(f"sheet.{exc.message}") from None
    try:
        vowels = vowels_from_mapping(line.data.get("vowels"), "vowels")
        deck = deck_from_codes(line.data.get("deck"), "deck", minimum=0)
    except DataError as exc:
        raise line.error(exc.message) from None
    return Setup(
        players=players,
        sheet=sheet,
        vowels=vowels,
        deck=deck,
        points_card=line.text("points_card", ""),
        house_rules=tuple(line.texts("house_rules", [])),
    )


def event_from_line(line: RecordLine) -> TableEvent:
    """The table event of one line after the setup."""
    name = line.event
    if name == "reveal":
        return Reveal(line.whole("round"))
    if name == "card":
        try:
            return Card(card_from_code(line.text("card"), "card"))
        except DataError as exc:
            raise line.error(exc.message) from None
    if name == "solo_strike":
        return SoloStrike(line.whole("round"), line.text("player"), line.text("field"))
    if name not in EVENTS or name == "setup":
        what = "a second 'setup'" if name == "setup" else f"unknown event {name!r}"
        raise line.error(f"{what}; events are: {', '.join(EVENTS)}")
    rnd, player = line.whole("round"), line.text("player")
    if name == "word":
        return Word(rnd, player, line.text("word"))
    if name == "verdict":
        return Verdict(rnd, player, line.flag("valid"))
    if name == "shorten":
        return Shorten(rnd, player, line.text("to"))
    if name == "correct":
        return Correct(rnd, player, line.text("word"))
    return Strike(rnd, player)


def game_from_record(record: GameRecord, lexicon: Lexicon | None = None) -> Game:
    """Replay a record into a game. Raises `RecordError` with the line of the first broken rule."""
    if record.game != "perfektes-wort":
        raise RecordError(0, f"this is a record of {record.game!r}, not of Das perfekte Wort")
    if not record.lines:
        raise RecordError(0, "the record has no setup line")
    first = record.lines[0]
    try:
        game = new_game(setup_from_line(first), lexicon)
    except RuleError as exc:
        raise first.error(exc.message) from None
    for line in record.lines[1:]:
        event = event_from_line(line)
        try:
            game = apply(game, event, line.line)
        except RuleError as exc:
            raise line.error(exc.message) from None
    return game


def score_record(record: GameRecord) -> Report:
    """Score a whole record (`wordtable score`). Raises `RecordError` naming the line at fault."""
    game = game_from_record(record)
    try:
        result = score(game)
    except RuleError as exc:
        raise RecordError(exc.ref, exc.message) from None
    return Report(game, result)


def setup_to_line(setup: Setup) -> dict[str, Any]:
    """The record line of a setup (the inverse of `setup_from_line`); the sheet is embedded whole."""
    return {
        "event": "setup",
        "players": list(setup.players),
        "sheet": setup.sheet.to_json(),
        "points_card": setup.points_card,
        "vowels": dict(setup.vowels),
        "deck": [card.code for card in setup.deck],
        "house_rules": list(setup.house_rules),
    }


def event_to_line(event: TableEvent) -> dict[str, Any]:
    """The record line of a table event (the inverse of `event_from_line`)."""
    if isinstance(event, Reveal):
        return {"event": "reveal", "round": event.round}
    if isinstance(event, Card):
        return {"event": "card", "card": event.card.code}
    line: dict[str, Any] = {"round": event.round, "player": event.player}
    if isinstance(event, Word):
        return {"event": "word", **line, "word": event.word}
    if isinstance(event, Verdict):
        return {"event": "verdict", **line, "valid": event.valid}
    if isinstance(event, Shorten):
        return {"event": "shorten", **line, "to": event.to}
    if isinstance(event, Correct):
        return {"event": "correct", **line, "word": event.word}
    if isinstance(event, Strike):
        return {"event": "strike", **line}
    return {"event": "solo_strike", **line, "field": event.field}
