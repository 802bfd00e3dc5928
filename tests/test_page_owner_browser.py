"""The owner's page in a real browser (Debian's Chromium through Playwright), in German: without a PIN it and
the backup page say how to set one on the box; with one, a wrong PIN is refused, the right one shows the
owner's links, and the backup page opens its forms only then."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.owner_pin import save_pin
from firmware_host.page.server import PageServer
from tests.helpers.browser import require_browser
from tests.helpers.page_box import Box, serve

pytestmark = pytest.mark.slow
require_browser()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[PageServer]:
    server = serve(Box(), tmp_path)
    yield server
    server.close()


def test_the_owner_logs_in_with_the_pin_set_on_the_box(browser, served: PageServer, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE")
    page = context.new_page()
    page.goto(f"{served.address}/owner")
    page.wait_for_selector("#nopin:not([hidden])")
    assert "MENU › Besitzer-PIN › PIN festlegen" in page.inner_text("#nopin")
    page.goto(f"{served.address}/backup")
    page.wait_for_selector("#gate:not([hidden])")
    assert "Noch keine Besitzer-PIN" in page.inner_text("#gate") and page.locator("#forms").is_hidden()

    save_pin(tmp_path, "4826")
    page.goto(f"{served.address}/owner")
    page.wait_for_selector("#login:not([hidden])")
    page.fill("#pin", "4825")
    page.click("#pinform button")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "Falsche PIN."
    page.fill("#pin", "4826")
    page.click("#pinform button")
    page.wait_for_selector("#owner:not([hidden])")
    assert "noch 15 min" in page.inner_text("#left") and page.locator("#login").is_hidden()
    page.click("#links a:text-is('Sicherung der Box')")
    page.wait_for_selector("#forms:not([hidden])")
    assert page.locator("#gate").is_hidden()
    context.close()
