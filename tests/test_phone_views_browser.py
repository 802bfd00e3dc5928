"""The phone as a first-class view (issue 38), in a real browser (Debian's Chromium through Playwright) at
360×740: every documented script (docs/scripts: each game, the timer, the scoreboard, the menu on the way)
played on the pure app while two phones follow it (tests/helpers/phone_walk.py). At every stage each phone
has no horizontal scroll, nothing wider than the screen or than its box, and none of the OLED's own text of that moment
(its cursor and marks, its key hints). And Zugzeit's "Zug fertig" on the phone of the player on turn ends
the turn as the box's turn key does.

Set WORDTABLE_PAGE_SHOTS=1 to rewrite the phone screenshots in docs/night/ (phone_<script>_<snapshot>.png,
at each `# snapshot:` of the German run)."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.app.menu import MENUS, menu_entries
from firmware_host.core.events import Button, Press
from firmware_host.core.games.zugzeit.table import ZugzeitFlow
from firmware_host.core.screens import Screen, describe
from firmware_host.core.settings import Settings
from firmware_host.script import Action, parse_script, run_script
from tests.game_scripts import GAME_SCRIPTS, SCRIPTS, actions, snapshots
from tests.helpers.browser import require_browser
from tests.helpers.phone_walk import Phone, PhoneBox, served, synced, walk

pytestmark = pytest.mark.slow
require_browser()

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "night"
ALL_SCRIPTS = sorted(path.name for path in SCRIPTS.glob("*.script"))
KEYS = re.compile(r"\b(START|NEXT|BACK|MENU)\b")
UNSAID = re.compile(r"\b(START|NEXT|BACK|MENU)\b(?! am Gerät| on the box)")  # a key the phone names as a
# button of its own (the box's keys it names as the box's: "START am Gerät lässt sie weiterlaufen")

LAYOUT = """() => {
  const wide = [...document.querySelectorAll("body *")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5);
  }).map((e) => `${e.tagName}#${e.id}.${e.className} ${e.textContent.slice(0, 40)}`);
  const spilling = [...document.querySelectorAll("main section, main div, main table, main p")].filter(
    (e) => e.getBoundingClientRect().width > 0 && e.scrollWidth > e.clientWidth + 1,
  ).map((e) => `${e.tagName}#${e.id}.${e.className} ${e.scrollWidth} > ${e.clientWidth}`);
  return {scroll: document.scrollingElement.scrollWidth, wide, spilling, text: document.body.innerText};
}"""


def panel_marks(screen: Screen) -> list[str]:
    """The OLED's distinctive lines of `screen`: its list's lines with their cursor or mark ("> ", "* "),
    and each part that names a box key (a key hint such as "NEXT Anzahl · START los")."""
    parts = [piece.strip() for part in describe(screen).split(" | ") for piece in part.split("; ")]
    return [p for p in parts if p.startswith(("> ", "* ")) or KEYS.search(p)]


def check_phone(phone: Phone, screen: Screen, where: str) -> None:
    shown = phone.page.evaluate(LAYOUT)
    assert shown["scroll"] <= 360, f"{where}: scrolls sideways ({shown['scroll']} px): {shown['wide']}"
    assert not shown["wide"], f"{where}: wider than the phone: {shown['wide']}"
    assert not shown["spilling"], f"{where}: wider than its box: {shown['spilling']}"
    text = shown["text"]
    raw = [mark for mark in panel_marks(screen) if mark in text]
    assert not raw, f"{where}: the OLED's text on the phone: {raw}"
    assert not UNSAID.search(text), f"{where}: a box key named on the phone: {UNSAID.findall(text)}"
    assert not any(line.lstrip().startswith("> ") for line in text.splitlines()), f"{where}: a cursor mark"


def steps_of(script: str, lang: str) -> list[Action]:
    """The script's actions; without a game the box's menu opened and closed first (the phone says so);
    in English without the `expect` lines (the scripts expect German)."""
    steps = actions(script)
    if script not in GAME_SCRIPTS:
        steps = [*parse_script("press menu\npress menu"), *steps]
    if lang == "de":
        return steps
    return [replace(s, arg=english_entry(s.arg)) if s.verb == "choose" else s for s in steps if s.verb != "expect"]


def english_entry(german: str) -> str:
    """The English label of the menu's entry (in any of its groups) that `german` names (a script chooses by
    its label)."""
    menus = [app.initial(Settings(lang=lang))[0] for lang in ("de", "en")]
    entries = [[entry for path in MENUS for entry in menu_entries(menu, path)] for menu in menus]
    keys = [key for key, label, _ in entries[0] if german.casefold() in label.casefold()]
    return next(label for key, label, _ in entries[1] if key == keys[0])


def stage_shot(view: dict, script: str) -> str | None:
    """The name of a screenshot worth taking of the phone showing `view` besides the script's snapshots:
    a game being set up, the menu open at the box, the sand running without a game."""
    play = view.get("play") or {}
    if play.get("stage") == "setup":
        return "setup"
    if view.get("at_table") and not view.get("game"):
        return "menu"
    if not view.get("game") and view["timer"]["running"]:
        return "running"
    return None


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("script", ALL_SCRIPTS)
def test_every_stage_on_the_phone_fits_360_px_and_shows_no_panel_text(script, lang, browser, tmp_path):
    box = PhoneBox(lang)
    marks = {s.line: s.slug for s in snapshots(script)}
    shoot = bool(os.environ.get("WORDTABLE_PAGE_SHOTS")) and lang == "de"
    stem = script.removesuffix(".script")
    checked: list[str] = []
    taken: set[str] = set()
    steps = steps_of(script, lang)
    pending = sorted(marks)

    def take(phone: Phone, name: str) -> None:
        if shoot and name not in taken:
            taken.add(name)
            SHOTS.mkdir(parents=True, exist_ok=True)
            phone.page.screenshot(path=str(SHOTS / f"phone_{stem}_{name}.png"), full_page=True)

    def check(phone: Phone, screen: Screen, step: Action | None) -> None:
        where = f"{script} ({lang}) line {step.line if step else 0}, seat {phone.seat + 1}: {describe(screen)}"
        check_phone(phone, screen, where)
        checked.append(where)
        name = stage_shot(phone.page.evaluate("view"), script) if phone.seat == 0 else None
        if name is not None:
            take(phone, name)

    with served(box, tmp_path, browser) as (server, phones):
        done = 0
        for index, step in enumerate(steps):  # walked in pieces: a screenshot at each snapshot marker
            upcoming = steps[index + 1].line if index + 1 < len(steps) else 10**9
            if index + 1 < len(steps) and not any(step.line < line < upcoming for line in pending):
                continue
            walk(box, server, phones, steps[done:index + 1], check)
            done = index + 1
            while pending and pending[0] < upcoming:
                take(phones[0], marks[pending.pop(0)])
        if not marks:
            take(phones[0], "end")
    assert len(checked) > 2 * 3  # each phone saw several stages


def test_zug_fertig_on_the_phone_of_the_player_on_turn_ends_the_turn_as_the_turn_key(browser, tmp_path):
    steps = actions("turn-timer.script")
    upto = next(s for s in snapshots("turn-timer.script") if s.slug == "anna-thinking").line
    before = [s for s in steps if s.line < upto]  # Anna's clock runs, 12.5 s in
    key = PhoneBox()
    run_script(before, key.hooks(), lambda line: None)
    box = PhoneBox()
    with served(box, tmp_path, browser) as (server, phones):
        walk(box, server, phones, before, lambda *args: None)
        anna, ben = phones
        synced(server, anna)
        synced(server, ben)
        assert anna.page.locator("#entry.turn").is_visible() and ben.page.locator("#entry").is_hidden()
        anna.page.wait_for_function("wakeLock !== null && !wakeLock.released")  # the screen stays on
        button = anna.page.locator("#actions button")
        assert button.inner_text() == "Zug fertig"
        assert anna.page.inner_text("#clockname") == "Uhr von Anna"
        button.click()
        ben.page.wait_for_selector("#entry.turn:not([hidden])")  # now Ben's phone is the button
        synced(server, anna)
        assert anna.page.locator("#entry").is_hidden()
        assert ben.page.inner_text("#clockname") == "Uhr von Ben"
    key.send(Press(Button.TURN, key.now))  # the box's turn key at the same moment
    flow, by_key = box.state.flow, key.state.flow
    assert isinstance(flow, ZugzeitFlow) and isinstance(by_key, ZugzeitFlow)
    assert flow.played is not None and by_key.played is not None
    assert flow.played.game.on_turn == "Ben" and flow.played.events == by_key.played.events
    assert flow.clock == by_key.clock and box.state.timer == key.state.timer
