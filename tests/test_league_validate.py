"""The league's own schema checker (league/validate.py) against jsonschema: the same verdict on every
payload hypothesis makes from valid messages (fields dropped, added, or replaced by any JSON value), the
schemas it ships the ones docs/ publishes, and a schema keyword it does not know refused."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.league.validate import KINDS, SchemaError, compile_schema, problems, schema

DOCS = Path(__file__).resolve().parent.parent / "docs"
STATIC = Path(__file__).resolve().parent.parent / "firmware_host" / "league" / "static"

VALID: dict[str, dict[str, Any]] = {
    "status": {"venue": "cafe", "table": "1", "online": True},
    "state": {"venue": "cafe", "table": "1", "online": True, "mode": "game", "game": "quiddler",
              "players": [{"name": "Ann", "total": 12}, {"name": "Ben", "total": 0}],
              "timer": {"running": True, "alarmed": False, "duration": 60, "deadline": 1700000000.5, "left": None},
              "seq": 3, "sent_at": 1699999990.25},
    "game": {"venue": "cafe", "table": "1", "id": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "game": "quiddler",
             "players": ["Ann", "Ben"], "started": "2026-01-01T19:00:00Z", "finished": "2026-01-01T20:00:00Z",
             "winner": "Ann", "record": "{}\n"},
}

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 70), st.floats(allow_nan=False, width=32),
                    st.sampled_from(["", "1", "cafe", "a b", "x" * 65, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
                                     "timer", "game", "scoreboard", "Ann"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["name", "total", "running", "x"]), inner, max_size=3),
                      max_leaves=6)


@st.composite
def payloads(draw: st.DrawFn, kind: str) -> Any:
    """A valid message of `kind` changed at up to three places (at any depth), or any JSON value at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(values)
    data = json.loads(json.dumps(VALID[kind]))
    for _ in range(draw(st.integers(0, 3))):
        node = data
        while isinstance(node, dict) and node and draw(st.booleans()):  # go deeper now and then
            inner = [key for key, value in node.items() if isinstance(value, (dict, list)) and value]
            if not inner:
                break
            chosen = node[draw(st.sampled_from(inner))]
            node = chosen[0] if isinstance(chosen, list) else chosen
        if not isinstance(node, dict):
            continue
        action = draw(st.sampled_from(["drop", "add", "replace"]))
        if action == "drop" and node:
            del node[draw(st.sampled_from(sorted(node)))]
        elif action == "add":
            node[draw(st.sampled_from(["extra", "name", "seq"]))] = draw(values)
        elif node:
            node[draw(st.sampled_from(sorted(node)))] = draw(values)
    return data


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_checker_agrees_with_jsonschema(kind, data):
    payload = data.draw(payloads(kind))
    valid = jsonschema.Draft202012Validator(schema(kind)).is_valid(payload)
    assert (problems(kind, payload) == []) == valid, payload


@pytest.mark.parametrize("kind", KINDS)
def test_the_valid_examples_pass_and_the_shipped_schemas_are_the_published_ones(kind):
    assert (STATIC / f"league-{kind}.schema.json").read_bytes() == (DOCS / f"league-{kind}.schema.json").read_bytes()
    assert problems(kind, VALID[kind]) == []
    jsonschema.Draft202012Validator(schema(kind)).validate(VALID[kind])


def test_the_malformed_states_of_the_issue_are_refused_and_say_where():
    five = {**VALID["state"], "players": 5}
    nulls = {**VALID["state"], "players": [None]}
    assert problems("state", five) == ["/players: not array"]
    assert problems("state", nulls) == ["/players/0: not object"]
    assert problems("state", {**VALID["state"], "online": 1}) == ["/online: not true"]
    assert problems("state", {**VALID["state"], "seq": 2.0}) == []  # JSON has no integer type of its own
    assert problems("status", [1]) == ["(message): not object"]
    assert problems("game", {**VALID["game"], "id": "x", "oops": 1}) == [
        "/id: does not match ^[0-9a-f-]{36}$", "(message): 'oops' is not allowed"]
    assert problems("state", {**VALID["state"], "sent_at": math.inf}) == []


def test_a_keyword_the_checker_does_not_know_is_refused():
    with pytest.raises(SchemaError, match="maxLength"):
        compile_schema({"type": "string", "maxLength": 3})
    with pytest.raises(SchemaError, match="oneOf"):
        compile_schema({"properties": {"a": {"oneOf": []}}})


def test_the_league_drops_an_invalid_message_logs_its_table_and_marks_the_table_for_the_board(tmp_path, caplog):
    from firmware_host.config import LeagueConfig
    from firmware_host.league.service import League

    league = League(LeagueConfig("mqtt://127.0.0.1:1", "cafe", "league", None, None, None), "cafe",
                    tmp_path / "league.sqlite", bind="127.0.0.1", port=0)  # never started: no broker, no board
    sent: list[dict] = []
    league._send_all = sent.append  # type: ignore[method-assign]
    bad = json.dumps({**VALID["state"], "table": "7", "players": 5}).encode()
    with caplog.at_level("WARNING", logger="wordtable.league"):
        league._handle("wordtable/cafe/7/state", bad, 1.0)
    assert "table 7 sent an invalid state message, dropped: /players: not array" in caplog.text
    assert league.tables["7"].state is None
    assert sent[-1]["table"] == "7" and sent[-1]["invalid"] == "/players: not array" and sent[-1]["state"] == {}
    league._handle("wordtable/cafe/7/state", json.dumps({**VALID["state"], "table": "7"}).encode(), 2.0)
    assert sent[-1]["invalid"] is None and sent[-1]["state"]["players"] == VALID["state"]["players"]
    caplog.clear()
    with caplog.at_level("WARNING", logger="wordtable.league"):
        league._handle("wordtable/cafe/8/games", json.dumps({**VALID["game"], "table": "8", "id": "x"}).encode(), 3.0)
    assert "table 8 sent an invalid games message" in caplog.text and "8" not in league.tables
    assert league.received == 0  # never handed to the store
