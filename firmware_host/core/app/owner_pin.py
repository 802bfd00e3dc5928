"""The owner PIN in the menu (Menu › Besitzer-PIN): set it (typed twice on the box, `core.pin_entry`) or
remove it. On the box physical access is the owner's proof: changing or removing the PIN asks for no old
one (removing it only closes the page's owner settings: without a PIN nobody reaches them).

Every key the entry takes is journaled as a `PinKey` (`JournalAs`): what the entry shows, never the digits;
`SetOwnerPin` hands the PIN to the shell, which keeps a salted slow hash of it (never the journal).
"""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.app.actions import refuse
from firmware_host.core.app.state import AppState, MenuView, Step, t
from firmware_host.core.effects import Beep, Effect, JournalAs, SetOwnerPin
from firmware_host.core.events import Event, PinKey, event_time
from firmware_host.core.pin_entry import KEYS, PinEntry, pin_key, shown
from firmware_host.core.screens import BigScreen

GROUP = "owner"  # the menu's group (`menu.MENUS`)
SET, REMOVE = "owner_pin", "owner_pin_off"  # its entries


def open_pin(state: AppState) -> Step:
    """The entry "PIN festlegen" chosen: the PIN entry, empty."""
    return replace(state, overlay=PinEntry(), notice=""), []


def remove_pin(state: AppState) -> Step:
    """The entry "PIN entfernen" chosen: the PIN is gone (the menu stays on the entry)."""
    return replace(state, notice=t(state.settings, "pin_removed")), [SetOwnerPin(None)]


def pin_event(state: AppState, event: Event) -> Step:
    """A key of the open PIN entry; journaled as the `PinKey` of what it did."""
    entry = state.overlay
    assert isinstance(entry, PinEntry)
    if not isinstance(event, KEYS):
        return refuse(state, "")
    keyed = pin_key(entry, event)
    after = keyed.entry
    told = PinKey("done" if after is None else after.stage, 0 if after is None else after.count,
                  event_time(event), keyed.notice)
    state = pin_keyed(state, told)
    if after is not None:
        state = replace(state, overlay=after)  # equal to the replayed one, with its digits
    effects: list[Effect] = [JournalAs(told)]
    if keyed.pin is not None:
        effects.append(SetOwnerPin(keyed.pin))
    if keyed.refused:
        effects.append(Beep("error", state.settings.volume))
    return state, effects


def pin_keyed(state: AppState, event: PinKey) -> AppState:
    """The state a `PinKey` leads to (live, and replayed from the journal): the entry at its stage and
    count without digits, or the owner's menu on the entry once it closed; the notice it said."""
    notice = t(state.settings, event.notice) if event.notice else ""
    if event.stage == "done":
        return replace(state, overlay=MenuView(GROUP, 0), notice=notice)
    return replace(state, overlay=PinEntry(event.stage, event.count), notice=notice)


def pin_replayed(state: AppState, event: PinKey) -> Step:
    """A journaled `PinKey` (a replay): its state, nothing carried out again."""
    return pin_keyed(state, event), []


def pin_screen(state: AppState, entry: PinEntry) -> BigScreen:
    """The PIN entry: its stage as the title, a star per digit typed and the digit shown, the hint."""
    s = state.settings
    return BigScreen(t(s, "pin_new" if entry.stage == "new" else "pin_again"), shown(entry),
                     state.notice or t(s, "pin_hint"))
