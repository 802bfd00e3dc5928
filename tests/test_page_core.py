"""The table page in the pure core: phone entries (`SeatEntry`) in Das perfekte Wort, hidden until the alarm,
the page views each seat gets, the table code on the OLED, and a takeover confirmed with START."""

from __future__ import annotations

import json

import pytest

from firmware_host.core import app
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import PageInfo, SeatClaim, SeatEntry, Tick
from firmware_host.core.games.perfektes_wort.scoring import score
from firmware_host.core.games.perfektes_wort.stages import Calling, Entering, Reviewing, Timing
from firmware_host.core.page_table import ConfirmSeat, PageShow
from firmware_host.core.page_view import page_view, page_views
from firmware_host.core.screens import QrScreen
from tests.game_scripts import GAME_SCRIPTS
from tests.table_driver import Table
from tests.test_table_perfektes_wort import call, report, start


def phone(table: Table, seat: int, text: str) -> Table:
    table.now += 0.5
    return table.step(SeatEntry(seat, text, table.now))


def to_timing(*names: str) -> tuple[Table, str]:
    table = start(*names)
    table.press("next")  # reveal round 1
    letter, _ = call(table, 1)
    assert isinstance(table.state.flow.stage, Calling)
    table.press("start")
    assert isinstance(table.state.flow.stage, Timing) and table.state.timer.running
    return table, letter


def ring(table: Table) -> None:
    """Ticks until the alarm."""
    while isinstance(table.state.flow.stage, Timing):
        table.now += 5
        table.step(Tick(table.now))


def test_words_typed_on_phones_during_the_minute_stay_hidden_and_are_entered_together_at_the_alarm():
    table, letter = to_timing("Geli", "Klaus", "Mia")
    phone(table, 0, letter + "ANE")
    phone(table, 2, letter + "OX")
    phone(table, 2, letter + "U")  # a second word replaces the first: erased on the sheet
    assert not any(line.get("event") == "word" for line in table.lines)  # nothing recorded yet
    assert "2/3" in table.screen.footer  # the OLED counts, it does not tell
    geli, klaus = page_view(table.state, 0)["play"], page_view(table.state, 1)["play"]
    assert geli["asks"] == "word" and geli["draft"] == letter + "ANE"
    assert "draft" not in json.dumps(klaus) or klaus["draft"] == ""
    assert letter + "ANE" not in json.dumps(page_view(table.state, 1))  # no other seat sees Geli's word
    assert letter + "ANE" not in json.dumps(page_view(table.state, None))
    assert klaus["written"] == [True, False, True]
    ring(table)
    words = [(line["player"], line["word"]) for line in table.lines if line.get("event") == "word"]
    assert words == [("Geli", letter + "ANE"), ("Mia", letter + "U")]
    stage = table.state.flow.stage
    assert isinstance(stage, Entering) and stage.slot == 1  # Klaus types his on the box
    shown = page_view(table.state, 1)["play"]
    assert shown["asks"] == "word"
    assert [w["current"] for w in shown["words"]] == [letter + "ANE", "", letter + "U"]
    assert page_view(table.state, 0)["play"]["asks"] is None
    phone(table, 1, letter + "EIS")  # Klaus's phone after the alarm: his word at once
    assert isinstance(table.state.flow.stage, Reviewing)
    assert score(table.state.flow.play).players[1].rows[0].written == letter + "EIS"
    assert report(table) is not None  # the record re-scores (`wordtable score`)


def test_a_phone_writes_only_for_its_own_seat_and_only_when_asked():
    table, letter = to_timing("Geli", "Klaus")
    phone(table, 5, letter + "ANE")  # no such seat
    assert "error" in table.beeps and "Platz 6" in table.screen.footer
    phone(table, 0, ("X" if letter != "X" else "Y") + "ABE")  # the wrong first letter
    assert "error" in table.beeps and table.state.flow.drafts == ()  # the rules core refuses it at once
    table.press("start")  # pens down early
    phone(table, 0, letter + "ANE")
    phone(table, 0, letter + "OX")  # a second word: refused
    assert "error" in table.beeps
    assert [line["word"] for line in table.lines if line.get("event") == "word"] == [letter + "ANE"]
    table.type(letter + "U")  # Klaus on the keyboard: the keyboard goes on with the open seat
    assert isinstance(table.state.flow.stage, Reviewing)
    phone(table, 1, letter + "EIS")  # review: nothing asked
    assert "error" in table.beeps and "Klaus" in table.screen.footer


def test_a_phone_entry_without_a_game_is_refused_with_a_reason():
    table = Table()
    table.step(SeatEntry(0, "Wort", 1.0))
    assert "error" in table.beeps and "Spieler 1" in table.screen.footer


