"""The table page in a real browser (Debian's Chromium through Playwright): the service on mock pins with
its page on 127.0.0.1 (tests/helpers/page_service.py), phones as browser contexts of their own.

Set WORDTABLE_PAGE_SHOTS=1 to rewrite the reference screenshots in docs/page/ (360×740)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.browser import require_browser
from tests.helpers.page_child import Service
from tests.helpers.ports import free_port

pytestmark = pytest.mark.slow
require_browser()

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "page"
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    box = Service(tmp_path, free_port())
    yield box
    box.stop()


def phone(browser, url: str):
    """A phone of its own (its own cookies) with the page open at `url`."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", bypass_csp=True)  # the waits evaluate JS
    page = context.new_page()
    page.goto(url)
    return page


def join(page, seat: int, name: str) -> None:
    page.click(f"#seats button[data-seat='{seat}']")
    page.wait_for_function(f"document.getElementById('me').textContent === {name!r}")


def shot(page, name: str) -> None:
    if os.environ.get("WORDTABLE_PAGE_SHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def start_game(service: Service, players: int) -> None:
    """On the box: MENU, to "Das perfekte Wort", START; the player count; side, points card, button deck."""
    from firmware_host.core import app
    from firmware_host.core.events import PageInfo
    from firmware_host.core.settings import Settings

    state = app.step(app.initial(Settings())[0], PageInfo("http://x", "C", 0.0))[0]
    for event in app.events_to_open(state, "game:perfektes-wort", 0.0) or []:
        service.press(event.button.value)
    service.press("next", (players - 4) % 6)  # 4 → … → players (NEXT wraps from 6 to 1)
    service.press("start", 4)  # players, side, points card, the button deck: round 1 can be revealed


def test_three_phones_join_and_type_a_round_during_the_timer_hidden_until_pens_down(service, browser):
    start_game(service, 3)
    code = service.code  # the box's code (a new game keeps it): what the OLED's "Handy-Seite" shows
    pages = [phone(browser, f"{service.url}/j/{code}") for _ in range(3)]
    pages[0].wait_for_selector("#seats button")
    shot(pages[0], "join")
    for seat, page in enumerate(pages):
        join(page, seat, f"Spieler {seat + 1}")
    service.press("next")  # reveal round 1
    service.press("start")  # the sand runs
    for page in pages:
        page.wait_for_selector("#entry:not([hidden])")
    letter = pages[0].inner_text("#card b")
    pages[0].wait_for_function("!document.getElementById('timer').textContent.startsWith('1:00')")
    words = [letter + "ANE", letter + "OX", letter + "U"]
    for page, word in zip(pages, words, strict=True):
        page.fill("#word", word)
        page.click("#send")
    for page, word in zip(pages, words, strict=True):
        page.wait_for_function(f"document.getElementById('draft').textContent.includes({word!r})")
    pages[0].wait_for_function("document.querySelectorAll('#written span').length === 3")
    shot(pages[0], "timing")
    for i, page in enumerate(pages):  # hidden: no page holds another seat's word, nor does the OLED
        html = page.content()
        assert all(word not in html for j, word in enumerate(words) if j != i)
    assert all(word not in service.screen for word in words)
    service.press("start")  # pens down: the words are entered together
    for page in pages:
        page.wait_for_selector("#words:not([hidden])")
        shown = page.locator("#words td.word").all_inner_texts()
        assert shown == words
    screen = service.screen
    assert all(word in screen for word in words)  # the OLED's review shows them too
    shot(pages[1], "revealed")


def test_a_phone_keeps_its_seat_and_game_when_the_service_is_killed_and_restarted(service, browser):
    start_game(service, 2)
    code = service.code
    pages = [phone(browser, f"{service.url}/j/{code}") for _ in range(2)]
    for seat, page in enumerate(pages):
        join(page, seat, f"Spieler {seat + 1}")
    service.press("next")  # round 1 revealed
    pages[0].wait_for_selector("#card:not([hidden])")
    letter = pages[0].inner_text("#card b")
    service.kill()
    pages[0].wait_for_selector("#offline:not([hidden])")
    service.start()
    for seat, page in enumerate(pages):
        page.wait_for_selector("#offline", state="hidden", timeout=15000)
        assert page.inner_text("#me") == f"Spieler {seat + 1}"
        page.wait_for_selector("#card:not([hidden])")
        assert page.inner_text("#card b") == letter
    pages[1].reload()  # a reload too: the cookie holds the seat
    pages[1].wait_for_function("document.getElementById('me').textContent === 'Spieler 2'")


def test_a_wrong_code_is_refused_and_ten_lock_the_phone_out(service, browser):
    page = phone(browser, f"{service.url}/j/WRONG9")
    page.wait_for_selector("#seats button")
    page.click("#seats button[data-seat='0']")
    page.wait_for_selector("#error:not([hidden])")
    assert "Falscher Code" in page.inner_text("#error")
    for _ in range(9):
        page.click("#seats button[data-seat='0']")
    page.wait_for_function("document.getElementById('error').textContent.includes('gesperrt')")
    page.fill("#code", service.code)
    page.click("#seats button[data-seat='0']")
    page.wait_for_function("document.getElementById('error').textContent.includes('gesperrt')")
    assert page.locator("#me").is_hidden()
    shot(page, "locked")


def test_a_page_writing_for_another_seat_is_refused_and_a_takeover_needs_start(service, browser):
    start_game(service, 2)
    code = service.code
    first = phone(browser, f"{service.url}/j/{code}")
    join(first, 0, "Spieler 1")
    service.press("next")
    service.press("start")
    first.wait_for_selector("#entry:not([hidden])")
    first.evaluate("socket.send(JSON.stringify({type: 'entry', seat: 1, text: 'ABC'}))")
    first.wait_for_function("document.getElementById('error').textContent.includes('nicht dein Platz')")
    second = phone(browser, f"{service.url}/j/{code}")
    second.click("#seats button[data-seat='0']")
    second.wait_for_selector("#waiting:not([hidden])")
    service.wait_screen("Handy will Platz von Spieler 1")  # a footer: START still means the game's START
    entry = int(service.ask("entry page").split()[1])
    service.press("menu")
    service.press("next", entry)
    service.press("start")  # the phone page's screen: the takeover's own
    service.wait_screen("übernimmt")
    service.press("start")  # the table confirms
    second.wait_for_function("document.getElementById('me').textContent === 'Spieler 1'")
    first.reload()
    first.wait_for_selector("#join:not([hidden])")  # the first phone lost the seat
