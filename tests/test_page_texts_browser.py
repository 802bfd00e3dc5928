"""The packaged pages in a real browser (Debian's Chromium through Playwright) under the page's own
Content-Security-Policy: each page runs its scripts (common.js first) with no error and no refusal of the
policy, and once loaded shows every text of its table in its language — the phone's, or the box's where
the box says it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.core.page_view import page_views
from firmware_host.page import box
from firmware_host.page.server import HEADERS, PageServer
from firmware_host.web import file_routes, pages
from tests.helpers.browser import require_browser
from tests.helpers.page_box import Box

pytestmark = pytest.mark.slow
require_browser()

SHOWN = """() => [document.documentElement.lang,
  [...document.querySelectorAll("[data-t]")].map((node) => [node.dataset.t, node.textContent]),
  [...document.querySelectorAll("[data-ph]")].map((node) => [node.dataset.ph, node.placeholder])]"""
# path, its folder and page, what shows it is ready, its language (None: the phone's)
PAGES = [("/j/{code}", box.ASSETS.parent / "static", "index.html", "#seats button", "de"),
         ("/static/people.html", box.ASSETS.parent / "static", "people.html", "#error:not([hidden])", None),
         ("/backup", box.ASSETS.parent / "static", "backup.html", "#gate:not([hidden])", None),  # not the owner
         ("/owner", box.ASSETS.parent / "static", "owner.html", "#nopin:not([hidden])", None),
         ("/box", box.ASSETS, "box.html", "#typing", "de")]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageServer]:
    """The table page with the virtual box's page (no simulator behind it: /box/state is not there)."""
    table = Box()
    server = PageServer(table.put, lambda: 1.0, bind="127.0.0.1", port=0,
                        state_dir=Path(tmp_path_factory.mktemp("state")),
                        extra_routes=lambda app: file_routes(app, box.ASSETS, HEADERS, at="/box", index="box.html"))
    table.server = server
    server.start()
    server.publish(page_views(table.state))
    yield server
    server.close()


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize(("path", "folder", "name", "ready", "lang"), PAGES, ids=[p[2] for p in PAGES])
def test_a_page_shows_all_its_texts_under_its_security_policy(browser, served, locale, path, folder, name,
                                                               ready, lang):
    context = browser.new_context(locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.goto(served.address + path.format(code=served.code))
    page.wait_for_selector(ready)
    shown_lang, texts, placeholders = page.evaluate(SHOWN)
    context.close()
    table = json.loads((folder / pages(folder)[name].texts).read_text(encoding="utf-8"))
    assert errors == []
    assert shown_lang == (lang or locale[:2])
    assert texts and all(text == table[shown_lang][key] for key, text in texts)
    assert all(text == table[shown_lang][key] for key, text in placeholders)
