"""The table page end to end as the service runs it: `wordtable run` (a subprocess) with a test profile on
mock pins whose keyboard is a FIFO, a user config with `[page] enabled = true` on 127.0.0.1 and a free
port, and Debian's Chromium through Playwright as the phones.

The box's buttons are mock pins inside the service, out of a test's reach; so the table is set up the way
a power cut leaves it: `wordtable sim --script` plays the setup into the state directory's journal and the
service resumes from it. The table code is the one the service logs (and the OLED shows). The keyboard
FIFO is the box's own input for what only the table decides (NEXT: score the round).

Set WORDTABLE_PAGE_SHOTS=1 to rewrite the reference screenshots in docs/page/ (360×740)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.keymap import KEY_TAB
from tests.helpers.browser import require_browser
from tests.helpers.ports import free_port
from tests.keystreams import Plug, key_stream

pytestmark = pytest.mark.slow
require_browser()

from tests.test_page_browser import join, phone, shot  # noqa: E402  (after the skip)

ROOT = Path(__file__).resolve().parent.parent
QUIDDLER_ROUND_1 = """\
choose Quiddler
press next
press start
press start
press start
press start
press start
expect ging raus
"""
READY = re.compile(r"table page at (\S+) \(code (\w+)\)")


def wordtable(*args: str) -> list[str]:
    return [sys.executable, "-m", "firmware_host", *args]


class Run:
    """`wordtable run` on a test profile (mock pins, a FIFO keyboard) with the page on 127.0.0.1."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.state = folder / "state"
        self.keyboard = Plug(folder / "kbd").plug()
        profile = (ROOT / "hw" / "profiles" / "sim.toml").read_text(encoding="utf-8")
        profile = profile.replace("devices = []", f"devices = [{str(self.keyboard.path)!r}]")
        assert str(self.keyboard.path) in profile
        (folder / "profile.toml").write_text(profile, encoding="utf-8")
        self.port = free_port()
        (folder / "config.toml").write_text(
            f'[page]\nenabled = true\nport = {self.port}\nbind = "127.0.0.1"\n', encoding="utf-8")

    def prepare(self, script: str) -> None:
        (self.folder / "setup.script").write_text(script, encoding="utf-8")
        done = subprocess.run(
            wordtable("sim", "--profile", str(self.folder / "profile.toml"), "--script",
                      str(self.folder / "setup.script"), "--state-dir", str(self.state)),
            cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]

    def start(self) -> None:
        self.log = open(self.folder / "service.log", "w+", encoding="utf-8")  # noqa: SIM115 (kept open)
        self.child = subprocess.Popen(
            wordtable("run", "--profile", str(self.folder / "profile.toml"), "--config",
                      str(self.folder / "config.toml"), "--state-dir", str(self.state)),
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self.log, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = READY.search((self.folder / "service.log").read_text(encoding="utf-8"))
            if found:
                self.url, self.code = found.group(1), found.group(2)
                return
            assert self.child.poll() is None, (self.folder / "service.log").read_text(encoding="utf-8")
            time.sleep(0.05)
        raise AssertionError("the service did not announce its page")

    def stop(self) -> None:
        if self.child.poll() is None:
            self.child.send_signal(signal.SIGTERM)
            self.child.wait(15)
        self.log.close()

    def key(self, code: int) -> None:
        self.keyboard.send(key_stream(code))

    def export(self) -> str:
        done = subprocess.run(wordtable("journal", "export", "--state-dir", str(self.state)), cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Run]:
    box = Run(tmp_path)
    yield box
    if hasattr(box, "child"):
        box.stop()
    box.keyboard.unplug()


def send(page, text: str, button: int = 0) -> None:
    """Type `text` into the entry and press its `button`-th button (0: the first, as Enter does)."""
    label = page.inner_text("#asklabel")
    page.fill("#word", text)
    page.locator("#actions button").nth(button).click()
    return label


def test_a_quiddler_round_laid_down_on_three_phones_is_scored_on_the_box_and_kept_in_the_journal(service, browser):
    service.prepare(QUIDDLER_ROUND_1)
    service.start()
    pages = [phone(browser, f"{service.url}/j/{service.code}") for _ in range(3)]
    for seat, page in enumerate(pages):
        join(page, seat, f"Spieler {seat + 1}")
    for page in pages:
        page.wait_for_selector("#entry:not([hidden])")
        assert "Runde 1 von 8 · 3 Karten" in page.inner_text("#status")
    assert pages[0].locator("#actions button").all_inner_texts() == ["Weiter", "Ich ging raus"]
    shot(pages[0], "quiddler-words")
    send(pages[0], "(QU)IT", 1)  # Spieler 1 went out: laid at once
    pages[0].wait_for_selector("#entry", state="hidden")
    pages[1].wait_for_function("document.getElementById('laid').textContent.includes('(QU)IT')")
    assert pages[1].locator("#actions button").all_inner_texts() == ["Weiter"]  # nobody goes out twice
    send(pages[1], "DO")
    pages[1].wait_for_function("document.getElementById('asklabel').textContent.includes('übrigen')")
    shot(pages[1], "quiddler-left")
    send(pages[1], "G")
    send(pages[2], "CA")
    pages[2].wait_for_function("document.getElementById('asklabel').textContent.includes('übrigen')")
    send(pages[2], "TX")  # 2 + 2 cards: refused with the rules' reason, on the page
    pages[2].wait_for_function("document.getElementById('message').textContent.includes('3 Karten')")
    send(pages[2], "T")
    for page in pages:  # all laid down: each phone may challenge the others' words (the box asks the verdict)
        page.wait_for_function("document.getElementById('asklabel').textContent.includes('anfechten')")
    assert pages[1].locator("#actions button").all_inner_texts() == ["Spieler 1: (QU)IT", "Spieler 3: CA"]
    service.key(KEY_TAB)  # the box (NEXT): no challenges, score the round
    for page in pages:
        page.wait_for_function("document.getElementById('tables').textContent.includes('Runde 1: Wertung')")
    board = pages[2].locator("#tables section").first.locator("tr").all_inner_texts()
    assert len(board) == 4 and "Spieler 1" in board[1]  # (QU)IT beats DO and CA
    shot(pages[2], "quiddler-table")
    service.stop()
    record = service.export()
    lays = [line for line in record.splitlines() if '"lay"' in line]
    assert len(lays) == 3 and '"went_out": true' in lays[0].replace('":true', '": true')
    assert '"G"' in lays[1] and '"T"' in lays[2]
    log = (service.folder / "service.log").read_text(encoding="utf-8")
    assert "phone of seat 3 refused" in log  # the bad entry is in the log too
    assert os.path.getsize(service.state / "journal.sqlite3") > 0


def test_without_a_game_phones_join_by_name_run_the_timer_and_scores_set_the_language_and_read_past_games(
        service, browser):
    finished = (ROOT / "docs" / "scripts" / "quiddler.script").read_text(encoding="utf-8") + "press start\n"
    service.prepare(finished)  # a whole Quiddler game, ended on the winner's screen: now in the journal
    service.start()
    page = phone(browser, f"{service.url}/j/{service.code}")
    page.wait_for_selector("#seats button")
    page.fill("#name", "Mia")  # a new name: the table's first person, in place of the default seats
    page.click("#byname button")
    page.wait_for_function("document.getElementById('me').textContent === 'Mia'")
    page.wait_for_selector("#controls:not([hidden])")
    full = page.inner_text("#timer")
    page.click("#controls [data-value='start']")
    page.wait_for_function(f"document.getElementById('timer').textContent !== {full!r}")
    page.click("#controls [data-value='start']")  # pause
    page.click("#controls [data-value='+1']")
    page.fill("#points", "+7")
    page.click("#pointsform button")
    page.wait_for_function("document.getElementById('board').textContent.includes('Mia8')")
    page.fill("#points", "lots")
    page.click("#pointsform button")
    page.wait_for_function("document.getElementById('notice').textContent.includes('lots')")  # the box's reason
    shot(page, "free")
    other = phone(browser, f"{service.url}/j/{service.code}")
    other.fill("#name", "Ole")
    other.click("#byname button")
    other.wait_for_function("document.getElementById('me').textContent === 'Ole'")
    other.evaluate("socket.send(JSON.stringify({type: 'command', seat: 0, command: 'points', value: '+50'}))")
    other.wait_for_function("document.getElementById('board').textContent.includes('Ole50')")  # Ole's, not Mia's
    page.select_option("#settings select[data-setting='lang']", "en")
    page.wait_for_function("document.querySelector('#controls h2').textContent === 'Sand timer'")
    page.click("#pastopen")
    page.wait_for_selector("#pastlist button[data-game]")
    assert "Quiddler" in page.inner_text("#pastlist")
    page.click("#pastlist button[data-game]")
    page.wait_for_selector("#pastsheet:not([hidden])")
    href = page.get_attribute("#pastlist a", "href")
    with page.expect_download() as download:
        page.click("#pastlist a")
    record = Path(download.value.path()).read_text(encoding="utf-8")
    assert href and record == service.export()  # the same record `wordtable score` reads
    page.locator("#past").scroll_into_view_if_needed()
    shot(page, "past")
    assert "Mia8" in page.inner_text("#board").replace("\t", "").replace("\n", "")
    service.stop()
    log = (service.folder / "service.log").read_text(encoding="utf-8")
    assert "lots" in log
