"""A phone follows its person into a game whose setup typed the person's name in another case ("anna" on a
keyboard for the roster's "Anna": one person, as the roster's names are unique whatever their case): the
setup seats the roster's spelling, the roster finds a person whatever the case of a seat's name, and the
phone's entries land on that seat and its page is that seat's."""

from __future__ import annotations

import json

from firmware_host.core.events import PageInfo, SeatEntry, SeatJoin
from firmware_host.core.page_view import page_views
from firmware_host.core.roster import Roster
from tests.table_driver import Table

PEOPLE = ("Anna", "Ben", "Cem")


def test_a_person_sits_where_the_table_typed_the_name_in_another_case() -> None:
    roster = Roster.of(PEOPLE)
    anna, cem = roster.named("Anna"), roster.named("Cem")
    assert anna is not None and cem is not None
    assert roster.seat_of(anna.id, ("Ben", "anna", "CEM")) == 1
    assert roster.seat_of(cem.id, ("Ben", "anna", "CEM")) == 2
    assert roster.seat_of(anna.id, ("Ben", "Annabel")) is None
    assert roster.ids_of(("Ben", "anna", "Spieler 3")) == (1, 0, -1)


def test_a_phone_writes_for_its_person_typed_in_lower_case_at_the_setup() -> None:
    table = Table()
    table.step(PageInfo("http://192.168.1.23:8080", "K7QX23", 0.5))
    for claim, name in enumerate(PEOPLE):
        table.step(SeatJoin(name, f"claim{claim}", table.now))
    table.open_game("game:perfektes-wort")
    table.type("anna")  # the first seat's name, typed anew on the box's keyboard
    table.press("start", 4)  # the players, the side, the points card, the box's own deck
    table.press("next")  # round 1's card
    table.press("start")  # the sand runs
    # the setup spells a person as the roster does (the records and the statistics name one person)
    assert table.state.flow is not None and table.state.flow.players == ("Anna", "Ben", "Cem")
    anna = table.state.roster.named("Anna")
    assert anna is not None
    word = table.text.split(" | ")[1][0] + "ANE"  # the round's letter (the screen: "Runde 1 · … | T  1:00 | …")
    table.step(SeatEntry(2, word, table.now, person=anna.id))  # the phone's seat is the box's to decide
    assert table.state.notice == "" and table.state.flow.drafts == ((0, word),)
    views = page_views(table.state)
    assert views.person_seat(anna.id) == 0
    assert json.loads(views.person(anna.id))["seat"] == 0
