"""People, not seats (issue 37): the roster in the pure core — who joins a fresh box, a phone's person
followed through every game and mode, renames, and the roster kept by the snapshot across restarts."""

from __future__ import annotations

import pytest

from firmware_host.core import app
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import SeatAnswer, SeatClaim, SeatCommand, SeatEntry, SeatJoin, Tick
from firmware_host.core.games.quiddler.stages import OutChoice
from firmware_host.core.page_view import page_view, page_views
from firmware_host.core.roster import Person, Roster, is_placeholder
from tests.table_driver import Table
from tests.test_table_perfektes_wort import call


def join(table: Table, *names: str) -> Table:
    for name in names:
        table.now += 1.0
        table.step(SeatJoin(name, f"claim-{name}", table.now))
    return table


def person(table: Table, name: str) -> int:
    found = table.state.roster.named(name)
    assert found is not None, name
    return found.id


def phone_entry(table: Table, name: str, text: str, seat: int = 0) -> Table:
    """`name`'s phone sends `text`; `seat` is whatever seat its page last showed (the core goes by the person)."""
    table.now += 0.5
    return table.step(SeatEntry(seat, text, table.now, person(table, name)))


def phone_command(table: Table, name: str, command: str, value: str, seat: int = 0) -> Table:
    table.now += 0.5
    return table.step(SeatCommand(seat, command, value, table.now, person(table, name)))


def to_menu_entry(table: Table, key: str) -> Table:
    """The main menu's entry `key`, from a game's screen too (a long BACK leaves it for the timer first); a
    game begun that another game would leave is left (START on the question)."""
    if table.state.home == "game":
        table.hold("back")
    if table.state.overlay is not None:
        table.press("menu")  # the menu closed: `events_to_open` opens it
    for event in app.events_to_open(table.state, key, table.now) or []:
        table.step(event)
    if isinstance(table.state.overlay, app.ConfirmLeave):
        table.press("start")
    return table


# --- the roster itself ------------------------------------------------------------------------------------


def test_people_get_the_next_free_id_and_keep_it_whatever_order_they_play_in():
    roster = Roster.of(("Anna", "Spieler 2", "Ben"))
    assert [(p.id, p.name) for p in roster.people] == [(0, "Anna"), (1, "Ben")]  # a default seat is nobody
    assert roster.table == (0, 1)
    played = roster.played(("Cem", "Ben"))
    assert [(p.id, p.name) for p in played.people] == [(2, "Cem"), (1, "Ben"), (0, "Anna")]  # recently first
    assert played.table == (2, 1) and played.seat_of(1, ("Cem", "Ben")) == 1 and played.seat_of(0, ("Cem",)) is None
    assert played.with_person("anna") == (played, Person(0, "Anna"))  # as spelt in the roster
    assert played.renamed(0, "Ben") is None and played.renamed(0, "Ann") is not None
    assert played.ids_of(("Ben", "Spieler 2", "Anna")) == (1, -1, 0)
    assert Roster.from_data(played.to_data()) == played
    assert is_placeholder("Spieler 3") and is_placeholder("Player 8") and not is_placeholder("Spielerin")


@pytest.mark.parametrize("data", [
    {"people": [[0, "Anna", ""], [0, "Ben", ""]], "table": []},  # one id twice
    {"people": [[0, "Anna", ""], [1, "anna", ""]], "table": []},  # one name twice
    {"people": [[0, "Anna", ""]], "table": [1]},  # a seat of nobody
    {"people": [[True, "Anna", ""]], "table": []},
    {"people": [[0, "A\nB", ""]], "table": []},  # not a name
])
def test_a_roster_that_the_snapshot_did_not_write_is_refused(data):
    with pytest.raises((ValueError, TypeError, KeyError)):
        Roster.from_data(data)


# --- a fresh box ------------------------------------------------------------------------------------------


def test_two_phones_joining_a_fresh_box_are_exactly_the_two_players():
    table = join(Table(), "Anna", "Ben")
    assert table.state.board.players == ("Anna", "Ben")  # no "Spieler 1-4" before them
    assert table.state.settings.player_names == ("Anna", "Ben")
    assert [(p.id, p.name) for p in table.state.roster.at_table] == [(0, "Anna"), (1, "Ben")]
    assert table.state.page.joined == (("claim-Anna", 0, 0), ("claim-Ben", 1, 1))
    to_menu_entry(table, "game:perfektes-wort")
    assert table.state.flow.seats.players == ("Anna", "Ben")  # the same players again: one START


