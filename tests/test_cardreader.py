"""The reader thread over pyserial's loop:// and over a pty pair: scans, removal, unplug and replug."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import serial

from drivers.cardreader import CardReader, find_usb_port, open_readers
from drivers.rdm6300 import frame
from drivers.reader_config import ReaderConfig, ReaderKind, ReaderRole
from drivers.sim_reader import SimulatedPort
from firmware_host.core.events import CardRemoved, CardScan, Event, ReaderStatus

pytestmark = pytest.mark.slow  # reader threads on ptys and loops, each waits for real time

WAIT = 5.0  # the longest a test waits for an event; a passing test never waits this long
FAST_RETRY = (0.01, 0.05)
RFID = ReaderConfig("rfid", ReaderKind.RDM6300, ReaderRole.CHOOSE, port="loop://", removal_gap_ms=100)
SCANNER = ReaderConfig("draw", ReaderKind.SCANNER, ReaderRole.DRAW, port="loop://")


def next_event(events: queue.Queue[Event], kind: type | None = None) -> Event:
    """The next event (of `kind`, skipping others), or fail after WAIT seconds."""
    while True:
        event = events.get(timeout=WAIT)
        if kind is None or isinstance(event, kind):
            return event


def status(events: queue.Queue[Event]) -> ReaderStatus:
    event = next_event(events)
    assert isinstance(event, ReaderStatus), event
    return event


def scanned(events: queue.Queue[Event]) -> str:
    """The code of the next scan (skipping removals)."""
    event = next_event(events, CardScan)
    assert isinstance(event, CardScan)
    return event.code


@pytest.fixture
def events() -> queue.Queue[Event]:
    return queue.Queue()


def test_rfid_card_placed_once_then_removed(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    with CardReader(RFID, events, opener=ports, retry=FAST_RETRY) as reader:
        assert status(events).present and reader.present is True
        assert ports.send(frame("62E3086CED") * 5 + b"\x02garbage\x03" + frame("62E3086CED") * 3)
        scan = next_event(events)
        assert isinstance(scan, CardScan) and (scan.reader, scan.code) == ("rfid", "62E3086CED")
        removed = next_event(events)
        assert isinstance(removed, CardRemoved) and removed.code == "62E3086CED" and removed.at >= scan.at
    assert events.empty()


def test_clock_is_injected(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    with CardReader(SCANNER, events, opener=ports, clock=lambda: 42.0, retry=FAST_RETRY):
        assert next_event(events) == ReaderStatus("draw", True, 42.0)
        assert ports.send(b"PW07L\r\n")
        assert next_event(events) == CardScan("draw", "PW07L", 42.0)


def test_scanner_lines_each_scan_and_bad_lines_dropped(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    config = ReaderConfig("draw", ReaderKind.SCANNER, ReaderRole.DRAW, port="loop://", max_length=8)
    with CardReader(config, events, opener=ports, retry=FAST_RETRY):
        next_event(events, ReaderStatus)
        assert ports.send(b"A1\rTOO-LONG-LINE\r\nB\x01B\nA1\n")
        codes = [next_event(events), next_event(events)]
        assert [(e.code if isinstance(e, CardScan) else e) for e in codes] == ["A1", "A1"]


def test_unplug_and_replug_over_loop(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    with CardReader(SCANNER, events, opener=ports, retry=FAST_RETRY) as reader:
        assert isinstance(next_event(events), ReaderStatus)
        assert ports.send(b"ONE\n")
        assert scanned(events) == "ONE"
        ports.unplug()
        gone = next_event(events)
        assert isinstance(gone, ReaderStatus) and not gone.present and reader.present is False
        ports.replug()
        back = next_event(events)
        assert isinstance(back, ReaderStatus) and back.present
        assert ports.send(b"TWO\n")
        assert scanned(events) == "TWO"
    assert len(ports.opened) == 2


def test_missing_at_start_reports_absent_then_present(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    ports.unplug()
    with CardReader(SCANNER, events, opener=ports, retry=FAST_RETRY):
        assert status(events).present is False
        ports.replug()
        assert status(events).present


def test_close_is_idempotent_and_joins(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    reader = CardReader(SCANNER, events, opener=ports, retry=FAST_RETRY).start()
    next_event(events)
    reader.close()
    reader.close()
    assert not any(t.name == "reader-draw" for t in threading.enumerate())
    assert not ports.opened[-1].is_open


def test_usb_reader_found_by_vid_pid(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    config = ReaderConfig("draw", ReaderKind.SCANNER, ReaderRole.DRAW, usb=(0x1A86, 0x7523))
    listed: list[Any] = []
    opened: list[str] = []

    def opener(url: str, **kw: Any) -> Any:
        opened.append(url)
        return ports(url, **kw)

    with CardReader(config, events, opener=opener, list_ports=lambda: list(listed), retry=FAST_RETRY):
        assert not status(events).present
        listed.append(SimpleNamespace(vid=0x1A86, pid=0x7523, device="/dev/ttyUSB3"))
        assert status(events).present
    assert opened == ["/dev/ttyUSB3"]


def test_find_usb_port() -> None:
    ports = [SimpleNamespace(vid=None, pid=None, device="/dev/ttyAMA0"),
             SimpleNamespace(vid=0x0403, pid=0x6001, device="/dev/ttyUSB0")]
    assert find_usb_port((0x0403, 0x6001), ports) == "/dev/ttyUSB0"
    assert find_usb_port((0x1A86, 0x7523), ports) is None


def test_two_readers_on_one_queue(events: queue.Queue[Event]) -> None:
    draw, discard = SimulatedPort(), SimulatedPort()
    configs = [SCANNER, ReaderConfig("discard", ReaderKind.SCANNER, ReaderRole.DISCARD, port="loop://")]
    readers = [CardReader(configs[0], events, opener=draw, retry=FAST_RETRY).start(),
               CardReader(configs[1], events, opener=discard, retry=FAST_RETRY).start()]
    try:
        assert {status(events).reader for _ in range(2)} == {"draw", "discard"}
        assert draw.send_line("PW03L")
        assert discard.send_line("PW02N")
        pair = (next_event(events), next_event(events))
        scans = {(e.reader, e.code) for e in pair if isinstance(e, CardScan)}
        assert scans == {("draw", "PW03L"), ("discard", "PW02N")}
    finally:
        for reader in reversed(readers):
            reader.close()


def test_open_readers_starts_each(events: queue.Queue[Event]) -> None:
    ports = SimulatedPort()
    readers = open_readers([SCANNER], events, opener=ports, retry=FAST_RETRY)
    try:
        assert status(events).present
    finally:
        for reader in reversed(readers):
            reader.close()


class Pty:
    """A pty pair standing in for a USB-serial reader at a stable path (a symlink, like /dev/serial/by-id)."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = -1
        self.slave = -1
        self.plug()

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        self.link.symlink_to(os.ttyname(self.slave))

    def unplug(self) -> None:
        self.link.unlink()
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = -1

    def send(self, data: bytes) -> None:
        os.write(self.master, data)


