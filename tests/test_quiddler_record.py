"""Quiddler records: the documented example, `wordtable score` on it, and broken records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.core.games.quiddler.record import score_record
from firmware_host.core.games.registry import parse_record
from firmware_host.core.record import RecordError
from tests.cli import wordtable
from tests.quiddler_games import FOUR_FINAL, FOUR_GAME

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "quiddler.jsonl"
HEADER = '{"record": "wordtable", "version": 1, "game": "quiddler"}'


def test_example_record_is_the_hand_checked_four_player_game() -> None:
    report = score_record(parse_record(EXAMPLE.read_text(encoding="utf-8")))
    data = report.to_json()
    assert data["finished"] and data["rounds_played"] == 8
    assert data["totals"] == FOUR_FINAL
    assert data["winners"] == ["Dora"]
    for scored, (_, _, expected) in zip(data["rounds"], FOUR_GAME, strict=True):
        got = {
            p["player"]: (
                p["card_score"],
                p["challenges"],
                p["most_words_bonus"],
                p["longest_word_bonus"],
                p["total"],
            )
            for p in scored["players"]
        }
        assert got == expected
    lost = [w["cards"] for r in data["rounds"] for p in r["players"] for w in p["words"] if not w["counts"]]
    assert lost == ["OX", "(ER)A"]


def test_score_prints_the_german_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Runde 8: 10 Karten, Geber Cem, beginnt Dora, ausgegangen: Dora" in out
    assert "Endstand nach 8 von 8 Runden:" in out
    assert "1. Dora   165" in out
    assert "Sieg: Dora" in out
    assert "(ER)A✗" in out and "QUIT✓" in out


def test_score_in_english_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: 3 cards, dealer Dora, starts Ann, went out: Ann" in out
    assert "Winner: Dora" in out
    assert main(["score", str(EXAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ranking"][0] == {"place": 1, "player": "Dora", "total": 165}


@pytest.mark.slow
def test_score_command_as_a_program() -> None:
    done = wordtable("score", str(EXAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == FOUR_FINAL


def test_broken_record_exits_2_naming_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4].replace('"AT"', '"A"')  # Bob's word of one card in round 1
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", str(path)]) == 2  # German by default
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Zeile 5: lay: Wort 1 von Bob (A) hat 1 Karte(n); ein Wort braucht mindestens zwei" in captured.err
    assert main(["score", "--lang", "en", str(path)]) == 2
    assert "line 5: lay: Bob's word 1 (A) has 1 card(s); a word needs at least two cards" in capsys.readouterr().err


def test_a_broken_deck_in_the_record_is_named_in_the_readers_language(tmp_path: Path, capsys) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    setup = json.loads(lines[1])
    setup["deck"] = {"a": [1, 2], "B": [0, 8], "C": "x"}
    lines[1] = json.dumps(setup)
    path = tmp_path / "deck.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Zeile 2: setup: Kartenspiel: Karte „a“: eine Karte ist ein oder zwei Großbuchstaben" in err
    assert "Karte „B“: die Anzahl ist eine ganze Zahl ab 1, nicht 0" in err and "Karte „C“: Anzahl und Wert" in err
    assert main(["score", "--lang", "en", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 2: setup: deck: card 'a': a face is one or two capital letters A-Z" in err
    assert "card 'B': copies must be a whole number of at least 1, not 0" in err


def record(*events: str) -> str:
    return "\n".join([HEADER, *events]) + "\n"


SETUP = '{"event": "setup", "players": ["Ann", "Bob"]}'
START = '{"event": "round_start"}'


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (record(START), 2, "the first event must be 'setup'"),
        (record(SETUP, SETUP), 3, "already set up"),
        (record(SETUP, '{"event": "deal"}'), 3, "unknown event"),
        (record(SETUP, '{"event": "round_start", "round": 2}'), 3, "the next round is 1"),
        (record(SETUP, START, '{"event": "lay", "player": "Ann", "words": ["(QI)T"]}'), 4, "no card QI"),
        (
            record(SETUP, START, '{"event": "lay", "player": "Ann", "words": ["CAT"], "unused": "E"}'),
            4,
            "deals 3",
        ),
        (
            record(SETUP, START, '{"event": "lay", "player": "Zoe", "words": ["CAT"]}'),
            4,
            "'Zoe' is not a player",
        ),
        (
            record(SETUP, START, '{"event": "lay", "player": "Ann", "words": "CAT"}'),
            4,
            "'words' must be a list",
        ),
        (record(SETUP, START, '{"event": "round_end"}'), 4, "Ann, Bob has not laid down"),
        (record('{"event": "setup", "players": ["Ann"], "bonus": "all"}'), 2, "'longest' or 'most'"),
        (record('{"event": "setup", "players": ["Ann"], "deck": {"A": [118, 2]}}'), 0, None),
        (record('{"event": "setup", "players": ["Ann"], "deck": {"A": [117, 2]}}'), 2, "add up to 117 cards"),
        (
            record(
                SETUP,
                START,
                '{"event": "lay", "player": "Ann", "words": ["CAT"], "went_out": true}',
                '{"event": "challenge", "challenger": "Bob", "player": "Ann", "word": "CAT"}',
            ),
            5,
            "'allowed' must be true or false",
        ),
    ],
)
def test_broken_records(text: str, line: int, message: str | None) -> None:
    if message is None:  # a valid custom deck is accepted
        assert score_record(parse_record(text)).to_json()["rounds_played"] == 0
        return
    with pytest.raises(RecordError, match=message) as caught:
        score_record(parse_record(text))
    assert caught.value.line == line


def test_a_game_in_progress_scores_the_rounds_played() -> None:
    text = record(
        SETUP,
        START,
        '{"event": "lay", "player": "Ann", "words": ["CAT"], "went_out": true}',
        '{"event": "lay", "player": "Bob", "words": [], "unused": "QXJ"}',
        '{"event": "round_end"}',
    )
    report = score_record(parse_record(text))
    assert report.to_json()["totals"] == {"Ann": 23, "Bob": 0}  # CAT 13 + longest word 10
    assert "Endstand nach 1 von 8 Runden" in report.text("de")
