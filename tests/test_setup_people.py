"""A game's setup seats people from the roster (`table.seats.Seats`, Quiddler's count): the last players first,
then the roster's other people, recently played first, and only then "Spieler N"; a long START offers the
cursor seat the people not seated, one after another. The free scoreboard takes the people of a game begun.
Driven by events through the whole app (`app.step`), and replayed through the real journal."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.events import Event
from tests.table_driver import Table
from tests.test_roster import join, phone_command, to_menu_entry
from tests.test_roster_journal import _open, _play


class Recorded(Table):
    """A table that keeps every event it was given (to replay them through a journal)."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []

    def step(self, event: Event) -> Recorded:
        self.events.append(event)
        super().step(event)
        return self


def after_anna_and_ben(table: Table | None = None) -> Table:
    """A roster of Anna, Ben, Cem and Dora (their phones joined), and a game (Knack das Wort) last played
    by Anna and Ben: the roster is Anna, Ben, Cem, Dora, recently played first."""
    table = join(table or Table(), "Anna", "Ben", "Cem", "Dora")
    to_menu_entry(table, "game:knack-das-wort")
    table.turn(-2)  # two of the four
    table.press("start")
    assert table.begun[-1].players == ("Anna", "Ben")
    return table


def players(table: Table) -> tuple[str, ...]:
    """The players of the setup on screen."""
    flow = table.state.flow
    seats = getattr(flow, "seats", None) or getattr(getattr(flow, "stage", None), "seats", None)
    return app.table_players(table.state) if seats is None else seats.players


def test_raising_the_count_seats_the_rosters_next_people_before_any_placeholder():
    table = to_menu_entry(after_anna_and_ben(), "game:perfect-words")
    assert [p.name for p in table.state.roster.people] == ["Anna", "Ben", "Cem", "Dora"]
    assert players(table) == ("Anna", "Ben")  # the same players again
    table.press("next")
    assert players(table) == ("Anna", "Ben", "Cem")  # Cem is offered, not "Spieler 3"
    assert "Cem" in table.text and "Spieler" not in table.text.split("|")[1]
    table.press("next")
    assert players(table) == ("Anna", "Ben", "Cem", "Dora")
    table.press("next")  # nobody else on the roster: now a placeholder
    assert players(table) == ("Anna", "Ben", "Cem", "Dora", "Spieler 5")


def test_a_long_start_offers_the_cursor_seat_each_person_not_seated_then_moves_on():
    table = to_menu_entry(after_anna_and_ben(), "game:perfect-words").press("next")  # Anna, Ben, Cem
    table.hold("start")
    assert players(table) == ("Dora", "Ben", "Cem")  # the cursor seat (the first) swapped to Dora
    table.hold("start")  # nobody else is free: Anna again, and the cursor on Ben's seat
    assert players(table) == ("Anna", "Ben", "Cem") and table.screen.cursor == 1
    table.hold("start")
    assert players(table) == ("Anna", "Dora", "Cem")  # Ben swapped for Dora without typing
    assert "Dora" in table.text and table.screen.cursor == 1
    table.press("next")  # a fourth seat: Ben, whom Dora's seat displaced — nobody twice
    assert players(table) == ("Anna", "Dora", "Cem", "Ben")
    table.turn(-1).press("start")
    assert table.begun[-1].players == ("Anna", "Dora", "Cem")
    assert [p.name for p in table.state.roster.people] == ["Anna", "Dora", "Cem", "Ben"]  # recently played first


def test_the_offers_go_round_the_people_not_seated_in_roster_order():
    table = to_menu_entry(after_anna_and_ben(), "game:zugzeit")  # Anna, Ben: Cem and Dora are free
    table.hold("start")
    assert players(table) == ("Cem", "Ben")
    table.hold("start")
    assert players(table) == ("Dora", "Ben")
    table.hold("start")  # round again: Anna back at her seat, the cursor on to Ben's
    assert players(table) == ("Anna", "Ben") and table.screen.cursor == 1
    table.type("Eva")  # a typed name ends the offers: it goes to the cursor seat
    assert players(table) == ("Anna", "Eva")


def test_a_typed_name_of_the_roster_is_spelt_as_there_and_never_seated_twice():
    table = to_menu_entry(after_anna_and_ben(), "game:perfect-words")
    table.type("dora")
    assert players(table) == ("Dora", "Ben")
    table.press("next", 2)
    assert players(table) == ("Dora", "Ben", "Cem", "Anna")  # Anna's place in the queue is Dora's old one


