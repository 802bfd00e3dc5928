"""The league's board in headless Chromium when things go wrong or get big: a table publishing a malformed
retained state (through a real Mosquitto and the league) leaves every other table on the board and is
named; a card the board cannot draw stays that card's problem; an update redraws its own card only; the
TV mode pages through tables, standings and games in large type at 1920×1080; a phone at 360 px has no
sideways scroll; Zugzeit's totals and standings are times (m:ss), never points."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.helpers.browser import require_browser
from tests.test_league_mqtt import league_for, wait_for
from tests.test_league_validate import VALID

pytestmark = pytest.mark.slow
require_browser()

STATIC = Path(__file__).resolve().parent.parent / "firmware_host" / "league" / "static"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


def state(table: str, players: list[tuple[str, int]], game: str | None = "quiddler", running: bool = False) -> dict:
    timer = {"running": running, "alarmed": False, "duration": 60, "deadline": 1e10 if running else None,
             "left": None if running else 60}
    return {**VALID["state"], "table": table, "game": game, "players": [{"name": n, "total": p} for n, p in players],
            "timer": timer}


def live(table: str, players: list[tuple[str, int]], **kw: Any) -> dict:
    return {"type": "table", "table": table, "online": True, "state": state(table, players, **kw),
            "title": "Quiddler", "deadline": None, "invalid": None}


def hello(tables: list[dict], standings: dict | None = None, games: list[dict] | None = None) -> dict:
    return {"type": "hello", "venue": "cafe", "lang": "de", "now": 1.7e9, "titles": {"quiddler": "Quiddler",
            "zugzeit": "Zugzeit"}, "timed": ["zugzeit"], "tables": tables, "games": games or [],
            "standings": standings or {"evening": {}, "season": {}}}


def offline_board(browser, query: str = "", width: int = 1280, height: int = 720):
    """The board's own files in a page of their own (no league: messages are handed to `take` directly)."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")

    def serve(route):
        name = route.request.url.split("?")[0].rsplit("/", 1)[1] or "index.html"
        path = STATIC / name
        if not path.is_file():
            return route.fulfill(status=404, body="")
        return route.fulfill(status=200, body=path.read_bytes(), content_type=TYPES[path.suffix])

    context.route("http://board.invalid/**", serve)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://board.invalid/{query}")
    page.wait_for_function("typeof take === 'function'")
    return context, page, errors


def feed(page, *messages: dict) -> None:
    for message in messages:
        page.evaluate("message => take(message)", message)
    page.evaluate("frame()")  # what the board's interval does every FRAME_MS


def test_a_malformed_retained_state_is_dropped_by_the_league_and_the_board_names_its_table(tmp_path, browser):
    from tests.helpers.broker import Broker

    broker = Broker(tmp_path / "broker").start()
    box = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    box.connect("127.0.0.1", broker.port)
    box.loop_start()
    for table, payload in (("1", state("1", [("Ann", 12)])), ("2", state("2", [("Ben", 7)])),
                           ("7", {**state("7", []), "players": 5}), ("8", {**state("8", []), "players": [None]}),
                           ("9", [None])):
        box.publish(f"wordtable/cafe/{table}/state", json.dumps({**payload, "table": table}
                    if isinstance(payload, dict) else payload), qos=1, retain=True).wait_for_publish(5)
    league = league_for(broker, tmp_path)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        wait_for(lambda: {"1", "2", "7", "8", "9"} <= set(league.tables), 10, "every table's retained state")
        assert league.tables["7"].state is None and league.tables["7"].invalid == "/players: not array"
        assert league.tables["8"].invalid == "/players/0: not object"
        page.goto(league.url)
        page.wait_for_selector("#table-1 .players td")
        assert page.locator("#table-1 .players td").all_text_contents() == ["Ann", "12"]
        assert page.locator("#table-2 .players td").all_text_contents() == ["Ben", "7"]
        assert page.locator("#bad").text_content() == "Fehlerhafte Tische: 7, 8, 9"
        assert "/players: not array" in page.locator("#table-7").text_content()
        box.publish("wordtable/cafe/7/state", json.dumps(state("7", [("Cem", 3)])), qos=1, retain=True)
        page.wait_for_function("document.querySelector('#bad').textContent === 'Fehlerhafte Tische: 8, 9'")
        assert page.locator("#table-7 .players td").all_text_contents() == ["Cem", "3"]
        assert errors == []
    finally:
        context.close()
        box.loop_stop()
        league.close()
        broker.stop()