@pytest.fixture
def pty(tmp_path: Path) -> Iterator[Pty]:
    device = Pty(tmp_path / "reader")
    yield device
    if device.master >= 0:
        device.unplug()


def test_rfid_over_a_pty_with_unplug_and_replug(events: queue.Queue[Event], pty: Pty) -> None:
    config = ReaderConfig("rfid", ReaderKind.RDM6300, ReaderRole.DRAW, port=str(pty.link), removal_gap_ms=100)
    with CardReader(config, events, retry=FAST_RETRY):
        assert status(events).present
        pty.send(frame("0A1B2C3D4E") * 3)
        assert scanned(events) == "0A1B2C3D4E"
        removed = next_event(events)
        assert isinstance(removed, CardRemoved) and removed.code == "0A1B2C3D4E"
        pty.unplug()
        gone = next_event(events)
        assert isinstance(gone, ReaderStatus) and not gone.present
        pty.plug()
        assert status(events).present
        pty.send(frame("62E3086CED"))
        assert scanned(events) == "62E3086CED"


def test_session_enrol_three_cards_then_play_with_unplug(events: queue.Queue[Event], pty: Pty) -> None:
    """What the appliance does with reader events: enrol three tags, then follow the piles by taps."""
    from firmware_host.core.cards import Assigned, Enrolment, KnownCard, UnknownCard
    from firmware_host.core.deck import Pile, TablePiles
    from firmware_host.core.games.perfektes_wort.data import LetterCard
    from firmware_host.core.games.perfektes_wort.round_call import RoundCall, round_call

    tags = ["0A1B2C3D4E", "62E3086CED", "1122334455"]
    config = ReaderConfig(
        "rfid", ReaderKind.RDM6300, ReaderRole.CHOOSE, port=str(pty.link), removal_gap_ms=50
    )
    with CardReader(config, events, retry=FAST_RETRY):
        assert status(events).present
        enrolment = Enrolment.start("perfektes-wort", ["B/7", "K/5", "S/9"])
        for tag in tags:
            pty.send(frame(tag) * 4)
            enrolment, said = enrolment.scan(scanned(events))
            assert isinstance(said, Assigned)
        assert enrolment.done and enrolment.progress("en") == "3 of 3"
        table = enrolment.table()

        def face(code: str) -> LetterCard:
            known = table.lookup(code)
            assert isinstance(known, KnownCard)
            letter, number = known.face.split("/")
            return LetterCard(letter, int(number))

        piles: TablePiles[LetterCard] = TablePiles()
        pty.send(frame(tags[0]))  # tapped as the card turned onto the discard pile
        piles = piles.toggle().show(Pile.DISCARD, face(scanned(events))).toggle()
        pty.unplug()
        assert status(events).present is False
        pty.plug()
        assert status(events).present
        pty.send(frame(tags[1]))  # the new top of the draw pile
        piles = piles.show(piles.chosen, face(scanned(events)))
        assert piles.draw_top is not None and piles.discard_top is not None
        assert round_call(piles.draw_top, piles.discard_top, piles.turned) == RoundCall(1, "K", 7)
        pty.send(frame("99AABBCCDD"))
        assert isinstance(table.lookup(scanned(events)), UnknownCard)


def test_simulated_port_refuses_to_send_while_unplugged() -> None:
    ports = SimulatedPort()
    assert not ports.send_line("X")  # nothing opened yet
    port = ports("loop://", baudrate=9600, timeout=0.01)
    assert ports.send_tag("62E3086CED", repeats=2)
    assert port.read(64) == frame("62E3086CED") * 2
    ports.unplug()
    assert not ports.send_line("X")
    with pytest.raises(serial.SerialException):
        ports("loop://", baudrate=9600, timeout=0.01)
