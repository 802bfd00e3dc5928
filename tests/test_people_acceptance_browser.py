"""Issue 37's acceptance in a real browser (Debian's Chromium through Playwright): three phones join a fresh
box once by typing their names; the table plays a round of Das perfekte Wort (its players in another
order), a round of Quiddler, Zugzeit and the free scoreboard; the service is killed (kill -9) in the middle
of Quiddler and started again on the same state directory; after it the code printed before joins a
newcomer and the Das perfekte Wort left on the shelf resumes where it was. No phone ever joins again (nor
shows anyone else's name), no "Spieler N" shows that nobody typed (on the phones, on the box, in the
exports and the statistics), and every entry lands on the person whose phone made it.

The service is the one `wordtable run` assembles (tests/helpers/page_service.py: the sim profile's mock
pins, the page on 127.0.0.1; tests/helpers/page_child.py drives it), its buttons pressed on their mock pins."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.browser import require_browser
from tests.helpers.page_child import Service
from tests.helpers.ports import free_port

pytestmark = pytest.mark.slow
require_browser()

from tests.test_page_browser import phone  # noqa: E402  (after the skip)
from tests.test_play_exports import validator  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PEOPLE = ("Anna", "Ben", "Cem")
PLACEHOLDER = re.compile(r"\b(Spieler|Player) \d+\b")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    box = Service(tmp_path / "state", free_port())
    yield box
    box.stop()


def choose(service: Service, key: str, shows: str) -> str:
    """The box's main menu entry `key` chosen with the buttons (MENU, NEXT to it, START); the screen once it
    shows `shows`."""
    if not service.screen.startswith("Menü"):
        service.press("menu")
    see(service, "Menü")
    for button in service.ask(f"way {key}").split()[1:]:
        service.press(button)
    return see(service, shows)


def confirm_leave(service: Service, game: str) -> None:
    """The box asks before it leaves a game begun; START leaves it (for the shelf)."""
    service.press("start")
    see(service, f"{game} pausiert")


def see(service: Service, shows: str) -> str:
    """The box's screen once it shows `shows` (the box's loop is slow on a busy machine)."""
    return service.wait_screen(shows, timeout=30)


def steps(service: Service, button: str, *screens: str) -> None:
    """`button` pressed once per screen in `screens`, each awaited before the next press."""
    for shows in screens:
        service.press(button)
        see(service, shows)


WATCH = """() => {
  window.joinShown = 0;
  window.namesShown = [document.getElementById('me').textContent];
  const join = document.getElementById('join');
  new MutationObserver((records) => {  // a record whose old value is null: the form was shown until then
    window.joinShown += records.filter((r) => r.oldValue === null).length + (join.hidden ? 0 : 1);
  }).observe(join, {attributes: true, attributeFilter: ['hidden'], attributeOldValue: true});
  new MutationObserver(() => { window.namesShown.push(document.getElementById('me').textContent); })
    .observe(document.getElementById('me'), {childList: true, characterData: true, subtree: true});
}"""  # what the page showed of its person from then on: every join form shown, every name in its header


def seated_as(page, name: str) -> None:
    """The phone shows its person and no join form (it never has to join again)."""
    page.wait_for_function(f"document.getElementById('me').textContent === {name!r}")
    assert page.locator("#join").is_hidden()


def no_placeholder(service: Service, phones: list) -> None:
    """Neither the box's screen nor a phone shows a seat's default name."""
    for shown in (service.screen, *(page.inner_text("body") for page in phones)):
        assert not PLACEHOLDER.search(shown), shown


def wordtable(state: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "firmware_host", *args, "--state-dir", str(state)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def send(page, word: str, button: int = 0) -> None:
    page.fill("#word", word)
    page.locator("#actions button").nth(button).click()


def test_three_people_play_an_evening_through_a_kill_and_stay_themselves(service, browser):
    printed = service.code
    phones = [phone(browser, f"{service.url}/j/{printed}") for _ in PEOPLE]
    for page, name in zip(phones, PEOPLE, strict=True):  # each phone joins once, by typing its name
        page.wait_for_selector("#byname button")
        page.fill("#name", name)
        page.click("#byname button")
        seated_as(page, name)
    anna, ben, cem = phones
    for page in phones:
        page.evaluate(WATCH)
    cookies = [page.context.cookies() for page in phones]
    assert all(cookies)

    # Das perfekte Wort, Ben to begin (a long NEXT moves the first seat to the end): Anna sits third.
    choose(service, "game:perfektes-wort", "Das perfekte Wort: 3 Spieler | > * Anna beginnt; Ben; Cem |")
    service.ask("hold next")
    see(service, "Ben beginnt; Cem; Anna |")
    service.press("start", 4)  # the players, the side, the points card, the box's own deck
    service.press("next")  # round 1's card
    service.press("start")  # the sand runs
    for page, name in zip(phones, PEOPLE, strict=True):
        page.wait_for_selector("#entry:not([hidden])")
        seated_as(page, name)
    no_placeholder(service, phones)
    letter = anna.inner_text("#card b")
    words = {"Anna": letter + "ANE", "Ben": letter + "OX", "Cem": letter + "U"}
    for page, name in zip(phones, PEOPLE, strict=True):
        page.fill("#word", words[name])
        page.click("#send")
        page.wait_for_function(f"document.getElementById('draft').textContent.includes({words[name]!r})")
    service.press("start")  # pens down: the words are entered together
    for page in phones:
        page.wait_for_selector("#words:not([hidden])")
        rows = [row.split("\t")[:2] for row in page.locator("#words tr").all_inner_texts()]
        assert rows == [["Ben", words["Ben"]], ["Cem", words["Cem"]], ["Anna", words["Anna"]]]
    see(service, "Runde 1: prüfen")
    steps(service, "start", "Runde 1: Punkte", "Stand nach Runde 1")
    standing = service.screen

    # Quiddler: choosing it asks first; Das perfekte Wort waits on the shelf.
    choose(service, "game:quiddler", "Das perfekte Wort abbrechen?")
    confirm_leave(service, "Das perfekte Wort")
    see(service, "Quiddler · Spieler | 3 |")
    service.press("start")  # three players
    see(service, "> Ben; Cem; Anna |")  # the same players again
    steps(service, "start", "Wer gibt zuerst?", "Spieler: Ben, Cem, Anna", "Runde 1 von 8", "wer ging raus?")
    for page in phones:
        page.wait_for_selector("#entry:not([hidden])")
    no_placeholder(service, phones)
    send(anna, "(QU)IT", 1)  # Anna (the third seat) went out
    anna.wait_for_selector("#entry", state="hidden")
    ben.wait_for_function("document.getElementById('laid').textContent.includes('(QU)IT')")
    send(ben, "DO")
    ben.wait_for_function("document.getElementById('asklabel').textContent.includes('übrigen')")
    send(ben, "G")
    cem.wait_for_function("document.getElementById('laid').textContent.includes('DO')")

    service.kill()  # the power goes, mid-round
    for page in phones:
        page.wait_for_selector("#offline:not([hidden])")
    service.start()
    assert service.code == printed
    for page, name in zip(phones, PEOPLE, strict=True):
        page.wait_for_selector("#offline", state="hidden", timeout=15000)
        seated_as(page, name)
    cem.wait_for_selector("#entry:not([hidden])")
    send(cem, "CA")
    cem.wait_for_function("document.getElementById('asklabel').textContent.includes('übrigen')")
    send(cem, "T")
    for page in phones:
        page.wait_for_function("document.getElementById('asklabel').textContent.includes('anfechten')")
    assert ben.locator("#actions button").all_inner_texts() == ["Cem: CA", "Anna: (QU)IT"]
    service.press("next")  # no challenges: the round is scored
    for page in phones:
        page.wait_for_function("document.getElementById('tables').textContent.includes('Runde 1: Wertung')")
    no_placeholder(service, phones)

    # Zugzeit, Cem to begin: three turns on the box's START.
    choose(service, "game:zugzeit", "Quiddler abbrechen?")
    confirm_leave(service, "Quiddler")
    see(service, "Zugzeit: 3 Spieler | > * Ben beginnt; Cem; Anna |")
    service.ask("hold next")
    see(service, "Cem beginnt; Anna; Ben |")
    service.press("start")
    service.press("next", 4)  # to "Los!"
    service.press("start")
    see(service, "Cem (bereit)")
    for page, name in zip(phones, PEOPLE, strict=True):
        seated_as(page, name)
    steps(service, "start", "Cem (Zug 1)", "Anna (Zug 2)", "Ben (Zug 3)", "Cem (Zug 4)")
    no_placeholder(service, phones)
    service.press("next")  # the actions
    service.press("next", 5)  # "Spiel beenden"
    see(service, "> Spiel beenden")
    service.press("start")
    see(service, "Gesamt")  # the statistics, their first figure
    service.press("start")  # the end: the menu

    # The free scoreboard: each phone books its own points, Cem's as a message that names Anna's seat.
    choose(service, "scoreboard", "Punktetafel")
    points = {"Anna": 3, "Ben": 5, "Cem": 7}
    for page, name in zip(phones, PEOPLE, strict=True):
        seated_as(page, name)
        page.wait_for_selector("#controls:not([hidden])")
        if page is cem:
            page.evaluate("socket.send(JSON.stringify({type: 'command', seat: 0, command: 'points', value: '+7'}))")
        else:
            page.fill("#points", f"+{points[name]}")
            page.click("#pointsform button")
        page.wait_for_function(
            f"document.getElementById('board').textContent.includes({name + str(points[name])!r})")
    no_placeholder(service, phones)
    board = dict(row.split("\t") for row in cem.locator("#board tr").all_inner_texts())
    assert board == {name: str(n) for name, n in points.items()}

    # The code printed before the kill still joins a newcomer.
    dora = phone(browser, f"{service.url}/j/{printed}")
    dora.fill("#name", "Dora")
    dora.click("#byname button")
    seated_as(dora, "Dora")

    # Das perfekte Wort resumes from the shelf across the kill, where it was.
    shelf = choose(service, "shelf", "Das perfekte Wort")
    assert shelf.index("Quiddler") < shelf.index("Das perfekte Wort"), shelf  # the latest first
    service.press("next")
    see(service, "> Das perfekte Wort")
    service.press("start")
    assert see(service, "Stand nach Runde 1") == standing
    for page, name in zip(phones, PEOPLE, strict=True):
        seated_as(page, name)
    no_placeholder(service, phones)
    service.stop()

    assert [page.context.cookies() for page in phones] == cookies  # the phones kept their one token each
    for page, name in zip(phones, PEOPLE, strict=True):  # never a join form, never anyone else's name
        assert page.evaluate("window.joinShown") == 0
        assert set(page.evaluate("window.namesShown")) == {name}

    state = service.state_dir
    games = re.findall(r"^(\d+) ", wordtable(state, "journal", "list"), re.MULTILINE)
    records = {}
    for game in games:
        lines = [json.loads(line) for line in wordtable(state, "journal", "export", "--game", game).splitlines()]
        records[lines[0]["game"]] = lines[1:]
    assert sorted(records) == ["perfektes-wort", "quiddler", "zugzeit"]
    setups = {game: lines[0]["players"] for game, lines in records.items()}
    assert setups == {"perfektes-wort": ["Ben", "Cem", "Anna"], "quiddler": ["Ben", "Cem", "Anna"],
                      "zugzeit": ["Cem", "Anna", "Ben"]}
    entered = {line["player"]: line["word"] for line in records["perfektes-wort"] if line["event"] == "word"}
    assert entered == words  # each word on the person whose phone typed it
    laid = {line["player"]: (line["words"], line.get("unused", ""), line.get("went_out", False))
            for line in records["quiddler"] if line["event"] == "lay"}
    assert laid == {"Anna": (["(QU)IT"], "", True), "Ben": (["DO"], "G", False), "Cem": (["CA"], "T", False)}
    turns = [line["player"] for line in records["zugzeit"] if line["event"] == "turn"]
    assert turns == ["Cem", "Anna", "Ben"]
    stats = wordtable(state, "stats", "--json")  # the one game finished, Zugzeit, on each of its people
    assert {person["name"]: person["played"] for person in json.loads(stats)["people"]} == dict.fromkeys(PEOPLE, 1)
    bgstats = wordtable(state, "journal", "export", "--all", "--format", "bgstats")
    check = validator()
    for play in map(json.loads, bgstats.splitlines()):  # each play as BG Stats reads it, the people by name
        check.validate(play)
        assert sorted(player["name"] for player in play["players"]) == sorted(PEOPLE)
    for output in (wordtable(state, "journal", "list"), *(json.dumps(lines) for lines in records.values()),
                   wordtable(state, "journal", "export", "--all", "--format", "plays"), bgstats, stats):
        assert not PLACEHOLDER.search(output), output
