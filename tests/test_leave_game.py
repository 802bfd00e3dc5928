"""Leaving a game and resuming it (issue 37): choosing another game while one is begun asks first (START
leaves it, BACK keeps playing); the game left goes on the shelf, and the menu's "Fortsetzen" brings it
back exactly where it was — on the pure app, and through the shell and its journal (a clean replay of the
journal gives the same table, a restart keeps the shelf, `journal list` shows one game)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host import cli, journal_games
from firmware_host.commands.score import score
from firmware_host.core import app
from firmware_host.core.effects import BeginGame, EndGame, Record
from firmware_host.core.events import Button, Press, Resumed, Tick
from firmware_host.core.games.registry import parse_record
from firmware_host.core.screens import MessageScreen
from firmware_host.core.settings import Settings
from firmware_host.journal import RECORD, RETRACT, Journal
from firmware_host.journal_games import RESUMES
from firmware_host.league.outbox import Outbox
from firmware_host.page.past_games import games_list
from firmware_host.paths import journal_path
from firmware_host.resume import replay
from firmware_host.script import parse_script, run_script
from firmware_host.shell_journal import INPUT, SESSION, SessionJournal
from firmware_host.simulator import Simulator
from tests.game_scripts import PureApp

QUIDDLER_ROUND_1 = """
choose Quiddler
type 2
press start
type Ann
type Bob
press start
press start
press start
press start
press start
press start
type CAT
hold next
"""  # Quiddler begun with Ann and Bob; round 1: Ann went out and laid CAT


def play(table: PureApp | Simulator, script: str) -> None:
    run_script(parse_script(script), table.hooks(), lambda line: None)


def effects_of(table: PureApp, *events: Press | Tick) -> list[object]:
    effects: list[object] = []
    for event in events:
        table.state, more = app.step(table.state, event)
        effects += more
    return effects


def begun() -> PureApp:
    table = PureApp()
    play(table, QUIDDLER_ROUND_1)
    assert table.state.flow is not None and table.state.flow.game == "quiddler"
    return table


def test_choosing_another_game_mid_game_asks_and_back_keeps_playing_where_it_was() -> None:
    table = begun()
    before = table.state
    play(table, "choose Das perfekte Wort")
    assert isinstance(table.state.overlay, app.ConfirmLeave)
    shown = app.screen(table.state)
    assert isinstance(shown, MessageScreen)
    assert (shown.title, shown.lines) == ("Quiddler abbrechen?", ("START: ja", "BACK: weiterspielen"))
    effects = effects_of(table, Press(Button.BACK, 0.0))
    assert not any(isinstance(effect, EndGame) for effect in effects)
    assert replace(table.state, notice=before.notice) == before  # the same table: only the question went
    play(table, "type AT")  # the game takes its next entry as it would have
    assert table.state.flow != before.flow


def test_start_shelves_the_game_and_the_menu_resumes_it_exactly() -> None:
    table = begun()
    left = table.state
    play(table, "choose Das perfekte Wort")
    effects = effects_of(table, Press(Button.START, 0.0))
    assert EndGame(None, shelved=0) in effects
    assert table.state.flow is not None and table.state.flow.game == "perfektes-wort"
    assert "Quiddler pausiert" in table.state.notice
    assert [game.flow for game in table.state.shelf] == [left.flow]
    table.wait(300.0)
    play(table, "press back")  # out of the new game's setup: nothing begun, nothing asked
    assert table.state.flow is None and isinstance(table.state.overlay, app.MenuView)
    keys = app.menu_keys(table.state)
    assert "shelf" in keys and "continue" not in keys
    play(table, "choose Fortsetzen")
    labels = [label for _, label, _ in app.menu_entries(table.state, "shelf")]
    assert labels == ["Quiddler · Ann, Bob · vor 5 min"]
    effects = effects_of(table, Press(Button.START, 300.0))
    assert BeginGame("quiddler", ("Ann", "Bob"), resumes=0) in effects
    assert table.state.flow == left.flow and table.state.home == "game" and table.state.shelf == ()
    assert table.state.timer == left.timer and table.state.left_home == left.left_home


def test_a_game_still_in_its_setup_is_left_without_a_question_and_not_shelved() -> None:
    table = PureApp()
    play(table, "choose Quiddler\ntype 2\nchoose Das perfekte Wort")
    assert table.state.overlay is None and table.state.flow is not None
    assert table.state.flow.game == "perfektes-wort" and table.state.shelf == ()
    assert "Quiddler abgebrochen" in table.state.notice


def test_resuming_while_a_game_is_begun_asks_and_swaps_the_two() -> None:
    table = begun()
    quiddler, timer = table.state.flow, table.state.timer
    play(table, "choose Zugzeit\npress start\npress start")  # shelve Quiddler; Zugzeit's setup
    play(table, "press encoder\nhold next\npress encoder")  # Zugzeit begun: its turn clock has the timer
    assert isinstance(table.state.mode, app.InGame) and table.state.mode.begun
    assert table.state.timer.countdown.left(table.now) == 600
    play(table, "choose Fortsetzen\npress start")
    assert isinstance(table.state.overlay, app.ConfirmLeave)
    play(table, "press start")
    assert table.state.flow == quiddler and table.state.timer == timer
    assert [game.flow.game for game in table.state.shelf] == ["zugzeit"]
    table.wait(100.0)  # time passes while Zugzeit waits on the shelf: nobody's turn
    play(table, "choose Fortsetzen\npress start\npress start")
    assert table.state.flow is not None and table.state.flow.game == "zugzeit"
    assert not table.state.timer.running and table.state.timer.countdown.left(table.now) == 600


def test_the_shelf_keeps_the_last_three_games() -> None:
    table = PureApp()
    play(table, QUIDDLER_ROUND_1)
    for _ in range(4):  # the one begun shelved for Knack's setup, and a new Quiddler over that (nothing asked)
        play(table, "choose Knack\npress start")
        play(table, QUIDDLER_ROUND_1)
    assert [game.key for game in table.state.shelf] == [3, 2, 1] and table.state.shelf_key == 4
    assert app.restore(app.snapshot(table.state)).shelf_key == 4  # keys never repeat after a snapshot
    assert not app.can_snapshot(replace(table.state, mode=app.Free()))  # a shelf is kept by the inputs


def test_the_question_and_the_shelf_in_english() -> None:
    table = PureApp()
    table.state, _ = app.initial(Settings(lang="en"))
    play(table, QUIDDLER_ROUND_1)
    play(table, "choose Perfect Words")
    shown = app.screen(table.state)
    assert isinstance(shown, MessageScreen)
    assert (shown.title, shown.lines) == ("Abandon Quiddler?", ("START: yes", "BACK: keep playing"))
    play(table, "press start\npress back\nchoose Resume")
    assert [label for _, label, _ in app.menu_entries(table.state, "shelf")] == ["Quiddler · Ann, Bob · just now"]


# --- through the shell and its journal ---------------------------------------------------------------


def clean_replay(state_dir_journal: Journal) -> app.AppState:
    """The open session's inputs replayed into the state its snapshot stands for."""
    session = state_dir_journal.open_game(SESSION)
    assert session is not None
    start = app.restore(state_dir_journal.meta(session)["snapshot"])
    entries = (entry.payload for entry in state_dir_journal.stream(session, kinds=(INPUT,)))
    state, skipped = replay(start, entries)
    assert skipped == 0
    return state


