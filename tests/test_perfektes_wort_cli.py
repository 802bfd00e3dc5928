"""`wordtable score` on Das perfekte Wort records: the documented example, JSON, broken records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from firmware_host.cli import main
from tests.cli import wordtable

pytestmark = pytest.mark.slow  # runs the program in a subprocess

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "perfektes-wort.jsonl"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return wordtable("score", *args)


def test_example_prints_the_table_in_german() -> None:
    done = run(str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Runde 9 · Anfangsbuchstabe D · höchstens 8 Buchstaben" in out
    assert "TAGTRÄUME → TAG" in out and "WÜRSTE (gestrichen)" in out
    assert "Bonus: CK eingekreist von Geli, Klaus" in out
    assert "Gewonnen: Geli" in out


def test_example_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Final standings" in out and "Winner: Geli" in out and "struck" in out


def test_example_json_has_the_hand_checked_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    players = {p["name"]: p for p in data["players"]}
    # worked out by hand from docs/perfektes-wort.md's example game
    assert {
        n: (p["word_points"], p["vowel_points"], p["bonus_points"], p["total"], p["rank"])
        for n, p in players.items()
    } == {
        "Geli": (85, 75, 20, 180, 1),
        "Klaus": (65, 54, 20, 139, 3),
        "Mia": (70, 56, 15, 141, 2),
    }
    assert [r["points"] for r in players["Klaus"]["rows"]] == [10, 5, 5, 10, 10, 5, 15, 0, 5]
    assert players["Geli"]["vowels"]["E"] == {"count": 9, "value": 5, "points": 45}
    assert sorted(f["field"] for f in players["Geli"]["circled"]) == ["CH", "CK", "W", "Ö"]
    assert {"field": "CK", "round": 3, "with": ["Geli", "Klaus"]} in players["Klaus"]["circled"]
    assert players["Klaus"]["rows"][1]["word"] == "TAG" and players["Klaus"]["rows"][7]["status"] == "struck"
    assert players["Mia"]["rows"][0]["grey_hits"] == [{"cell": 2, "letter": "A"}]
    assert data["winners"] == ["Geli"] and data["shared_win"] is False


def test_broken_line_fails_with_its_number_and_prints_nothing(tmp_path: Path) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    lines[6] = lines[6][:-3]  # line 7: cut off JSON
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run(str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert "line 7" in done.stderr and "not valid JSON" in done.stderr


def test_rule_broken_in_a_line_names_that_line(tmp_path: Path) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if '"Hecke"' in line)
    lines[index] = lines[index].replace('"Hecke"', '"Zecke"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run(str(bad), "--json", "--lang", "en")
    assert done.returncode == 2 and done.stdout == ""
    assert f"line {index + 1}: word: ZECKE does not start with round 3's letter H" in done.stderr


def test_unresolved_word_names_its_line(tmp_path: Path) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    strike = next(i for i, line in enumerate(lines) if '"strike"' in line)
    word = next(i for i, line in enumerate(lines) if "Würste" in line)
    bad = tmp_path / "bad.jsonl"
    # the record ends before the strike: found while scoring, blamed on the word's line
    bad.write_text("\n".join(lines[:strike]) + "\n", encoding="utf-8")
    done = run(str(bad), "--lang", "en")
    assert done.returncode == 2 and done.stdout == ""
    assert f"line {word + 1}: Klaus, round 8: WÜRSTE has 6 letters, the maximum is 5" in done.stderr
    # the strike is missing but the game goes on: the next reveal is refused
    bad.write_text("\n".join(lines[:strike] + lines[strike + 1 :]) + "\n", encoding="utf-8")
    done = run(str(bad), "--lang", "en")
    assert done.returncode == 2 and done.stdout == ""
    assert f"line {strike + 1}: reveal: before the next card: Klaus, round 8: WÜRSTE" in done.stderr


def test_unknown_event_and_missing_field(tmp_path: Path) -> None:
    head = EXAMPLE.read_text(encoding="utf-8").splitlines()[:3]
    for extra, message in (
        ('{"event": "dance", "round": 1}', "line 4: dance: unknown event; this game knows: setup, card, reveal"),
        (
            '{"event": "word", "round": 1, "player": "Mia"}',
            "line 4: word: 'word' must be a text, and is missing",
        ),
    ):
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join([*head, extra]) + "\n", encoding="utf-8")
        done = run(str(bad))
        assert done.returncode == 2 and done.stdout == "" and message in done.stderr


def test_the_game_docs_show_the_current_output() -> None:
    doc = (ROOT / "docs" / "perfektes-wort.md").read_text(encoding="utf-8")
    assert run(str(EXAMPLE)).stdout in doc
    assert EXAMPLE.read_text(encoding="utf-8").splitlines()[-1] in doc


def _cards_round_by_round(tmp_path: Path, keep: int = 1) -> tuple[Path, list[dict]]:
    """The example record with only `keep` cards in its setup and each further card in a `card` line
    just before the reveal that first needs it (physical cards scanned round by round)."""
    header, setup, *events = (json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines())
    deck = setup["deck"]
    setup = {**setup, "deck": deck[:keep]}
    lines: list[dict] = [header, setup]
    known = keep
    for event in events:
        if event["event"] == "reveal":
            while known < event["round"] + 1:
                lines.append({"event": "card", "card": deck[known]})
                known += 1
        lines.append(event)
    path = tmp_path / "cards.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path, lines


def test_cards_entered_round_by_round_score_as_the_whole_deck_in_the_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for keep in (0, 1, 4):
        path, lines = _cards_round_by_round(tmp_path, keep)
        assert sum(1 for line in lines if line.get("event") == "card") == 10 - keep
        assert main(["score", str(path), "--json"]) == 0
        by_cards = capsys.readouterr().out
        assert main(["score", str(EXAMPLE), "--json"]) == 0
        assert by_cards == capsys.readouterr().out


def test_a_reveal_before_its_card_and_a_card_too_many_name_their_line(tmp_path: Path) -> None:
    path, lines = _cards_round_by_round(tmp_path)
    first_card = next(i for i, line in enumerate(lines) if line.get("event") == "card")
    missing = lines[:first_card] + lines[first_card + 1:]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in missing), encoding="utf-8")
    done = run(str(path), "--lang", "en")
    assert done.returncode != 0
    assert f"line {first_card + 1}" in done.stderr and "round 1 needs card 2" in done.stderr
    extra = [*lines[:2], *({"event": "card", "card": "B7"} for _ in range(10))]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in extra), encoding="utf-8")
    done = run(str(path), "--lang", "en")
    assert done.returncode != 0 and "line 12" in done.stderr and "already holds the 10 cards" in done.stderr