def test_a_box_nobody_named_keeps_its_default_seats_and_a_scored_one_is_joined_after():
    table = Table()
    assert table.state.board.players == ("Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4")
    assert table.state.roster == Roster()
    to_menu_entry(table, "scoreboard").press("start")  # a point for "Spieler 1": no longer a fresh board
    join(table, "Anna")
    assert table.state.board.players == ("Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4", "Anna")


def test_a_person_of_the_roster_joins_again_as_they_are_spelt_and_keeps_their_id():
    table = join(Table(), "Anna", "Ben")
    state = app.restore(app.snapshot(table.state))
    state = replace_board(state, ("Ben",))
    table.state = state
    join(table, "anna")
    assert table.state.board.players == ("Ben", "Anna") and person(table, "Anna") == 0


def replace_board(state: app.AppState, names: tuple[str, ...]) -> app.AppState:
    from dataclasses import replace

    from firmware_host.core.scoreboard import Board
    return replace(state, board=Board.of(names), roster=state.roster.seated(names))


# --- a phone follows its person ---------------------------------------------------------------------------


def test_bens_phone_follows_ben_through_three_games_and_his_point_goes_to_ben():
    table = join(Table(), "Anna", "Ben")
    anna, ben = person(table, "Anna"), person(table, "Ben")

    to_menu_entry(table, "game:perfektes-wort")  # Das perfekte Wort: the same players, with Ben first
    table.hold("next")  # who starts: Ben
    table.press("start", 4)  # players, side, points card, button deck: the game begins
    assert table.begun[-1].players == ("Ben", "Anna")
    assert table.state.roster.people[0].name == "Ben"  # recently played first, in the game's order
    table.press("next")  # round 1 revealed
    letter, _ = call(table, 1)
    table.press("start")  # the sand runs: the phones write
    phone_entry(table, "Ben", letter + "ANE", seat=1)  # Ben's page still showed the free board's seat
    phone_entry(table, "Anna", letter + "OX", seat=0)
    assert page_view(table.state, 0)["person_id"] == ben and page_view(table.state, 1)["person_id"] == anna
    views = page_views(table.state)
    assert views.person_seat(ben) == 0 and views.person_seat(anna) == 1
    while table.state.timer.running:
        table.now += 5
        table.step(Tick(table.now))
    words = [(line["player"], line["word"]) for line in table.lines if line.get("event") == "word"]
    assert sorted(words) == sorted([("Ben", letter + "ANE"), ("Anna", letter + "OX")])

    to_menu_entry(table, "game:quiddler")  # Quiddler (the round above left, on the shelf)
    table.press("start")  # the count: the same two
    table.press("start", 2)  # the names, the dealer
    table.press("start", 3)  # the two-player bonus, the summary, the plan: round 1 is on
    assert isinstance(table.state.flow.stage, OutChoice)
    players = table.state.flow.players
    phone_entry(table, "Ben", "!CAT", seat=5)  # a stale seat again: the person decides
    assert (table.lines[-1]["player"], table.lines[-1]["went_out"]) == ("Ben", True)
    assert page_views(table.state).person_seat(ben) == players.index("Ben")

    to_menu_entry(table, "game:zugzeit")
    assert table.state.flow.stage.seats.players == ("Ben", "Anna")  # the last game's players again
    phone_entry(table, "Ben", "Wort")  # Zugzeit takes only the turn's end, while it runs: refused, naming Ben
    assert table.state.flow.message.startswith("Ben:") and table.beeps == ["error"]
    table.press("back")  # Zugzeit left at its setup: the game is over
    assert table.state.flow is None

    to_menu_entry(table, "scoreboard")  # back to the free scoreboard
    assert table.state.board.players == ("Anna", "Ben")
    phone_command(table, "Ben", "points", "+1", seat=0)  # the page's seat is stale: Ben's point is Ben's
    assert dict(zip(table.state.board.players, table.state.board.totals, strict=True)) == {"Anna": 0, "Ben": 1}
    view = page_views(table.state)
    assert view.person_seat(ben) == 1 and '"person_name":"Ben"' in view.person(ben)


def test_a_phone_whose_person_does_not_play_in_the_game_open_is_told_so():
    table = join(Table(), "Anna", "Ben", "Cem")
    cem = person(table, "Cem")
    to_menu_entry(table, "game:perfektes-wort")
    table.turn(-1)  # two players: Anna and Ben
    table.press("start", 4)
    table.press("next").press("start")
    phone_entry(table, "Cem", "WORT")
    assert table.state.notice == "Cem spielt hier nicht mit" and table.beeps == ["error"]
    absent = page_views(table.state).person(cem)
    assert '"absent":true' in absent and '"person_name":"Cem"' in absent and '"seat":null' in absent
    table.step(SeatEntry(0, "WORT", table.now + 1, 99))  # a person the table does not know
    assert table.beeps == ["error"]


