"""The league's live board in headless Chromium (Debian's, as the table page's tests use it): a table's
scores change on the TV as its box plays, its sand timer counts down, and a finished game's sheet is one
click away. A real Mosquitto between the box and the league."""

from __future__ import annotations

import pytest

from firmware_host.core.league_view import league_view
from firmware_host.script import parse_script, run_script
from tests.game_scripts import actions
from tests.helpers.browser import require_browser
from tests.test_league_mqtt import Box, box_config, league_for, quick_reconnect  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow
require_browser()


def scores(page) -> dict[str, int]:
    names = page.locator("#table-1 .players td:first-child").all_text_contents()
    totals = page.locator("#table-1 .players td.score").all_text_contents()
    return {name: int(total) for name, total in zip(names, totals, strict=True)}


def wait_scores(page, expected: dict[str, int]) -> None:
    page.wait_for_function("""expected => {
        const rows = [...document.querySelectorAll('#table-1 .players tr')];
        const shown = Object.fromEntries(rows.map(r => [r.cells[0].textContent, Number(r.cells[1].textContent)]));
        return JSON.stringify(shown) === JSON.stringify(expected);
    }""", arg=expected, timeout=10_000)


def test_the_board_shows_a_tables_scores_and_timer_change_as_its_box_plays(tmp_path, browser):
    from tests.helpers.broker import Broker

    broker = Broker(tmp_path / "broker").start()
    league = league_for(broker, tmp_path)
    box = Box(tmp_path / "box", box_config(tmp_path / "box.toml", broker.url, "1"))
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(league.url)
        page.wait_for_selector("#table-1")
        steps = actions("knack-das-wort.script")
        half = len(steps) // 2

        def play_to(until: int):
            def job(sim):
                run_script(steps[:until] if until == half else steps[half:], sim.hooks(), lambda line: None)
                view = league_view(sim.state)
                return {p["name"]: p["total"] for p in view["players"]}
            return job

        middle = box.do(play_to(half))
        wait_scores(page, middle)
        final = box.do(play_to(len(steps)))
        assert final != middle and max(final.values()) > max(middle.values())
        wait_scores(page, final)
        assert page.locator("#table-1 .game").text_content() == "Knack das Wort"

        box.do(lambda sim: run_script(parse_script("press start"), sim.hooks(), lambda line: None))  # game over
        link = page.locator("#games a.sheet-link")
        link.wait_for(timeout=10_000)
        assert "Knack das Wort" in link.text_content()
        page.wait_for_function("document.querySelector('#standing-tables .standing') !== null", timeout=10_000)
        assert "Knack das Wort" in page.locator("#standing-tables").text_content()

        timer = page.locator("#table-1 .timer")
        assert timer.text_content() == "1:00"
        # the menu after the game: "Spielen", "Timer", then START runs the sand timer
        box.do(lambda sim: run_script(parse_script("press start\npress start\npress start"), sim.hooks(),
                                      lambda line: None))
        page.wait_for_selector("#table-1 .timer.running", timeout=10_000)
        page.wait_for_function("document.querySelector('#table-1 .timer').textContent === '0:58'", timeout=10_000)

        link = page.locator("#games a.sheet-link")
        link.click()
        page.wait_for_selector("#score")
        assert page.locator("h1").text_content() == "Knack das Wort"
        sheet = page.locator("#score").text_content()
        for name, total in final.items():
            assert name in sheet and str(total) in sheet
    finally:
        context.close()
        box.close()
        league.close()
        broker.stop()
