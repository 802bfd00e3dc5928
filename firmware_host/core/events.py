"""Input events: what the table does, each carrying its own monotonic timestamp (seconds).

Drivers and the shell create these; the core consumes them. No event is ever an error: an input that
means nothing in the current state is answered by the core with feedback, never with an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Button(StrEnum):
    START = "start"
    NEXT = "next"
    BACK = "back"
    MENU = "menu"
    ENCODER = "encoder"  # the rotary encoder's push switch, when fitted
    TURN = "turn"  # a dedicated "turn" button, when fitted (reported at its press edge: ends a turn)


@dataclass(frozen=True, slots=True)
class Press:
    """A short press, reported when the button is released before the hold time."""

    button: Button
    at: float


@dataclass(frozen=True, slots=True)
class LongPress:
    """A press held for the hold time (reported once, while still held)."""

    button: Button
    at: float


@dataclass(frozen=True, slots=True)
class Turn:
    """Rotary encoder detents: positive clockwise."""

    steps: int
    at: float


@dataclass(frozen=True, slots=True)
class TextEntry:
    """A line typed on the keyboard (a word, a number, a name)."""

    text: str
    at: float


@dataclass(frozen=True, slots=True)
class Typing:
    """The line being typed on a keyboard, as it stands after each key (`text` "" once it is cleared).
    Only shown on the display: never journaled, never a decision's input — Enter sends the `TextEntry`."""

    text: str
    at: float


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """A line typed on a player's phone (the table page): `seat` is the player's index in the table's
    players, which the page server took from the phone's token — never from what the phone says;
    `person` the id of the phone's person (`core.roster`; -1: a phone that holds a seat, not a person, as
    in journals written before people): then the core takes that person's seat in the game or mode open,
    not `seat`."""

    seat: int
    text: str
    at: float
    person: int = -1


@dataclass(frozen=True, slots=True)
class SeatCommand:
    """A control on a player's phone (the table page) for the table without a game — the sand timer
    (`command` "timer": `value` "start" (start/pause), "flip", "reset"; "length": a duration such as "1:30"),
    the free scoreboard ("points": "+3"/"-2" for the seat's player; "name": the seat's new name; "join": a
    new player `value` at seat `seat`, the next free one) — and the menu's settings at any time ("lang",
    "volume", "warn": a key of that menu). `seat` and `person` come from the phone's token, as in
    `SeatEntry`."""

    seat: int
    command: str
    value: str
    at: float
    person: int = -1


@dataclass(frozen=True, slots=True)
class SeatJoin:
    """A phone joins the table without a game as the player `name` (a person of the roster, or a new one);
    the core seats it at the next free seat — in place of the default "Spieler N" seats of a table nobody
    named —, so two phones joining at once get two seats (`claim` names the request: the page server
    learns from the published `PageState.joined` which seat and person, if any, it got)."""

    name: str
    claim: str
    at: float
    in_place: bool = True  # may take a fresh board's default seats' place (False: journals before people)


@dataclass(frozen=True, slots=True)
class SeatClaim:
    """A phone asks to take over a seat another phone holds; the table confirms it with START (`claim`
    names the request, so the page server knows which one the table answered); `person` is the person
    whose phone it would be (-1: a seat's), as in `SeatEntry`."""

    seat: int
    claim: str
    at: float
    person: int = -1


@dataclass(frozen=True, slots=True)
class ClaimsPending:
    """The takeovers that phones ask for and the page server holds, waiting for the table: (seat, claim)
    each, at most one per seat, oldest first. Only shown — a footer on every screen, the question on the
    phone page's screen, where START grants the first and BACK refuses it — and never journaled, as
    `Typing` is not: a flood of requests never reaches the journal, and what the table answers is
    journaled as its own event (`SeatAnswer`)."""

    claims: tuple[tuple[int, str], ...]
    at: float


@dataclass(frozen=True, slots=True)
class SeatAnswer:
    """The table's answer to takeover `claim` of seat `seat` (`granted`, or refused), given on the phone
    page's screen. The core has the shell journal it in place of the press that gave it
    (`effects.JournalAs`): the press meant it only because a pending claim was shown."""

    seat: int
    claim: str
    granted: bool
    at: float
    person: int = -1  # the person whose phone it is (-1: a seat's), as in `SeatEntry`


@dataclass(frozen=True, slots=True)
class PinKey:
    """A key of the owner PIN entry (`core.pin_entry`) as the journal keeps it: what the entry shows after it
    (`stage`: "new", "again", or "done" once it closed; `count` digits typed) and never which digit. The
    core has the shell journal it in place of the press, turn or line that typed (`effects.JournalAs`), so
    neither the journal nor a backup can give the PIN back; a replay reaches the entry without its digits."""

    stage: str
    count: int
    at: float
    notice: str = ""  # the text key the entry closed with ("pin_set", "pin_kept", …; "" while it is open)


