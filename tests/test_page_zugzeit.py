"""Zugzeit on the table page in the pure core: the phone of the player on turn is the chess clock's button
("Zug fertig" sends the box's turn key as a `SeatEntry`), every phone shows who is on turn and each
player's time, and the view of a running turn carries the deadline, never a clock of its own."""

from __future__ import annotations

import json

from firmware_host.core.events import Button, Press, SeatEntry, Tick
from firmware_host.core.games.zugzeit.page import TURN_TEXT
from firmware_host.core.games.zugzeit.table import ZugzeitFlow
from firmware_host.core.page_view import page_view, page_views
from firmware_host.script import run_script
from tests.game_scripts import PureApp, actions, snapshots


def at(snapshot: str) -> PureApp:
    """The turn-timer script played up to its snapshot `snapshot`."""
    upto = next(s for s in snapshots("turn-timer.script") if s.slug == snapshot).line
    table = PureApp()
    run_script([s for s in actions("turn-timer.script") if s.line < upto], table.hooks(), lambda line: None)
    return table


def flow(table: PureApp) -> ZugzeitFlow:
    assert isinstance(table.state.flow, ZugzeitFlow)
    return table.state.flow


def test_zug_fertig_from_the_phone_on_turn_is_the_turn_key_at_that_moment():
    by_phone, by_key = at("anna-thinking"), at("anna-thinking")
    assert page_view(by_phone.state, 0)["play"]["entry"]["actions"] == [{"label": "Zug fertig", "send": TURN_TEXT}]
    by_phone.send(SeatEntry(0, TURN_TEXT, by_phone.now))
    by_key.send(Press(Button.TURN, by_key.now))
    phone, key = flow(by_phone), flow(by_key)
    assert phone.played is not None and key.played is not None
    assert phone.played.game.on_turn == "Ben" and phone.played.events == key.played.events
    assert phone.clock == key.clock and by_phone.state.timer == by_key.state.timer
    assert "entry" not in page_view(by_phone.state, 0)["play"] and "entry" in page_view(by_phone.state, 1)["play"]


def test_a_phone_not_on_turn_or_out_of_play_is_refused_and_nothing_changes():
    table = at("anna-thinking")
    before = flow(table)
    table.send(SeatEntry(1, TURN_TEXT, table.now))  # Ben's phone while Anna thinks
    assert flow(table).played == before.played and flow(table).message == "Ben ist nicht am Zug"
    table.send(SeatEntry(0, "CAT", table.now))  # not the button's text
    assert flow(table).played == before.played
    stats = at("statistics-total")
    ended = flow(stats).played
    stats.send(SeatEntry(0, TURN_TEXT, stats.now))
    assert flow(stats).played == ended and page_view(stats.state, 0)["play"]["stage"] == "stats"


def test_before_the_first_turn_the_phones_button_starts_the_clock_as_the_key_does():
    table = at("ready")
    play = page_view(table.state, 0)["play"]
    assert play["entry"]["actions"][0]["label"] == "Uhr starten" and not table.state.timer.running
    table.send(SeatEntry(0, TURN_TEXT, table.now))
    assert table.state.timer.running and flow(table).played.game.on_turn == "Anna"


def test_every_phone_names_who_is_on_turn_and_each_players_time_and_a_tick_changes_no_view():
    table = at("anna-thinking")
    view = page_view(table.state, 2)
    play = view["play"]
    assert play["turn"] == "Anna" and play["status"] == "Anna ist am Zug" and play["sand"] is True
    rows = play["tables"][0]["rows"]
    assert [row[1] if isinstance(row[1], str) else row[1]["text"] for row in rows] == ["Anna", "Ben", "Cem"]
    assert [row[2] for row in rows] == ["am Zug", "5:00", "5:00"]
    assert view["timer"]["running"] and view["timer"]["deadline"] is not None  # the page counts down itself
    first = page_views(table.state).seat(2)
    table.send(Tick(table.now + 1.0))
    assert json.loads(page_views(table.state).seat(2)) == json.loads(first)
