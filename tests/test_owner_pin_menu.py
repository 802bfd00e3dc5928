"""The owner PIN on the box, through the pure core (core/pin_entry.py, core/app/owner_pin.py): Menu ›
Besitzer-PIN sets it (typed twice on the digit picker, or on a keyboard), changes it (no old PIN: on the
box physical access is the proof) and removes it, each as a `SetOwnerPin` effect; every key of the entry
is journaled as a `PinKey` that says no digit, and the journaled keys replayed reach the same state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from firmware_host.core import app
from firmware_host.core.effects import Beep, Effect, JournalAs, SetOwnerPin
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import Button, Event, LongPress, PinKey, Press, TextEntry, Turn
from firmware_host.core.pin_entry import PinEntry
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings


class Box:
    """The pure app, and what the shell would journal for each input (`JournalAs` in its place)."""

    def __init__(self, lang: str = "de") -> None:
        self.state, _ = app.initial(Settings(lang=lang))
        self.journal: list[Event] = []
        self.effects: list[Effect] = []

    def send(self, *events: Event) -> None:
        for event in events:
            self.state, effects = app.step(self.state, event)
            self.effects += effects
            self.journal.append(next((e.event for e in effects if isinstance(e, JournalAs)), event))

    def choose(self, entry: str) -> None:
        if self.state.overlay is not None:  # the menu left open: closed first
            self.send(Press(Button.MENU, 0.0))
        events = app.events_to_open(self.state, entry, 0.0)
        assert events is not None, entry
        self.send(*events)

    def type_pin(self, pin: str) -> None:
        """Each digit: the encoder turned to it, START; then a long START."""
        for digit in pin:
            self.send(Turn(int(digit), 0.0), Press(Button.START, 0.0))
        self.send(LongPress(Button.START, 0.0))

    def pins_set(self) -> list[str | None]:
        return [e.pin for e in self.effects if isinstance(e, SetOwnerPin)]

    def shown(self) -> str:
        return describe(app.screen(self.state))


def test_the_menu_sets_the_pin_typed_twice_and_the_menu_says_so() -> None:
    box = Box()
    box.choose("owner_pin")
    assert box.state.overlay == PinEntry() and box.shown().startswith("Neue PIN | 0 |")
    box.send(Turn(3, 0.0), Press(Button.START, 0.0), Press(Button.NEXT, 0.0))
    assert box.shown().startswith("Neue PIN | *1 |")  # a star per digit taken, the digit being picked
    box.send(LongPress(Button.NEXT, 0.0), LongPress(Button.NEXT, 0.0), Press(Button.START, 0.0))
    box.send(Press(Button.BACK, 0.0))  # deletes the 9
    assert box.shown().startswith("Neue PIN | *0 |")
    for digit in "580":
        box.send(Turn(int(digit), 0.0), Press(Button.START, 0.0))
    box.send(LongPress(Button.START, 0.0))
    assert box.shown().startswith("PIN wiederholen | 0 |") and box.pins_set() == []
    box.type_pin("3580")
    assert box.pins_set() == ["3580"]
    assert box.state.overlay == app.MenuView("owner", 0) and "Besitzer-PIN gesetzt" in box.shown()


def test_a_pin_changes_without_the_old_one_and_is_removed_from_the_menu() -> None:
    box = Box("en")
    box.choose("owner_pin")
    box.type_pin("1234")
    box.type_pin("1234")
    box.choose("owner_pin")  # on the box physical access is the owner's proof: no old PIN asked
    box.type_pin("9876543")
    box.type_pin("9876543")
    box.choose("owner_pin_off")
    assert box.pins_set() == ["1234", "9876543", None]
    assert box.state.overlay == app.MenuView("owner", 1) and "Owner PIN removed" in box.shown()


@pytest.mark.parametrize(("typed", "notice"), [("123", "4 bis 8 Ziffern"), ("12a4", "4 bis 8 Ziffern")])
def test_a_pin_too_short_or_not_digits_is_refused_with_a_beep(typed: str, notice: str) -> None:
    box = Box()
    box.choose("owner_pin")
    box.send(TextEntry(typed, 0.0))
    assert isinstance(box.state.overlay, PinEntry) and box.state.overlay.stage == "new"
    assert notice in box.shown() and any(isinstance(e, Beep) and e.pattern == "error" for e in box.effects)


def test_two_pins_that_differ_ask_anew_and_set_nothing() -> None:
    box = Box()
    box.choose("owner_pin")
    box.send(TextEntry("4711", 0.0), TextEntry("4712", 0.0))
    assert box.state.overlay == PinEntry() and "Nicht gleich" in box.shown() and box.pins_set() == []
    box.send(TextEntry("4711", 0.0), TextEntry("4711", 0.0))  # a keyboard's line is the whole PIN
    assert box.pins_set() == ["4711"]


def test_the_eighth_digit_ends_the_pin() -> None:
    box = Box()
    box.choose("owner_pin")
    for _ in range(8):
        box.send(Press(Button.START, 0.0))
    assert box.state.overlay == PinEntry("again")


@pytest.mark.parametrize("leave", [Press(Button.MENU, 0.0), Press(Button.BACK, 0.0)])
def test_back_on_an_empty_entry_or_menu_leaves_it_and_keeps_the_pin(leave: Event) -> None:
    box = Box()
    box.choose("owner_pin")
    box.send(leave)
    assert box.state.overlay == app.MenuView("owner", 0) and "PIN unverändert" in box.shown()
    assert box.pins_set() == []


def test_the_journal_keeps_no_digit_and_is_the_same_for_any_pin() -> None:
    """Every key the entry took is journaled as a PinKey (stage and count only): two PINs typed with the same
    keys make the same journal, so it cannot give either back; its encoding holds no digit of them."""
    journals = []
    for pin in ("9173", "2468"):
        box = Box()
        box.choose("owner_pin")
        box.type_pin(pin)
        box.type_pin(pin)
        typed = box.journal[len(app.events_to_open(Box().state, "owner_pin", 0.0) or []):]
        assert typed and all(isinstance(event, PinKey) for event in typed)
        assert box.pins_set() == [pin]
        journals.append([encode(event) for event in box.journal])
    assert journals[0] == journals[1]
    assert [decode(data) for data in journals[0]][-1] == PinKey("done", 0, 0.0, "pin_set")


def test_the_journaled_keys_replayed_reach_the_same_state_without_the_digits() -> None:
    box = Box()
    box.choose("owner_pin")
    box.send(TextEntry("5555", 0.0), Turn(4, 0.0), Press(Button.START, 0.0), Press(Button.START, 0.0))
    replayed, _ = app.initial(Settings())
    for event in box.journal:
        replayed = app.fold(replayed, decode(encode(event)))
    assert replayed == box.state  # the digits are not part of the entry's equality
    entry = replayed.overlay
    assert isinstance(entry, PinEntry) and (entry.stage, entry.count, entry.typed, entry.first) == ("again", 2, "", "")
    assert "5555" not in repr(box.state) and "5555" not in repr(box.effects)
    after, effects = app.step(replayed, Press(Button.START, 0.0))  # a resumed entry has lost its digits
    assert after.overlay == PinEntry() and "Neu eingeben" in describe(app.screen(after))
    assert not [e for e in effects if isinstance(e, SetOwnerPin)]


def test_the_entry_fits_the_panel() -> None:
    from firmware_host import render

    for lang in ("de", "en"):
        box = Box(lang)
        box.choose("owner_pin")
        box.send(*[Press(Button.START, 0.0)] * 7)
        for size in ((128, 64), (256, 64)):
            shown = replace(app.screen(box.state), footer="")  # the hint is the layout's to page
            assert render.pages(shown, size) == 1 and not render.lost(shown, size), describe(shown)