@dataclass(frozen=True, slots=True)
class PageInfo:
    """The table page is served at `address` (e.g. "http://192.168.1.23:8080"; "" when it is off) and
    writes need the table code `code` (the OLED shows both, and the QR code of the join address)."""

    address: str
    code: str
    at: float


@dataclass(frozen=True, slots=True)
class CardScan:
    """A card placed on / read by a reader; `code` is the tag ID or the scanned code."""

    reader: str
    code: str
    at: float


@dataclass(frozen=True, slots=True)
class CardRemoved:
    reader: str
    code: str
    at: float


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """A reader appeared or vanished (unplugged)."""

    reader: str
    present: bool
    at: float


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock: delivered when the core asked to be woken (see `effects.WakeAt`)."""

    now: float


@dataclass(frozen=True, slots=True)
class Resumed:
    """The program restarted and replayed its journal; `at` is the new monotonic time. `off_s` is how
    long the box was off by the wall clock (from the last journaled entry; 0 when unknown or negative):
    a running timer whose time left ran out meanwhile comes back run out, any other comes back paused."""

    at: float
    off_s: float = 0.0


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the shell must tell the table (e.g. a damaged journal was moved aside)."""

    text: str
    at: float


TROUBLES = ("set_aside", "skipped", "unsaved", "moved", "salvaged", "kept")


@dataclass(frozen=True, slots=True)
class Trouble:
    """The shell had to give up on something and the table must know, in its language: `kind` is one of
    `TROUBLES` — an input the core failed on was set aside ("set_aside"), replay skipped `detail` journal
    entries that failed ("skipped"), the journal cannot be written, so nothing from now on is saved
    ("unsaved", `detail` the reason), the journal file was unusable and moved aside ("moved"), and what
    of it still read was salvaged ("salvaged", `detail` "saved/highest"), a kept item's file (a card table)
    could not be written — the journal holds it, and the next start writes the file again ("kept", `detail`
    the reason)."""

    kind: str
    detail: str
    at: float


@dataclass(frozen=True, slots=True)
class Kept:
    """Everything the shell keeps (see `effects.Keep`), loaded at start: (name, data as canonical JSON
    text), sorted by name. It replaces what the core knew; journaled like any input, so a replay needs
    no files. Build it with `kept_event`."""

    items: tuple[tuple[str, str], ...]
    at: float


def canonical_json(data: Any) -> str:
    """One text per JSON value (sorted keys, no spaces), so equal data gives equal, hashable events."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def kept_event(items: Mapping[str, Any], at: float) -> Kept:
    """The `Kept` event for these items (name -> JSON-ready data)."""
    return Kept(tuple(sorted((name, canonical_json(data)) for name, data in items.items())), at)


@dataclass(frozen=True, slots=True)
class WordsChecked:
    """The word list's answer to `effects.CheckWords`: each word and whether the list knows it."""

    known: tuple[tuple[str, bool], ...]
    at: float


@dataclass(frozen=True, slots=True)
class BestRevealed:
    """The word list's answer to `effects.RevealBest`: for round `round` of the game in play, per player
    (player, the best play, its points, the player's own play, its points); `source` names the list."""

    round: int
    source: str
    best: tuple[tuple[str, str, int, str, int], ...]
    at: float


@dataclass(frozen=True, slots=True)
class Highlight:
    """What the game that just ended meant for `person`'s history (`core.history.summary`: `kind` "streak",
    "word", "total" or "win", and its `value`), computed by the shell from the archived games. Only shown
    (the footer after the game), never journaled, as `Typing` is not."""

    person: str
    kind: str
    value: str
    at: float


@dataclass(frozen=True, slots=True)
class WifiInfo:
    """The Wi-Fi watcher's last report, from the shell (`core.wifi_table.WifiState`): the link ("ap", "client",
    …), the network's name, the box's access point's password (only while it is up) and the box's address on
    it. Only shown (the menu's "WLAN" screen), never journaled: the password stays out of the journal."""

    link: str
    ssid: str
    password: str
    address: str
    at: float


# shown, never journaled, never deciding what a journaled input means
DISPLAY_ONLY = (Typing, ClaimsPending, Highlight, WifiInfo)

Event = (
    Press | LongPress | Turn | TextEntry | Typing | CardScan | CardRemoved | ReaderStatus | Tick | Resumed | Notice
    | Kept | WordsChecked | BestRevealed | Trouble | SeatEntry | SeatCommand | SeatJoin | SeatClaim
    | PageInfo | ClaimsPending | SeatAnswer | Highlight | PinKey | WifiInfo
)


def event_time(event: Event) -> float:
    """The monotonic time an event happened at."""
    return event.now if isinstance(event, Tick) else event.at