WATCH = """() => {
    window.touched = new Set();
    new MutationObserver(changes => { for (const change of changes) {
        const node = change.target.nodeType === Node.TEXT_NODE ? change.target.parentNode : change.target;
        const card = node.closest('article');
        touched.add(card ? card.dataset.table : node.id || node.tagName);
    } }).observe(document.getElementById('tables'), { subtree: true, childList: true, characterData: true,
                                                      attributes: true });
}"""


def touched(page) -> list[str]:
    """The cards (or else the nodes) changed since the last call, sorted."""
    return page.evaluate("() => { const seen = [...touched].sort(); touched.clear(); return seen; }")


def test_a_card_the_board_cannot_draw_is_that_cards_problem_and_an_update_redraws_its_own_card(browser):
    context, page, errors = offline_board(browser)
    try:
        feed(page, hello([live("1", [("Ann", 1)]), live("2", [("Ben", 2)]), live("3", [("Cem", 3)])]))
        page.evaluate(WATCH)
        page.evaluate("() => { window.kept = [1, 2, 3].map(n => document.getElementById('table-' + n)); }")
        broken = {**live("2", []), "state": {**state("2", []), "players": 5}}  # past the league's schema check
        feed(page, broken)
        assert page.locator("#bad").text_content() == "Fehlerhafte Tische: 2"
        assert page.locator("#table-2 .why").text_content()  # the browser's own words for what broke
        assert page.locator("#table-1 .players td").all_text_contents() == ["Ann", "1"]
        assert touched(page) == ["2"]
        feed(page, live("3", [("Cem", 30)]))
        assert touched(page) == ["3"]
        assert page.locator("#table-3 .players td").all_text_contents() == ["Cem", "30"]
        feed(page, live("10", [("Dan", 4)]))
        assert touched(page) == ["tables"]  # a new card: the grid gets it, no other card changes
        assert page.locator("#tables article").evaluate_all("cards => cards.map(c => c.dataset.table)") == [
            "1", "2", "3", "10"]
        assert page.evaluate("() => kept.map(card => card.isConnected)") == [True, True, True]  # drawn in place
        feed(page, live("2", [("Ben", 5)]), {"type": "gone", "table": "1"})
        assert page.locator("#bad").is_hidden()
        assert page.locator("#tables article").evaluate_all("cards => cards.map(c => c.dataset.table)") == [
            "2", "3", "10"]
        assert errors == []
    finally:
        context.close()


def test_a_card_off_the_screen_is_judged_at_once_and_drawn_when_it_comes_on_the_screen(browser):
    context, page, errors = offline_board(browser, width=1280, height=720)
    try:
        feed(page, hello(_many(60)))
        page.evaluate(WATCH)
        broken = {**live("60", []), "state": {**state("60", []), "players": [None]}}
        feed(page, live("1", [("Ann", 99)]), live("59", [("Zoe", 42)]), broken)
        assert touched(page) == ["1"]  # 59 and 60 are below the fold
        assert page.locator("#bad").text_content() == "Fehlerhafte Tische: 60"
        page.locator("#table-60").scroll_into_view_if_needed()
        page.evaluate("frame()")
        assert touched(page) == ["59", "60"]
        assert page.locator("#table-59 .players td").all_text_contents() == ["Zoe", "42"]
        assert page.locator("#table-60").get_attribute("class") == "table bad"
        assert errors == []
    finally:
        context.close()


