"""`wordtable score` on the Knack das Wort example record and on broken records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli import wordtable

pytestmark = pytest.mark.slow  # runs the program in a subprocess

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "knack-das-wort.jsonl"


def test_cli_prints_the_german_table() -> None:
    result = wordtable("score", str(EXAMPLE))
    assert result.returncode == 0, result.stderr
    assert "Spielende: kein Platz mehr in der Tabelle" in result.stdout
    assert "Gewonnen: Cem" in result.stdout
    assert "setzt aus (Stop)" in result.stdout


def test_cli_english_and_json() -> None:
    english = wordtable("score", str(EXAMPLE), "--lang", "en")
    assert "Game over: no space left in the grid" in english.stdout
    assert "Winner: Cem" in english.stdout
    result = wordtable("score", str(EXAMPLE), "--json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    # Worked by hand in docs/knack-das-wort.md.
    assert [
        (s["player"], s["letters"], s["bonus"], s["left"], s["points"], s["rank"]) for s in data["standings"]
    ] == [
        ("Cem", 15, 10, 0, 25, 1),
        ("Anna", 20, 0, 4, 16, 2),
        ("Ben", 14, 0, 2, 12, 3),
    ]
    assert data["end"] == "grid" and data["winners"] == ["Cem"]


def run_lines(tmp_path: Path, lines: list[str]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return wordtable("score", str(path), "--lang", "en")  # the rules' English texts (German: the default)


def test_a_play_out_of_turn_names_its_line(tmp_path: Path) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    lines[4] = '{"event": "word", "player": "Cem", "word": "DACH"}'  # Ben's turn on line 5
    result = run_lines(tmp_path, lines)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 5: word: it is Ben's turn, not Cem's" in result.stderr


def test_malformed_records(tmp_path: Path) -> None:
    header = '{"record": "wordtable", "version": 1, "game": "knack-das-wort"}'
    setup = '{"event": "setup", "players": ["A", "B"]}'
    end = '{"event": "end", "reason": "grid"}'
    cases = {
        "line 3: word: give the 'word' written or its number of 'letters'": [
            header, setup, '{"event": "word", "player": "A"}'],
        "line 3: word: 'letters' must be a whole number": [
            header, setup, '{"event": "word", "player": "A", "letters": "4"}'],
        "line 4: word: the game is already over (no space left in the grid)": [
            header, setup, end, '{"event": "word", "player": "A", "word": "OHR"}'],
    }  # fmt: skip
    for expected, lines in cases.items():
        result = run_lines(tmp_path, lines)
        assert result.returncode == 2, expected
        assert result.stdout == ""
        assert expected in result.stderr, result.stderr
