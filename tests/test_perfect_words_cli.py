"""`wordtable score` on the Perfect Words example record and on broken records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from firmware_host.core.games.perfect_words.record import score_record
from firmware_host.core.games.registry import parse_record
from tests.cli import wordtable

pytestmark = pytest.mark.slow  # runs the program in a subprocess

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "perfect-words.jsonl"


def test_example_scores_as_documented() -> None:
    report = score_record(parse_record(EXAMPLE.read_text(encoding="utf-8")))
    # Worked by hand in docs/perfect-words.md: 2+1+2+2+0+4+0+2+2+1.
    assert [a["points"] for a in report.to_json()["arrows"]] == [2, 1, 2, 2, 0, 4, 0, 2, 2, 1]
    assert report.to_json()["total"] == 16


def test_cli_prints_the_german_table() -> None:
    result = wordtable("score", str(EXAMPLE))
    assert result.returncode == 0, result.stderr
    assert "Summe: 16 Punkte – Rang: Unglaublich!" in result.stdout
    assert "Hinweis an den Tisch: Ben, Pfeil 10: „Mausefalle“ teilt „maus“ mit „Maus“" in result.stdout
    assert "[Mausefalle]" in result.stdout


def test_cli_english_and_json() -> None:
    english = wordtable("score", str(EXAMPLE), "--lang", "en")
    assert "Total: 16 points – rank: Incredible!" in english.stdout
    result = wordtable("score", str(EXAMPLE), "--json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["game"] == "perfect-words"
    assert (data["double"], data["ignore"], data["total"]) == (6, 5, 16)
    assert data["rank"] == {"key": "incredible", "de": "Unglaublich!", "en": "Incredible!"}
    merged = {"terms": ["welle", "wellen"], "players": ["Anna", "Ben", "Dora"]}
    assert data["arrows"][3]["groups"][0] == merged
    assert data["grid"] == {"recorded": True, "placed": 10, "complete": True}


def broken(tmp_path: Path, lines: list[str]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return wordtable("score", str(path), "--lang", "en")  # the rules' English texts (German: the default)


def test_a_rule_broken_in_the_record_names_its_line(tmp_path: Path) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    # the 30th line: one more term for Anna, repeating her "Abenteuer"
    lines.insert(29, '{"event": "term", "player": "Anna", "arrow": 7, "term": "ABENTEUER"}')
    result = broken(tmp_path, lines)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 30: term: Anna already wrote 'Abenteuer' for arrow 1" in result.stderr


def test_malformed_lines_name_their_line(tmp_path: Path) -> None:
    header = '{"record": "wordtable", "version": 1, "game": "perfect-words"}'
    setup = '{"event": "setup", "players": ["A", "B"]}'
    alone = '{"event": "setup", "players": ["A"]}'
    cases = {
        "line 3: term: 'arrow' must be a whole number": [header, setup, '{"event": "term", "player": "A"}'],
        "line 3: not valid JSON": [header, setup, "{oops"],
        "line 3: bloop: unknown event": [header, setup, '{"event": "bloop"}'],
        "line 2: the first event must be 'setup'": [header, '{"event": "reveal"}'],
        "line 2: setup: Perfect Words needs 2 to 6 players, not 1": [header, alone],
    }
    for expected, lines in cases.items():
        result = broken(tmp_path, lines)
        assert result.returncode == 2, expected
        assert result.stdout == ""
        assert expected in result.stderr
