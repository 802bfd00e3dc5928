"""The owner PIN typed on the box (pure, no I/O): a digit picker on the buttons and the encoder.

The encoder (or NEXT; a long NEXT back) turns the digit shown, START (or the encoder's push) takes it, a long
START ends the PIN (4–8 digits; the 8th digit taken ends it too), BACK deletes the last digit and, with none,
leaves; MENU leaves. A keyboard's line of 4–8 digits is the whole PIN. The PIN is typed twice (`stage` "new",
then "again") and set only when both agree.

The digits are the entry's secret: `typed`, `first` and `digit` are not part of its equality and never in
its repr, and the journal keeps only what `PinKey` says (stage, count, the notice), so an entry replayed
from the journal has its count but not its digits (`lost`): its next key starts it again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Turn

PIN_MIN, PIN_MAX = 4, 8
KEYS = (Press, LongPress, Turn, TextEntry)  # the inputs that type a PIN: each is journaled as a `PinKey`


@dataclass(frozen=True, slots=True)
class PinEntry:
    """The PIN entry open over the menu: at `stage` ("new", "again"), `count` digits typed."""

    stage: str = "new"
    count: int = 0
    digit: int = field(default=0, compare=False, repr=False)  # the digit shown, not yet taken
    typed: str = field(default="", compare=False, repr=False)
    first: str = field(default="", compare=False, repr=False)  # the PIN typed at "new", while "again"

    @property
    def lost(self) -> bool:
        """Whether its digits are gone (the entry was replayed from the journal)."""
        return len(self.typed) != self.count or (self.stage == "again" and not self.first)


@dataclass(frozen=True, slots=True)
class PinKeyed:
    """What a key did: the entry after it (None: it closed), the text key of what the box says now ("":
    nothing), the PIN to set (None: none), and whether the key was refused (an error beep)."""

    entry: PinEntry | None
    notice: str = ""
    pin: str | None = field(default=None, repr=False)
    refused: bool = False


def pin_key(entry: PinEntry, event: Event) -> PinKeyed:
    """The entry after `event` (one of `KEYS`)."""
    if entry.lost:
        return PinKeyed(PinEntry(), "pin_lost")
    if isinstance(event, Turn):
        return PinKeyed(_turned(entry, event.steps))
    if isinstance(event, TextEntry):
        typed = event.text.strip()
        if not typed:  # Enter on an empty line: as a long START
            return _done(entry, entry.typed)
        if not typed.isdigit() or not typed.isascii():
            return PinKeyed(entry, "pin_short", refused=True)
        return _done(entry, typed)
    button = event.button if isinstance(event, Press | LongPress) else None
    if isinstance(event, LongPress):
        if button is Button.NEXT:
            return PinKeyed(_turned(entry, -1))
        if button is Button.START:
            return _done(entry, entry.typed)
        return PinKeyed(entry, refused=True)
    if button is Button.NEXT:
        return PinKeyed(_turned(entry, 1))
    if button in (Button.START, Button.ENCODER):
        typed = entry.typed + str(entry.digit)
        if len(typed) == PIN_MAX:
            return _done(entry, typed)
        return PinKeyed(PinEntry(entry.stage, len(typed), 0, typed, entry.first))
    if button is Button.BACK and entry.typed:
        typed = entry.typed[:-1]
        return PinKeyed(PinEntry(entry.stage, len(typed), 0, typed, entry.first))
    if button in (Button.BACK, Button.MENU):
        return PinKeyed(None, "pin_kept")
    return PinKeyed(entry, refused=True)


def _turned(entry: PinEntry, steps: int) -> PinEntry:
    return PinEntry(entry.stage, entry.count, (entry.digit + steps) % 10, entry.typed, entry.first)


def _done(entry: PinEntry, typed: str) -> PinKeyed:
    """The PIN `typed` ended: too short or long is refused; the first time it is asked again; the second
    time it is set when both agree, else asked anew."""
    if not PIN_MIN <= len(typed) <= PIN_MAX:
        return PinKeyed(entry, "pin_short", refused=True)
    if entry.stage == "new":
        return PinKeyed(PinEntry("again", first=typed))
    if typed != entry.first:
        return PinKeyed(PinEntry(), "pin_differ", refused=True)
    return PinKeyed(None, "pin_set", pin=typed)


def shown(entry: PinEntry) -> str:
    """The entry's big line: a star for each digit taken, then the digit shown (none once all 8 are)."""
    return "*" * entry.count + (str(entry.digit) if entry.count < PIN_MAX else "")