def test_renaming_a_person_renames_them_in_the_roster_and_on_the_board():
    table = join(Table(), "Anna", "Ben")
    phone_command(table, "Ben", "name", "Benno")
    assert table.state.board.players == ("Anna", "Benno") and table.state.roster.person(1) == Person(1, "Benno")
    assert table.state.settings.player_names == ("Anna", "Benno")
    phone_command(table, "Benno", "name", "Anna")
    assert table.beeps == ["error"] and table.state.board.players == ("Anna", "Benno")
    to_menu_entry(table, "scoreboard").press("next").type("Anja")  # on the box: Anna's seat, after Benno's
    assert table.state.roster.person(0) == Person(0, "Anja") and table.state.board.players == ("Anja", "Benno")


def test_a_person_playing_in_the_game_open_is_not_renamed_on_the_scoreboard_meanwhile():
    table = join(Table(), "Anna", "Ben")
    to_menu_entry(table, "game:perfektes-wort").press("start", 4)
    to_menu_entry(table, "scoreboard")  # the game waits
    table.type("Anja")
    assert table.beeps == ["error"] and table.state.notice == "Anna spielt gerade: nach dem Spiel umbenennen"
    assert table.state.roster.person(0) == Person(0, "Anna") and table.state.board.players == ("Anna", "Ben")


def test_a_takeover_names_the_person_it_is_for():
    table = join(Table(), "Anna", "Ben")
    ben = person(table, "Ben")
    table.step(SeatClaim(0, "c9", 9.0, ben))  # an old journal's confirmation, for Ben wherever he sits
    assert table.state.overlay is not None and table.state.overlay.name == "Ben"


def test_the_person_of_a_page_event_is_journaled_and_old_events_decode_as_a_seats():
    for event in (SeatEntry(1, "Wort", 1.5, 3), SeatCommand(0, "points", "+1", 2.0, 0),
                  SeatClaim(2, "abc", 2.5, 7), SeatAnswer(2, "abc", True, 3.0, 7)):
        assert decode(encode(event)) == event and encode(event)["person"] == event.person
    assert "person" not in encode(SeatEntry(1, "Wort", 1.5))  # as it was written before people
    assert decode({"type": "seat_text", "seat": 1, "text": "Wort", "at": 1.5}) == SeatEntry(1, "Wort", 1.5, -1)
    with pytest.raises(ValueError):
        decode({"type": "seat_text", "seat": 1, "text": "Wort", "at": 1.5, "person": -2})


def test_a_join_journaled_before_people_replays_after_the_default_seats_as_it_did():
    old = decode({"type": "seat_join", "name": "Anna", "claim": "c1", "at": 1.0})
    assert old == SeatJoin("Anna", "c1", 1.0, in_place=False)
    assert encode(SeatJoin("Anna", "c1", 1.0))["in_place"] is True
    table = Table().step(old)
    assert table.state.board.players == ("Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4", "Anna")
    assert table.state.page.joined == (("c1", 4, 0),)
    table.step(SeatEntry(4, "WORT", 2.0))  # the old journal's phone of seat 5 is still Anna's
    assert "Anna" in table.state.notice


# --- across restarts --------------------------------------------------------------------------------------


def test_the_snapshot_keeps_the_roster_and_its_ids():
    table = join(Table(), "Anna", "Ben")
    to_menu_entry(table, "game:perfektes-wort").press("start", 4)  # they played: Anna, Ben first
    table.state = app.restore(app.snapshot(app.restore(app.snapshot(table.state))))
    assert table.state.roster == Roster((Person(0, "Anna"), Person(1, "Ben")), (0, 1))
    join(table, "Cem")
    assert person(table, "Cem") == 2  # the next free id, as before the restart


def test_a_snapshot_written_before_the_roster_resumes_with_its_players_as_people():
    table = join(Table(), "Anna", "Ben")
    old = app.snapshot(table.state)
    del old["roster"]
    state = app.restore(old)
    assert [(p.id, p.name) for p in state.roster.at_table] == [(0, "Anna"), (1, "Ben")]
    fresh = app.snapshot(Table().state)
    del fresh["roster"]
    assert app.restore(fresh).roster == Roster()  # "Spieler 1-4": nobody