def same_table(live: app.AppState, replayed: app.AppState) -> None:
    assert replace(replayed, page=live.page) == live


def unlabelled(record: str) -> list[dict[str, object]]:
    """A record's lines without their wall-clock labels."""
    return [{key: value for key, value in json.loads(line).items() if key != "at"} for line in record.splitlines()]


def journal_cli(capsys: pytest.CaptureFixture[str], state_dir: Path, *args: str) -> str:
    capsys.readouterr()
    assert cli.main(["journal", *args, "--state-dir", str(state_dir)]) == 0
    return capsys.readouterr().out


@pytest.mark.slow  # it restarts the box
def test_a_shelved_game_resumes_through_the_journal_and_stays_one_game(
    make_sim: Callable[..., Simulator], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = make_sim()
    play(sim, QUIDDLER_ROUND_1)
    left = sim.state.flow
    play(sim, "choose Das perfekte Wort\npress start\npress back")
    assert [game.flow for game in sim.state.shelf] == [left]
    sim.restart()  # the shelf survives a restart: the session's inputs replay it
    assert [game.flow for game in sim.state.shelf] == [left]
    with Journal.open(journal_path(tmp_path), readonly=True) as journal:
        same_table(sim.state, clean_replay(journal))
    play(sim, "choose Fortsetzen\npress start")
    assert sim.state.flow == left
    with Journal.open(journal_path(tmp_path), readonly=True) as journal:
        same_table(sim.state, clean_replay(journal))
    play(sim, "type AT\nhold next\ntype Z\npress next")  # Bob's words and cards left: round 1 is scored
    listed = journal_cli(capsys, tmp_path, "list").splitlines()
    assert len(listed) == 2 and listed[1].split()[2:] == ["quiddler", "Ann,", "Bob", "(open)"]
    record = journal_cli(capsys, tmp_path, "export")
    plain = make_sim(tmp_path / "plain")  # the same game played without leaving it
    play(plain, QUIDDLER_ROUND_1 + "type AT\nhold next\ntype Z\npress next")
    assert unlabelled(record) == unlabelled(journal_cli(capsys, tmp_path / "plain", "export"))
    assert [line.get("player") for line in unlabelled(record) if line.get("event") == "lay"] == ["Ann", "Bob"]
    assert "Ann" in score(parse_record(record)).text("de")
    with Journal.open(journal_path(tmp_path), readonly=True) as journal:
        parts = [game for game in journal.games() if game.game == "quiddler"]
        assert len(parts) == 2 and journal.meta(parts[1].id) == {RESUMES: parts[0].id}
        assert parts[0].finished is not None and parts[0].winner is None and parts[1].started == parts[0].started


def test_a_long_start_in_the_shelf_discards_a_game_and_the_idle_table_snapshots_again() -> None:
    table = begun()
    play(table, "choose Das perfekte Wort\npress start\npress back\npress back")  # shelved; the menu closed
    assert table.state.flow is None and len(table.state.shelf) == 1 and not app.can_snapshot(table.state)
    play(table, "choose Fortsetzen")
    assert app.screen(table.state).footer == "START fortsetzen · lang: verwerfen"
    play(table, "hold start")
    assert table.state.shelf == () and "shelf" not in app.menu_keys(table.state)
    assert "Quiddler verworfen" in app.screen(table.state).footer
    play(table, "press back\npress back")  # up from the play menu, out of the menu
    assert app.can_snapshot(table.state)


def test_a_restart_keeps_how_long_ago_a_game_was_shelved() -> None:
    table = begun()
    play(table, "choose Das perfekte Wort\npress start\npress back")
    table.wait(300.0)
    table.state, _ = app.step(table.state, Resumed(5.0, off_s=600.0))  # the box was off for ten minutes
    labels = [label for _, label, _ in app.menu_entries(table.state, "shelf")]
    assert labels == ["Quiddler · Ann, Bob · vor 15 min"]


def test_the_journal_keeps_a_game_shelved_and_resumed_twice_as_one(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        session = journal.start_game(SESSION, [])
        first = journal.start_game("quiddler", ["Ann", "Bob"], beside=session)
        journal.append(first, RECORD, {"event": "setup", "players": ["Ann", "Bob"]}, "2026-12-01T20:00:00Z")
        journal_games.shelve(journal, first, 0, "2026-12-01T20:05:00Z")
        other = journal.start_game("perfect-words", ["Ann"], beside=session)  # another game meanwhile
        second = journal_games.resume(journal, 0, "quiddler", ["Ann", "Bob"], session)
        journal.append(second, RECORD, {"event": "round_start", "round": 1}, "2026-12-01T20:10:00Z")
        journal.append(second, RECORD, {"event": "round_end"}, "2026-12-01T20:11:00Z")
        journal.append(second, RETRACT, {}, "2026-12-01T20:11:30Z")
        journal_games.shelve(journal, second, 1, "2026-12-01T20:12:00Z")
        third = journal_games.resume(journal, 1, "quiddler", ["Ann", "Bob"], session)
        journal.finish(third, "Ann")
        games = journal.games()
        listed = journal_games.recorded(games, journal_games.resumed_ids(journal, games))
        assert [(game.id, game.winner) for game in listed] == [(other, None), (third, "Ann")]
        assert listed[1].started == journal.game(first).started
        lines = [json.loads(line) for line in journal.export_record(third).splitlines()]
        assert lines[1:] == [{"event": "setup", "players": ["Ann", "Bob"], "at": "2026-12-01T20:00:00Z"},
                             {"event": "round_start", "round": 1, "at": "2026-12-01T20:10:00Z"}]
        assert journal_games.recorded(games) == games[1:]  # each part still exports by its id
        fresh = journal_games.resume(journal, 7, "quiddler", ["Ann"], session)  # a key no game holds
        assert journal.meta(fresh) == {} and unlabelled(journal.export_record(fresh)) == [
            {"record": "wordtable", "version": 1, "game": "quiddler"}]
    assert [game["id"] for game in games_list(tmp_path / "journal.sqlite", "de")] == [fresh, third, other]


def test_the_league_gets_a_shelved_game_once_whole_when_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal.open(path) as journal:
        target = SessionJournal(journal, journal.start_game(SESSION, []), league=True)
        setup = {"event": "setup", "players": ["Ann", "Bob"], "dealer": "Ann", "bonus": "longest"}
        target.commit(None, [BeginGame("quiddler", ("Ann", "Bob")), Record(setup), EndGame(None, shelved=0)])
        outbox = Outbox(path)
        try:
            assert outbox.pending() == []  # it may be resumed: not the league's yet
            target.commit(None, [BeginGame("quiddler", ("Ann", "Bob"), resumes=0),
                                 Record({"event": "round_start", "round": 1}), EndGame("Ann")])
            [(_, sent)] = outbox.pending()
        finally:
            outbox.close()
    assert [line.get("event") for line in unlabelled(sent["record"])] == [None, "setup", "round_start"]
    assert sent["winner"] == "Ann"