def test_the_page_menu_shows_the_join_address_as_a_qr_code_and_next_asks_for_a_new_code():
    table = Table()
    assert "page" not in app.menu_keys(table.state)
    table.step(PageInfo("http://192.168.1.23:8080", "K7QX", 1.0))
    table.open_game("page")
    assert isinstance(table.state.overlay, PageShow)
    screen = table.screen
    assert isinstance(screen, QrScreen) and screen.data == "http://192.168.1.23:8080/j/K7QX"
    assert screen.big == "K7QX" and screen.lines == ("192.168.1.23:8080",)
    table.press("next")
    assert table.state.page.new_code == 1
    table.press("back")
    assert table.state.overlay is None


def test_an_open_menu_stays_on_its_entry_when_the_page_starts_or_stops():
    table = Table()
    table.step(PageInfo("http://192.168.1.23:8080", "K7QX", 1.0))
    table.press("menu")
    keys = app.main_keys(table.state)
    table.press("next", keys.index("power_off"))
    table.step(PageInfo("", "K7QX", 2.0))  # the network went: the page's entry goes, and the Wi-Fi's with it
    assert len(app.main_keys(table.state)) == len(keys) - 2
    assert table.screen.items[table.screen.cursor].label == "Ausschalten"
    table.press("start")
    assert type(table.state.overlay).__name__ == "ConfirmPowerOff"
    table.press("back")
    table.press("menu")
    table.press("next", keys.index("volume") - 2)  # the volume, below where the page's and the Wi-Fi's entries were
    table.step(PageInfo("http://192.168.1.23:8080", "K7QX", 3.0))  # back: its entry comes again
    assert table.screen.items[table.screen.cursor].label.startswith("Lautstärke")


def test_a_takeover_is_granted_with_start_and_refused_with_back():
    table = Table()
    table.step(SeatClaim(1, "c1", 1.0))
    assert isinstance(table.state.overlay, ConfirmSeat) and "Spieler 2" in table.screen.title
    table.press("start")
    assert table.state.page.answered == ("c1", True) and table.state.overlay is None
    table.step(SeatClaim(0, "c2", 5.0))
    table.press("back")
    assert table.state.page.answered == ("c2", False)
    table.step(SeatClaim(9, "c3", 6.0))  # no such seat: refused without asking
    assert table.state.page.answered == ("c3", False) and table.state.overlay is None


def test_page_views_are_one_per_seat_and_a_running_timer_is_its_deadline():
    table, _ = to_timing("Geli", "Klaus")
    views = page_views(table.state)
    assert len(views.seats) == 2 and views.players == ("Geli", "Klaus")
    data = json.loads(views.seats[1])
    assert data["seat"] == 1 and data["name"] == "Klaus" and data["timer"]["running"]
    assert data["timer"]["deadline"] == table.state.timer.countdown.deadline and data["timer"]["left"] is None
    before = views.seats
    table.now += 1
    table.step(Tick(table.now))
    assert page_views(table.state).seats == before  # a tick changes no view: the page counts down itself
    ticked = page_views(table.state)
    ticked.follow(views)
    assert all(mine is theirs for mine, theirs in zip(ticked.seats, before, strict=True))  # nor makes one again
    phone(table, 0, "")  # a withdrawn draft: the flow changed
    changed = page_views(table.state)
    changed.follow(ticked)
    assert changed.seats == before and not any(mine is theirs for mine, theirs in zip(changed.seats, before,
                                                                                     strict=True))


def test_the_new_events_round_trip_through_the_journal_codec():
    for event in (SeatEntry(2, "Wort", 1.5), SeatClaim(0, "abc", 2.0), PageInfo("http://x:1", "CODE", 3.0)):
        assert decode(encode(event)) == event


def _script_states(name: str):
    """Every state of a documented game script, played on the pure app."""
    from firmware_host.script import run_script
    from tests.game_scripts import PureApp, actions

    table, states = PureApp(), []
    step = table.send

    def send(event):
        step(event)
        states.append(table.state)

    table.send = send
    run_script(actions(name), table.hooks(), lambda line: None)
    return states


@pytest.mark.parametrize("script", GAME_SCRIPTS)
def test_each_published_view_is_the_seats_view_as_json_at_every_step_of_a_game(script):
    before = None
    for state in _script_states(script):
        views = page_views(state)
        if before is not None:
            views.follow(before)  # as the server does: a view that did not change is not made again
        before = views
        for seat in (*range(len(views.players)), None):
            text = views.seat(seat)
            assert text == json.dumps(page_view(state, seat), ensure_ascii=False, sort_keys=True,
                                      separators=(",", ":"))
            assert views.seat(seat) is text  # made once
        assert views.seats == tuple(views.seat(seat) for seat in range(len(views.players)))
        assert views.guest == views.seat(None)