@pytest.mark.parametrize("game", ["perfektes-wort", "perfect-words", "knack-das-wort", "zugzeit"])
def test_every_games_setup_offers_the_roster(game):
    table = to_menu_entry(after_anna_and_ben(), f"game:{game}")
    table.turn(1)
    assert players(table) == ("Anna", "Ben", "Cem")
    table.hold("start")
    assert players(table)[0] == "Dora"


def test_quiddlers_setup_offers_the_roster_as_the_count_rises():
    table = to_menu_entry(after_anna_and_ben(), "game:quiddler")
    table.press("next").press("start")  # three players; the names
    assert players(table) == ("Anna", "Ben", "Cem")
    assert "Cem" in table.text and "Spieler" not in table.text


def test_a_fresh_box_nobody_named_keeps_its_default_seats():
    table = to_menu_entry(Table(), "game:perfect-words")
    assert players(table) == ("Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4")
    table.hold("start")  # nobody on the roster: the offer only moves the cursor on
    assert players(table)[0] == "Spieler 1" and table.screen.cursor == 1


def test_a_seat_the_last_players_left_unnamed_is_taken_by_the_rosters_next_person():
    table = after_anna_and_ben()
    settings = replace(table.state.settings, player_names=("Anna", "Spieler 2"))  # a game of Anna and a seat
    table.state = replace(table.state, settings=settings)
    to_menu_entry(table, "game:perfect-words")
    assert players(table) == ("Anna", "Ben")  # the unnamed seat is Ben's, the roster's next


def test_the_setup_and_its_swaps_replay_the_same_from_the_journal(tmp_path: Path):
    table = to_menu_entry(after_anna_and_ben(Recorded()), "game:perfect-words")
    table.press("next").hold("start").hold("start").hold("start")
    assert isinstance(table, Recorded) and players(table) == ("Anna", "Dora", "Cem")
    first = _open(tmp_path)
    played = _play(first, *table.events)
    assert played.flow == table.state.flow and played.roster == table.state.roster
    assert first.journal is not None
    first.journal.close()
    again = _open(tmp_path)  # a restart: the journal replayed
    try:
        assert again.state.flow == table.state.flow
        assert app.table_players(again.state) == ("Anna", "Dora", "Cem")
        assert again.state.roster == table.state.roster
    finally:
        assert again.journal is not None
        again.journal.close()


# --- the free scoreboard speaks of the same people ------------------------------------------------------


def test_a_fresh_boxs_scoreboard_takes_the_people_of_a_game_named_at_its_setup():
    table = to_menu_entry(Table(), "game:knack-das-wort").turn(-2).type("Anna", "Ben").press("start")
    assert table.begun[-1].players == ("Anna", "Ben")
    to_menu_entry(table, "scoreboard")
    assert table.state.board.players == ("Anna", "Ben")  # no "Spieler 1-4" nobody typed
    assert "Spieler" not in table.text
    to_menu_entry(table, "game:zugzeit").press("back")  # the game shelved, the next one left at its setup
    to_menu_entry(table, "scoreboard")
    phone_command(table, "Ben", "points", "+1")  # no game open: Ben's phone books on the free scoreboard
    assert dict(zip(table.state.board.players, table.state.board.totals, strict=True)) == {"Anna": 0, "Ben": 1}


def test_a_scoreboard_with_points_keeps_its_tally_through_a_game():
    table = join(Table(), "Anna", "Ben")
    to_menu_entry(table, "scoreboard").press("start")  # a point for Anna
    to_menu_entry(table, "game:knack-das-wort").type("Cem").press("start")  # Cem and Ben play
    assert table.begun[-1].players == ("Cem", "Ben")
    to_menu_entry(table, "scoreboard")
    assert dict(zip(table.state.board.players, table.state.board.totals, strict=True)) == {"Anna": 1, "Ben": 0}


def test_a_scoreboard_of_the_same_people_stays_in_its_order():
    table = join(Table(), "Anna", "Ben")
    to_menu_entry(table, "game:knack-das-wort").hold("next").press("start")  # Ben starts
    assert table.begun[-1].players == ("Ben", "Anna")
    to_menu_entry(table, "scoreboard")
    assert table.state.board.players == ("Anna", "Ben")
