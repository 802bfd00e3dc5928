"""Legible across the table: a bitmap face for small monochrome panels at two sizes, and nothing cut off —
a text too long for its place is shown a page at a time (the shell turns the pages)."""

from __future__ import annotations

import pytest

from firmware_host.core.events import Notice
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen
from firmware_host.render import FONT_DIR, _metrics, _primary, cap_height, font, lost, paged, pages, render
from firmware_host.shell import PAGE_S
from tests.script_screens import ALL_SCRIPTS, every_screen

SIZES = [(128, 64), (256, 64)]
HINT = "START weiter · NEXT nächstes · lang START ungültig"


def test_primary_capitals_are_at_least_9_px_on_a_64_px_panel_and_secondary_are_smaller():
    primary, secondary = cap_height(_primary(64).size), cap_height(_metrics(64).size)
    assert primary >= 9 and 6 <= secondary < primary
    assert (primary, secondary) == (10, 8)
    assert cap_height(_primary(64).size, bold=True) == primary


def test_the_face_has_the_german_letters_and_ships_its_licence():
    small = font(12)
    for ch in "ÄÖÜäöüß„“…→−·":
        assert small.getmask(ch).getbbox() is not None, ch  # drawn, not an empty box
    assert "Open Font License" in (FONT_DIR / "LICENSE-Terminus.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("size", SIZES)
def test_a_long_hint_is_paged_at_its_parts_and_every_page_is_drawn(size):
    screen = BigScreen("Runde 1: prüfen", "F", HINT)
    small = font(_metrics(size[1]).size)
    parts = paged(HINT, small, size[0] - 4)
    assert len(parts) == pages(screen, size) > 1
    assert " · ".join(parts) == HINT  # nothing is lost, nothing added
    assert all(small.getlength(p) <= size[0] - 4 for p in parts)
    frames = [render(screen, size, page).tobytes() for page in range(len(parts))]
    assert len(set(frames)) == len(parts)  # each page its own frame …
    assert render(screen, size, len(parts)).tobytes() == frames[0]  # … and round again
    assert lost(screen, size) == []


def test_a_long_message_is_shown_a_screenful_at_a_time():
    lines = tuple(f"Zeile {n}: Wörter über Wörter" for n in range(1, 4))
    screen = MessageScreen("Regeln", lines, "BACK: zurück")
    assert pages(screen, (128, 64)) >= 3 and lost(screen, (128, 64)) == []
    assert len({render(screen, (128, 64), page).tobytes() for page in range(pages(screen, (128, 64)))}) > 1


def test_what_fits_has_one_page():
    assert pages(ListScreen("Menü", (ListItem("Timer", "1:00"),), 0, "START"), (128, 64)) == 1


@pytest.mark.slow
@pytest.mark.parametrize("script", ALL_SCRIPTS)
def test_no_screen_a_script_reaches_loses_text_to_truncation(script):
    cut = {(line, size): lost(screen, size) for line, screen in every_screen(script) for size in SIZES}
    assert not {key: texts for key, texts in cut.items() if texts}


def test_the_shell_turns_the_pages_of_a_long_footer(sim):
    shell = sim.appliance.shell
    sim.send(Notice("Leser „rfid“ fehlt – weiter mit Tasten · bitte Kabel prüfen", sim.clock.now))
    assert shell.pages > 1 and shell.page_at == pytest.approx(sim.clock.now + PAGE_S)
    first, frames = sim.image.tobytes(), shell.frames
    shell.turn_page(shell.page_at)
    assert shell.frames == frames + 1 and shell.page == 1 and sim.image.tobytes() != first
    for _ in range(shell.pages - 1):
        shell.turn_page(shell.page_at)
    assert sim.image.tobytes() == first  # round again
    sim.send(Notice("kurz", sim.clock.now))
    assert shell.pages == 1 and shell.page_at is None and shell.page == 0


def test_the_simulators_virtual_clock_turns_the_pages_as_the_shell_does_on_the_real_one(make_sim):
    printed: list[str] = []
    sim = make_sim(frames_out=printed.append)
    shell = sim.appliance.shell
    sim.send(Notice("Leser „rfid“ fehlt – weiter mit Tasten · bitte Kabel prüfen", sim.clock.now))
    start, first, shown = sim.clock.now, sim.image.tobytes(), len(printed)
    sim.wait_until(start + PAGE_S - 0.1)
    assert shell.page == 0 and len(printed) == shown  # not yet
    sim.wait_until(start + PAGE_S)  # a script's `wait`: page 2, drawn and printed at its moment
    assert shell.page == 1 and sim.image.tobytes() != first and len(printed) == shown + 1
    assert f"t = {start + PAGE_S:.3f} s" in printed[-1]
    sim.wait_until(start + shell.pages * PAGE_S + 0.5)  # on round to page 1 again, one frame per page
    assert shell.page == shell.pages and sim.image.tobytes() == first
    assert len(printed) == shown + shell.pages


def test_a_running_clock_pages_its_hint_once_without_restarting_it_every_second_then_rests_on_the_first_page(
        make_sim):
    from firmware_host.core import app
    from firmware_host.core.events import Button, Press

    sim = make_sim()
    shell = sim.appliance.shell
    sim.send(Press(Button.START, 0.0))  # the timer runs: a new frame every second, its hint in two pages
    assert shell.pages == 2 and shell.page == 0
    frames = shell.frames
    sim.wait_until(2.0)
    assert shell.frames == frames + 2  # the ticks' frames only: the page turned within the one at 2.0 s
    assert shell.page == 1 and app.screen(sim.state).big == "0:58"
    assert sim.image.tobytes() == render(app.screen(sim.state), shell.outputs.display.size, 1).tobytes()
    sim.wait_until(4.0)
    assert shell.page == 0 and shell.page_at is None  # every page shown: the first again, and it rests there
    frames = shell.frames
    sim.wait_until(30.0)
    assert shell.page == 0 and shell.frames == frames + 26  # the digits count on, the hint stays put
    assert sim.image.tobytes() == render(app.screen(sim.state), shell.outputs.display.size, 0).tobytes()
    sim.send(Press(Button.START, 30.0))  # paused: another hint, from its first page, paging again
    assert shell.page == 0 and shell.page_at == 32.0
    sim.wait_until(40.0)  # a stopped clock does not rest: its hint keeps turning
    assert shell.page == 5  # turned at 32, 34, 36, 38 and 40 s


def test_the_big_view_shows_the_player_with_their_total_and_the_card_with_its_length_in_large_glyphs():
    from firmware_host.render import big_font_size
    from tests.game_scripts import play_to_snapshots

    knack = dict((snap.slug, screen) for snap, screen in play_to_snapshots("knack-das-wort.script"))
    assert knack["anna-at-30-points"].big == "Anna 30"
    card = dict((snap.slug, screen) for snap, screen in play_to_snapshots("perfektes-wort.script"))
    assert card["round-1-card"].big == "F 8"
    for screen in (knack["anna-at-30-points"], card["round-1-card"]):
        # between a 12-px title and footer on 128×64: at least 24 px (DejaVu Bold: capitals 17 px and more,
        # beside the primary text's 10)
        assert big_font_size(screen.big, 124, 64 - 2 * _metrics(64).pitch - 2) >= 24
