"""The virtual box of `wordtable sim --page` in a real browser (Debian's Chromium through Playwright): the
live simulator runs on a pty as a person starts it; START clicked on /box changes the OLED frame."""

from __future__ import annotations

import pytest

from firmware_host.core.events import Button, Press
from tests.helpers.browser import launch, require_browser
from tests.helpers.ports import free_port
from tests.sim_pty import LiveSim

pytestmark = pytest.mark.slow
playwright = require_browser()


def test_start_pressed_on_the_box_page_changes_the_frame(tmp_path):
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'[page]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n')
    sim = LiveSim(tmp_path / "state", "--page", "--config", str(config))
    try:
        assert sim.wait_for("LED"), sim.text()
        with playwright.sync_playwright() as driver:
            browser = launch(driver)
            page = browser.new_page(viewport={"width": 700, "height": 900}, bypass_csp=True)  # the waits run JS
            page.goto(f"http://127.0.0.1:{port}/box")
            page.wait_for_selector("#buttons button[data-button='start']")
            page.wait_for_function("Number(document.getElementById('oled').dataset.frame) > 0")
            frame = int(page.get_attribute("#oled", "data-frame") or 0)
            before = page.locator("#oled").screenshot()
            page.click("#buttons button[data-button='start']")
            page.wait_for_function(f"Number(document.getElementById('oled').dataset.frame) > {frame}")
            page.wait_for_timeout(300)  # the newest frame has loaded
            after = page.locator("#oled").screenshot()
            assert after != before
            browser.close()
        sim.write("q")
        assert sim.wait_exit() == 0
        presses = [e for e in sim.journal_inputs() if isinstance(e, Press)]
        assert [p.button for p in presses] == [Button.START]
    finally:
        sim.kill()
