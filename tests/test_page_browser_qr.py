"""A seated phone shows the join QR to a newcomer, in a real browser (Debian's Chromium through Playwright):
the page server on 127.0.0.1 beside a pure app (tests/test_page_server.py's `Box`), phones as browser
contexts of their own. A phone that has not joined neither sees the button nor gets the QR.

Set WORDTABLE_PAGE_SHOTS=1 to rewrite its screenshot, docs/page/invite.png (360×740)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.page.server import PageServer
from tests.helpers.browser import require_browser
from tests.helpers.page_box import Box, serve

pytestmark = pytest.mark.slow
require_browser()

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "page"
PHONE = {"width": 360, "height": 740}
FETCH_QR = "async () => { const r = await fetch('/api/join-qr.svg'); return [r.status, await r.text()]; }"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PageServer]:
    box = Box()
    served = serve(box, tmp_path)
    yield served
    served.close()


def phone(browser, url: str):
    context = browser.new_context(viewport=PHONE, locale="de-DE", bypass_csp=True)  # the waits evaluate JS
    page = context.new_page()
    page.goto(url)
    return page


def test_a_seated_phone_shows_the_join_qr_and_an_unseated_one_cannot(server, browser):
    seated = phone(browser, f"{server.address}/j/{server.code}")
    seated.click("#seats button[data-seat='0']")
    seated.wait_for_function("document.getElementById('me').textContent === 'Spieler 1'")
    assert seated.is_visible("#inviteopen") and not seated.is_visible("#inviteqr")
    seated.click("#inviteopen")
    seated.wait_for_function("(() => { const qr = document.getElementById('inviteqr');"
                             " return !qr.hidden && qr.complete && qr.naturalWidth > 0; })()")
    box = seated.locator("#inviteqr").bounding_box()
    assert box is not None and box["width"] >= 200 and box["height"] >= box["width"]  # big enough to scan
    status, svg = seated.evaluate(FETCH_QR)
    assert status == 200 and f">{server.code}</text>" in svg
    assert seated.inner_text("#inviteopen") == "QR-Code ausblenden"
    if os.environ.get("WORDTABLE_PAGE_SHOTS"):
        seated.locator("#invite").scroll_into_view_if_needed()
        seated.screenshot(path=str(SHOTS / "invite.png"))
    seated.click("#inviteopen")
    assert not seated.is_visible("#inviteqr")

    newcomer = phone(browser, f"{server.address}/")  # no code, no seat
    newcomer.wait_for_selector("#seats button")
    assert not newcomer.is_visible("#invite")
    status, body = newcomer.evaluate(FETCH_QR)
    assert status == 403 and server.code not in body
