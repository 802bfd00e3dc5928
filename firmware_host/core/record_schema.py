"""The game record as a published contract: a JSON Schema (draft 2020-12) of every record line of every game,
generated from the record codecs (`core.record_codec`) of the games in `games.registry`.

`record_schema()` is what `wordtable score --schema` prints and what docs/record-schema.json holds (a test
checks that the file is this function's output). A line is the header or an event line of one of the
games (games share event names such as "setup", so the header's `game` says which). `$defs` holds the
header, each game's lines (`<game>.<event>`), per game the choice of them (`<game>`), and each kind of
text (`text.<kind>`, `core.text_input`). The schema describes the lines as the appliance writes them
(texts normalised); the reader also takes text that normalises to such (NFD umlauts, extra spaces). What
it cannot say (the order of events, the game's rules) the game's page in docs/ does.
"""

from __future__ import annotations

from typing import Any

from firmware_host.core.games import registry
from firmware_host.core.record import RECORD_MARK, RECORD_VERSION
from firmware_host.core.text_input import text_schemas


def record_schema() -> dict[str, Any]:
    """The JSON Schema of one line of a game record (version `RECORD_VERSION`), all games."""
    games = [kit for kit in registry.GAMES if kit.rules is not None]
    defs: dict[str, Any] = {
        "header": {
            "type": "object",
            "description": "line 1 of every record",
            "properties": {
                "record": {"const": RECORD_MARK},
                "version": {"const": RECORD_VERSION},
                "game": {"enum": [kit.id for kit in games]},
            },
            "required": ["record", "version", "game"],
        }
    }
    defs |= text_schemas()
    for kit in games:
        assert kit.rules is not None
        lines = kit.rules.codec.schemas()
        for event, schema in lines.items():
            defs[f"{kit.id}.{event}"] = schema
        setup = kit.rules.setup.EVENT
        defs[kit.id] = {
            "description": f"an event line of {kit.name('en')} (the first one is its '{setup}')",
            "oneOf": [{"$ref": f"#/$defs/{kit.id}.{event}"} for event in lines],
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"wordtable game record, version {RECORD_VERSION}: one line",
        "description": (
            "A record is UTF-8 JSON Lines: the header, then one event line per table event, of the game the "
            "header names (docs/record-format.md). Keys not listed are allowed and ignored."
        ),
        "anyOf": [{"$ref": "#/$defs/header"}, *({"$ref": f"#/$defs/{kit.id}"} for kit in games)],
        "$defs": defs,
    }
