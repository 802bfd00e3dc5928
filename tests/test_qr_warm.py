"""The QR codes encoded ahead (`firmware_host.qr_warm`): every QR code the table shows is one the state
before the press listed (`core.wifi_table.qr_payloads`), and the warmer encodes each new one once, off the
loop's thread, so the press that opens it finds it in the renderer's caches."""

from __future__ import annotations

import threading

from firmware_host.core.events import PageInfo, WifiInfo
from firmware_host.core.screens import QrScreen
from firmware_host.core.wifi_table import qr_payloads
from firmware_host.qr_warm import QrWarm
from firmware_host.render import render
from firmware_host.render_screens import qr_image, qr_matrix
from tests.table_driver import Table

AP = WifiInfo("ap", "wordtable-3F2A", "k7hq2m9xpr4z", "10.42.0.1", 2.0)
PAGE = PageInfo("http://192.168.1.23:8080", "K7QX", 1.0)


def shown_qr(table: Table) -> str:
    screen = table.screen
    assert isinstance(screen, QrScreen)
    return screen.data


def test_every_qr_code_the_table_opens_was_listed_before_the_press() -> None:
    table = Table()
    assert qr_payloads(table.state.wifi, table.state.page) == ()  # no page, no access point: no code
    table.step(PAGE)
    table.step(AP)
    listed = qr_payloads(table.state.wifi, table.state.page)
    table.hold("next")  # the timer's long NEXT: the page's join code
    page = shown_qr(table)
    table.press("back")
    table.open_game("wifi")
    wifi = shown_qr(table)
    table.press("next")
    page_on_wifi = shown_qr(table)
    assert sorted(listed) == sorted({page, wifi, page_on_wifi}) and len(listed) == 3


class Recorder:
    def __init__(self) -> None:
        self.encoded: list[tuple[str, str]] = []

    def __call__(self, payload: str) -> None:
        self.encoded.append((payload, threading.current_thread().name))


def test_each_new_code_is_encoded_once_on_a_thread_that_may_wait() -> None:
    recorder = Recorder()
    warm = QrWarm(recorder)
    table = Table()
    warm.state_changed(table.state)
    table.step(PAGE)
    for _ in range(3):
        warm.state_changed(table.state)
        warm.wait()
    assert recorder.encoded == [(table.state.page.join_address(), "page-qr")]
    table.step(PageInfo("http://192.168.1.23:8080", "ZZ9Q", 3.0))  # a new table code
    warm.state_changed(table.state)
    warm.wait()
    assert [payload for payload, _ in recorder.encoded] == [PAGE.address + "/j/K7QX", PAGE.address + "/j/ZZ9Q"]


def test_the_press_finds_the_code_in_the_renderers_cache() -> None:
    table = Table()
    table.step(PageInfo("http://192.168.1.77:8080", "W4RM", 1.0))
    warm = QrWarm(lambda payload: qr_image(payload, 64))  # as `warm_qr_codes` does for a 64-px panel
    warm.state_changed(table.state)
    warm.wait()
    before = qr_matrix.cache_info(), qr_image.cache_info()
    table.hold("next")
    render(table.screen, (128, 64))
    after = qr_matrix.cache_info(), qr_image.cache_info()
    assert shown_qr(table) == "http://192.168.1.77:8080/j/W4RM"
    for was, now in zip(before, after, strict=True):  # encoded and drawn by none: taken from the caches
        assert now.hits > was.hits and now.misses == was.misses
