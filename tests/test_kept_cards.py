"""Enrolled card tables and the storage: the journal holds what the screen said (the enrolment's inputs are
journaled and replay it), the table's file is a copy the start writes again from it. A card table file that
cannot be written (a full or read-only SD card) is told on the OLED and stops nothing; a cut between the
journal's sync and the file's write loses no card; a half-written file is cleared away."""

from __future__ import annotations

import errno
import json
from dataclasses import replace

import pytest

from firmware_host import shell_effects
from firmware_host.core import app
from firmware_host.core.events import Button, CardScan, Press, TextEntry
from firmware_host.kept_store import kept_path

pytestmark = pytest.mark.slow  # the box restarted (a simulator each)

KEPT = "cards/perfektes-wort"


def _enrol(sim, cards: list[tuple[str, str]]) -> None:
    """Open "Karten anlernen" for Das perfekte Wort, enrol `cards` (face, code) one by one and save them
    (START: "N Karten gespeichert"); then back to the list (NEXT)."""
    events = [*(app.events_to_choose(sim.state, "Karten anlernen", 0) or []), Press(Button.START, 0)]
    for face, code in cards:
        events += [TextEntry(face, 0), CardScan("rfid", code, 0)]
    events.append(Press(Button.START, 0))
    for event in events:
        sim.wait_until(sim.clock.now + 0.1)
        sim.send(replace(event, at=sim.clock.now))


def _saved_on_screen(sim) -> str:
    return " ".join([app.screen(sim.state).title, *map(str, getattr(app.screen(sim.state), "lines", ()))])


def test_a_full_sd_card_while_enrolling_is_told_and_the_box_goes_on(make_sim, tmp_path, monkeypatch):
    def full(state_dir, name, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shell_effects, "save_kept", full)
    sim = make_sim()
    _enrol(sim, [("K/5", "AAA"), ("M/7", "BBB")])
    assert "2 Karten gespeichert" in _saved_on_screen(sim)  # the box went on
    assert "Datei nicht geschrieben: voll" in app.screen(sim.state).footer
    assert dict(app.kept_items(sim.state.kept))[KEPT]["cards"] == {"AAA": "K/5", "BBB": "M/7"}
    monkeypatch.undo()
    sim.restart()  # the card has room again: the start writes the file from the journal
    assert json.loads(kept_path(tmp_path, KEPT).read_text())["cards"] == {"AAA": "K/5", "BBB": "M/7"}


@pytest.mark.parametrize("left_half_written", [False, True])
def test_a_cut_between_the_journal_and_the_card_file_loses_no_card(make_sim, tmp_path, monkeypatch,
                                                                  left_half_written):
    sim = make_sim()
    _enrol(sim, [("K/5", "AAA"), ("M/7", "BBB")])
    path = kept_path(tmp_path, KEPT)
    assert json.loads(path.read_text())["cards"] == {"AAA": "K/5", "BBB": "M/7"}

    def cut(state_dir, name, data):  # the power went between the journal's sync and the file's rename
        if left_half_written:
            path.with_name(f"{path.name}.tmp").write_text('{"faces": {"AA', encoding="utf-8")

    monkeypatch.setattr(shell_effects, "save_kept", cut)
    sim.send(Press(Button.NEXT, sim.clock.now + 0.1))  # leave the saved screen: the enrolment again
    _enrol(sim, [("S/6", "CCC")])
    assert "3 Karten gespeichert" in _saved_on_screen(sim)
    monkeypatch.undo()
    sim.restart()
    faces = {"AAA": "K/5", "BBB": "M/7", "CCC": "S/6"}
    assert dict(app.kept_items(sim.state.kept))[KEPT]["cards"] == faces  # what the screen said
    assert json.loads(path.read_text())["cards"] == faces  # and the file again says so
    assert not path.with_name(f"{path.name}.tmp").exists()


def test_at_start_the_journals_card_table_wins_over_an_older_file(make_sim, tmp_path):
    sim = make_sim()
    _enrol(sim, [("K/5", "AAA"), ("M/7", "BBB")])
    path = kept_path(tmp_path, KEPT)
    older = json.loads(path.read_text())
    older["cards"] = {"AAA": "K/5"}
    path.write_text(json.dumps(older), encoding="utf-8")  # a file that missed the last write
    sim.restart()
    assert dict(app.kept_items(sim.state.kept))[KEPT]["cards"] == {"AAA": "K/5", "BBB": "M/7"}
    assert json.loads(path.read_text())["cards"] == {"AAA": "K/5", "BBB": "M/7"}
