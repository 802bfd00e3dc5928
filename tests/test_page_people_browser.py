"""The person page in a real browser (Debian's Chromium through Playwright): a phone with a seat opens it
from the table page, sees everyone, a person's games, best word, think time and rivals, in German."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.page.server import PageServer
from tests.helpers.browser import require_browser
from tests.helpers.page_box import Box, serve
from tests.history_journal import history_journal

pytestmark = pytest.mark.slow
require_browser()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[PageServer]:
    history_journal(tmp_path)
    box = Box()
    server = serve(box, tmp_path)
    yield server
    server.close()


def test_a_seated_phone_opens_the_people_and_a_persons_page(browser, served):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE")
    page = context.new_page()
    page.goto(f"{served.address}/static/people.html")
    page.wait_for_selector("#error:not([hidden])")
    assert "Platz" in page.inner_text("#error")  # no seat, no statistics
    page.goto(f"{served.address}/j/{served.code}")
    page.click("#seats button >> nth=0")
    page.wait_for_selector("#past:not([hidden])")
    page.click("a[href='/static/people.html']")
    page.wait_for_selector("#people table")
    names = page.locator("#people td a").all_inner_texts()
    assert names[:2] == ["Ann", "Bob"] and "Geli" in names
    assert "Die letzten Abende" in page.inner_text("#evenings")
    page.click("#people a:text-is('Geli')")
    page.wait_for_selector("#person:not([hidden]) table")
    person = page.inner_text("#person")
    assert "Das perfekte Wort" in person and "Klaus" in person and "2. Sieg in Folge" in person
    page.click("#evenings a:text-is('Cem')")
    page.wait_for_selector("#person:not([hidden]) h2:text-is('Cem')")
    assert "Denkzeit (Zugzeit): 0:54 min" in page.inner_text("#person")
    context.close()