def test_zugzeit_shows_times_on_the_cards_and_in_its_standings(browser):
    standings = {"game": 1, "kind": "time", "best": None, "games": 1, "players": [
        {"player": "Cem", "played": 1, "wins": 0, "turns": 4, "total_ms": 111000, "longest_ms": 40000,
         "average_ms": 27750}]}
    context, page, errors = offline_board(browser, width=360)
    try:
        feed(page, hello([live("1", [("Cem", 111000), ("Ann", 59999)], game="zugzeit")],
                         standings={"evening": {"zugzeit": standings}, "season": {}}))
        assert page.locator("#table-1 .players td").all_text_contents() == ["Cem", "1:51", "Ann", "0:59"]
        rows = page.locator("#standing-tables tr").evaluate_all("rows => rows.map(r => r.innerText.split('\\t'))")
        assert rows == [["", "Sp.", "Züge", "Ø Zug", "Längster", "Gesamt"], ["Cem", "1", "4", "0:27", "0:40", "1:51"]]
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert errors == []
    finally:
        context.close()


def _many(count: int) -> list[dict]:
    return [live(str(n), [(f"Spielerin{n}-{k}", n * k) for k in range(4)], running=n % 3 == 0)
            for n in range(1, count + 1)]


def _standings(games: int) -> dict:
    players = [{"player": f"Person mit langem Namen {n}", "played": 9, "wins": 3, "average": 123.45, "points": 999}
               for n in range(8)]
    return {"evening": {f"g{n}": {"games": 4, "kind": "points", "players": players, "best": None}
                        for n in range(games)}, "season": {}}


def _game_lines(count: int) -> list[dict]:
    return [{"id": f"id{n}", "table": str(n), "game": "quiddler", "title": "Quiddler", "players": ["Ann"],
             "winners": ["Ann"], "finished": "", "problem": None, "complete": True} for n in range(count)]


def test_a_phone_at_360_px_scrolls_only_down(browser):
    context, page, errors = offline_board(browser, width=360, height=740)
    try:
        feed(page, hello(_many(6), _standings(2), _game_lines(5)))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.locator("#standing-tables .standing").count() == 2
        right = page.locator("#standing-tables td.num").evaluate_all(
            "cells => Math.max(...cells.map(c => c.getBoundingClientRect().right))")
        assert right <= 360
        assert errors == []
    finally:
        context.close()


def test_the_tv_pages_through_tables_standings_and_games_in_large_type(browser):
    context, page, errors = offline_board(browser, "?tv=1", width=1920, height=1080)
    try:
        feed(page, hello(_many(40), _standings(2), _game_lines(60)))
        shown: list[tuple[str, str]] = []
        for _ in range(6):
            section = page.evaluate("document.body.dataset.section")
            visible = page.locator("#tables article:visible")
            if section == "tables":
                boxes = visible.evaluate_all("cards => cards.map(c => c.getBoundingClientRect().bottom)")
                assert len(boxes) in (15, 10) and max(boxes) <= 1080
                size = page.locator("#tables article:visible .players td").first.evaluate(
                    "td => parseFloat(getComputedStyle(td).fontSize)")
                assert size >= 28
            else:
                assert visible.count() == 0
            if section == "standings":
                assert page.locator("#standing-tables .standing:visible").count() == 1
                assert page.locator("#standing-tables .standing:visible").evaluate(
                    "part => part.getBoundingClientRect().bottom") <= 1080
            if section == "recent":
                assert page.locator("#games li:visible").count() == 40
                assert page.locator("#games").evaluate("list => list.getBoundingClientRect().bottom") <= 1080
            shown.append((section, page.locator("#page").text_content()))
            page.evaluate("turnTvPage()")
        assert shown == [("tables", "Tische 1–15 von 40"), ("tables", "Tische 16–30 von 40"),
                         ("tables", "Tische 31–40 von 40"), ("standings", "Tabelle"), ("standings", "Tabelle"),
                         ("recent", "Spiele heute Abend")]
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
        assert errors == []
    finally:
        context.close()
