"""`wordtable journal list|export` and the state-directory rule."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.core.games.registry import parse_record
from firmware_host.journal import RECORD, Journal
from firmware_host.paths import LOCAL_STATE_DIR, journal_path, state_dir


def test_state_dir_rule(tmp_path: Path) -> None:
    system = tmp_path / "var-lib-wordtable"
    assert state_dir("/x", {"STATE_DIRECTORY": "/y"}, system) == Path("/x")
    assert state_dir(None, {"STATE_DIRECTORY": "/y:/z"}, system) == Path("/y")
    assert state_dir(None, {}, system) == LOCAL_STATE_DIR  # absent
    system.mkdir()
    if os.geteuid() != 0:  # root may write anywhere, so only a non-root run can see the read-only case
        system.chmod(0o500)
        assert state_dir(None, {}, system) == LOCAL_STATE_DIR
        system.chmod(0o700)
    assert state_dir(None, {}, system) == system


@pytest.fixture
def state(tmp_path: Path) -> Path:
    with Journal.open(journal_path(tmp_path)) as journal:
        first = journal.start_game("quiddler", ["Anna", "Jörg"], wall_time="2026-05-01T19:00:00Z")
        journal.append(first, RECORD, {"event": "word", "word": "ÄRGER"}, "2026-05-01T19:01:00Z")
        journal.finish(first, "Jörg")
        second = journal.start_game("perfect-words", ["Cem"], wall_time="2026-05-02T19:00:00Z")
        journal.append(second, RECORD, {"event": "round"}, "2026-05-02T19:01:00Z")
        journal.append(second, "timer", {"remaining": 3.0}, "2026-05-02T19:02:00Z")
    return tmp_path


def test_list_shows_date_game_players_and_winner(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["journal", "list", "--state-dir", str(state)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "date", "game", "players", "winner"]
    assert lines[1].split() == ["1", "2026-05-01T19:00:00Z", "quiddler", "Anna,", "Jörg", "Jörg"]
    assert lines[2].split() == ["2", "2026-05-02T19:00:00Z", "perfect-words", "Cem", "(open)"]


@pytest.mark.slow
def test_export_defaults_to_the_latest_game(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["journal", "export", "--state-dir", str(state)]) == 0
    record = parse_record(capsys.readouterr().out)
    assert record.game == "perfect-words" and [line.event for line in record.lines] == ["round"]
    assert main(["journal", "export", "--game", "1", "--state-dir", str(state)]) == 0
    record = parse_record(capsys.readouterr().out)
    assert record.game == "quiddler" and record.lines[0].text("word") == "ÄRGER"


@pytest.mark.slow
def test_errors_name_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["journal", "list", "--state-dir", str(tmp_path)]) == 1
    assert f"no journal at {journal_path(tmp_path)}" in capsys.readouterr().err
    assert not journal_path(tmp_path).exists()  # listing never creates a journal
    Journal.open(journal_path(tmp_path)).close()
    assert main(["journal", "export", "--state-dir", str(tmp_path)]) == 1
    assert "no games" in capsys.readouterr().err
    assert main(["journal", "export", "--game", "4", "--state-dir", str(tmp_path)]) == 1
    assert "no game 4" in capsys.readouterr().err


def test_the_box_session_log_is_no_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The appliance's own session (journaled beside every game, rolled over into a newer one) is neither
    listed nor exported as a game: `export` alone takes the latest game with a record, which `score` reads."""
    with Journal.open(journal_path(tmp_path)) as journal:
        first = journal.start_game("appliance", ["Spieler 1", "Spieler 2"], wall_time="2026-05-01T18:00:00Z")
        assert main(["journal", "list", "--state-dir", str(tmp_path)]) == 0
        assert capsys.readouterr().out == "no games yet\n"
        assert main(["journal", "export", "--state-dir", str(tmp_path)]) == 1
        assert "no games" in capsys.readouterr().err
        game = journal.start_game("quiddler", ["Anna", "Jörg"], wall_time="2026-05-01T19:00:00Z")
        journal.append(game, RECORD, {"event": "word", "word": "ÄRGER"}, "2026-05-01T19:01:00Z")
        later = journal.start_game("appliance", ["Anna", "Jörg"], beside=game, wall_time="2026-05-01T20:00:00Z")
    assert main(["journal", "list", "--state-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines[1:]] == [[str(game), "2026-05-01T19:00:00Z", "quiddler"]]
    assert main(["journal", "export", "--state-dir", str(tmp_path)]) == 0
    assert parse_record(capsys.readouterr().out).game == "quiddler"
    for session in (first, later):
        assert main(["journal", "export", "--game", str(session), "--state-dir", str(tmp_path)]) == 1
        err = capsys.readouterr().err
        assert f"{session} is the box's own log (appliance)" in err and "journal list" in err
