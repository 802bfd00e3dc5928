"""`wordtable stats`: the statistics per person over a journal of games played at the table, read-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.journal import Journal
from firmware_host.paths import journal_path
from tests.history_journal import archive, history_journal


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return history_journal(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["stats", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_everyone_most_recently_played_first_and_the_evenings(state, capsys):
    code, out, _ = run(capsys, "--state-dir", str(state))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Personen (zuletzt gespielt zuerst)"
    names = [line.split()[0] for line in lines[2:lines.index("")]]
    assert names[:2] == ["Ann", "Bob"] and set(names[2:]) == {"Geli", "Klaus", "Anna", "Ben", "Cem"}
    geli = next(line.split() for line in lines if line.split()[:1] == ["Geli"])
    assert geli[1:4] == ["2", "2", "2"]  # two games of Das perfekte Wort, both won: a streak of two
    evenings = lines[lines.index("Die letzten Abende") + 1:]
    assert [e.split(" · ")[1] for e in evenings] == ["Spiele: 1", "Spiele: 3"]  # a week apart: two evenings


def test_a_persons_games_best_word_rivals_and_think_time_in_minutes_never_points(state, capsys):
    code, out, _ = run(capsys, "--state-dir", str(state), "--person", "Geli")
    assert code == 0
    assert out.splitlines()[0] == "Geli · Spiele: 2 · Siege: 2 · Serie: 2"
    row = next(line for line in out.splitlines() if line.strip().startswith("Das perfekte Wort"))
    assert row.split()[3:6] == ["2", "2", "180"]  # games, wins, average
    assert "Klaus: 2 zusammen · Geli 2 : 0 Klaus" in out
    code, out, _ = run(capsys, "--state-dir", str(state), "--person", "Cem", "--lang", "en")
    assert code == 0 and "Think time (turn timer): 0:54 min" in out and "Average" not in out
    code, data, _ = run(capsys, "--state-dir", str(state), "--person", "Cem", "--json")
    stats = json.loads(data)["games"][0]
    assert (stats["game"], stats["think_time"]) == ("zugzeit", "0:54")
    assert stats["average"] is None and stats["best_total"] is None


def test_json_is_the_pages_data_and_an_unknown_person_or_journal_says_so(state, tmp_path, capsys):
    code, out, _ = run(capsys, "--state-dir", str(state), "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 4 and data["people"][1] == {
        "name": "Bob", "played": 1, "won": 1, "streak": 1, "last_played": "2026-05-08T20:00:00Z"}
    code, _, err = run(capsys, "--state-dir", str(state), "--person", "Zoë")
    assert code == 1 and "niemand namens 'Zoë'" in err
    code, out, _ = run(capsys, "--state-dir", str(tmp_path / "empty"))
    assert code == 0 and out == "noch keine beendeten Spiele\n"
    (tmp_path / "bad").mkdir()
    journal_path(tmp_path / "bad").write_bytes(b"not a journal")
    code, _, err = run(capsys, "--state-dir", str(tmp_path / "bad"))
    assert code == 1 and err.startswith("wordtable stats:")


def test_it_reads_the_journal_without_writing_it_and_leaves_abandoned_games_out(state, capsys):
    with Journal.open(journal_path(state)) as journal:
        record = "\n".join(line for line in journal.export_record(1).splitlines()[:5]) + "\n"  # 3 lines in
        archive(journal, "perfektes-wort", "2026-05-09T19:00:00Z", "2026-05-09T19:05:00Z", record)
    before = journal_path(state).read_bytes()
    code, out, _ = run(capsys, "--state-dir", str(state), "--json")
    assert code == 0 and json.loads(out)["games"] == 4  # the abandoned game counts for nobody
    assert journal_path(state).read_bytes() == before
