"""The one codec of input events (core/event_codec.py): the journal's format of every event, pinned (journals
written by earlier versions must still read), round trips, and the errors of a stored event that does not
read back. The page's messages and the action scripts make their events through it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.cards import CardTable, kept_name, table_data
from firmware_host.core.event_codec import CODEC, CodecError, decode, edge_cleaned, encode
from firmware_host.core.events import (
    BestRevealed,
    Button,
    CardRemoved,
    CardScan,
    Kept,
    LongPress,
    Notice,
    PageInfo,
    PinKey,
    Press,
    ReaderStatus,
    Resumed,
    SeatAnswer,
    SeatClaim,
    SeatCommand,
    SeatEntry,
    SeatJoin,
    TextEntry,
    Tick,
    Trouble,
    Turn,
    WordsChecked,
    kept_event,
)
from firmware_host.core.text_input import TextRefused

FORMAT = [
    (Press(Button.START, 1.5), {"type": "press", "button": "start", "at": 1.5}),
    (LongPress(Button.BACK, 2.0), {"type": "hold", "button": "back", "at": 2.0}),
    (Turn(-2, 3.0), {"type": "turn", "steps": -2, "at": 3.0}),
    (TextEntry("Ä 1:30", 4.0), {"type": "text", "text": "Ä 1:30", "at": 4.0}),
    (SeatEntry(2, "WORT", 5.0), {"type": "seat_text", "seat": 2, "text": "WORT", "at": 5.0}),
    (SeatCommand(1, "timer", "start", 6.0),
     {"type": "seat_command", "seat": 1, "command": "timer", "value": "start", "at": 6.0}),
    (SeatClaim(0, "c1", 7.0), {"type": "seat_claim", "seat": 0, "claim": "c1", "at": 7.0}),
    (SeatAnswer(1, "c2", True, 7.5), {"type": "seat_answer", "seat": 1, "claim": "c2", "granted": True, "at": 7.5}),
    (SeatJoin("Mia", "c2", 8.0), {"type": "seat_join", "name": "Mia", "claim": "c2", "at": 8.0, "in_place": True}),
    (PinKey("again", 3, 9.5), {"type": "pin_key", "stage": "again", "count": 3, "at": 9.5}),
    (PinKey("done", 0, 9.5, "pin_set"),
     {"type": "pin_key", "stage": "done", "count": 0, "at": 9.5, "notice": "pin_set"}),
    (PageInfo("http://x:1", "CODE", 9.0), {"type": "page", "address": "http://x:1", "code": "CODE", "at": 9.0}),
    (CardScan("rfid", "0A1B", 10.0), {"type": "scan", "reader": "rfid", "code": "0A1B", "at": 10.0}),
    (CardRemoved("rfid", "0A1B", 11.0), {"type": "removed", "reader": "rfid", "code": "0A1B", "at": 11.0}),
    (ReaderStatus("scanner", False, 12.0), {"type": "reader", "reader": "scanner", "present": False, "at": 12.0}),
    (Tick(13.0), {"type": "tick", "at": 13.0}),
    (Resumed(14.0, 60.0), {"type": "resumed", "at": 14.0, "off": 60.0}),
    (Trouble("unsaved", "disk full", 15.0), {"type": "trouble", "kind": "unsaved", "detail": "disk full", "at": 15.0}),
    (Notice("page: busy", 16.0), {"type": "notice", "text": "page: busy", "at": 16.0}),
    (WordsChecked((("HAUS", True), ("XQ", False)), 17.0),
     {"type": "words", "known": {"HAUS": True, "XQ": False}, "at": 17.0}),
    (BestRevealed(3, "de", (("Ann", "HAUS", 12, "H", 4),), 18.0),
     {"type": "best", "round": 3, "source": "de", "best": [["Ann", "HAUS", 12, "H", 4]], "at": 18.0}),
    (kept_event({"cards/quiddler": {"A1": "QU"}}, 19.0),
     {"type": "kept", "items": {"cards/quiddler": {"A1": "QU"}}, "at": 19.0}),
]


@pytest.mark.parametrize(("event", "data"), FORMAT, ids=[type(e).__name__ for e, _ in FORMAT])
def test_each_event_is_written_as_the_journal_has_always_written_it_and_reads_back(event, data):
    assert encode(event) == data and list(encode(event)) == list(data)  # the keys in this order
    assert decode(data) == event


def test_every_event_the_codec_knows_is_pinned_above():
    assert {type(event) for event, _ in FORMAT} == {entry.event for entry in CODEC}


def test_journals_of_earlier_versions_still_read():
    assert decode({"type": "resumed", "at": 1.0}) == Resumed(1.0, 0.0)  # before the time off was kept
    before_people = {"type": "seat_join", "name": "Mia", "claim": "c2", "at": 8.0}  # joined after the defaults
    assert decode(before_people) == SeatJoin("Mia", "c2", 8.0, in_place=False)
    old = decode({"type": "cards", "tables": {"quiddler": {"A1": "QU"}}, "at": 2.0})  # before `kept`
    expected = {kept_name("quiddler"): table_data(CardTable("quiddler", {"A1": "QU"}))}
    assert isinstance(old, Kept) and old == kept_event(expected, 2.0)


@pytest.mark.parametrize("data", [
    {"type": "press", "button": "start"},  # no time
    {"type": "press", "button": "start", "at": math.inf},
    {"type": "press", "button": "nope", "at": 1.0},
    {"type": "seat_text", "seat": -1, "text": "x", "at": 1.0},
    {"type": "seat_text", "seat": True, "text": "x", "at": 1.0},
    {"type": "seat_text", "seat": 1.0, "text": "x", "at": 1.0},
    {"type": "turn", "steps": "many", "at": 1.0},
    {"type": "what", "at": 1.0},
    {"at": 1.0},
    {"type": "words", "known": ["HAUS"], "at": 1.0},
])
def test_an_event_that_does_not_read_back_is_a_codec_error(data):
    with pytest.raises(CodecError):
        decode(data)


def test_an_event_the_codec_does_not_know_is_not_written():
    with pytest.raises(CodecError):
        encode(object())  # type: ignore[arg-type]


texts = st.text(max_size=12)
times = st.floats(allow_nan=False, allow_infinity=False, width=64)
events = st.one_of(
    st.builds(Press, st.sampled_from(Button), times), st.builds(LongPress, st.sampled_from(Button), times),
    st.builds(Turn, st.integers(-50, 50), times), st.builds(TextEntry, texts, times),
    st.builds(SeatEntry, st.integers(0, 15), texts, times),
    st.builds(SeatCommand, st.integers(0, 15), texts, texts, times),
    st.builds(SeatJoin, texts, texts, times), st.builds(CardScan, texts, texts, times),
    st.builds(SeatAnswer, st.integers(0, 15), texts, st.booleans(), times),
    st.builds(ReaderStatus, texts, st.booleans(), times), st.builds(Tick, times),
    st.builds(Resumed, times, times), st.builds(Notice, texts, times),
    st.builds(WordsChecked, st.lists(st.tuples(texts, st.booleans()), unique_by=lambda p: p[0]).map(tuple), times),
)


@pytest.mark.slow  # hypothesis
@given(events)
def test_any_event_round_trips(event):
    assert decode(encode(event)) == event


def test_the_edge_normalises_the_typed_text_the_table_names_and_leaves_what_the_shell_says():
    loose = "  Ju\u0308rgen   Maier "  # a decomposed umlaut, outer and inner spaces
    assert edge_cleaned(TextEntry(loose, 1.0)) == TextEntry("Jürgen Maier", 1.0)
    assert edge_cleaned(SeatJoin(loose, " c1 ", 1.0)) == SeatJoin("Jürgen Maier", "c1", 1.0)
    assert edge_cleaned(CardScan(" tty0 ", " 62E3 ", 1.0)) == CardScan("tty0", "62E3", 1.0)
    assert edge_cleaned(CardRemoved(" tty0 ", " 62E3 ", 1.0)) == CardRemoved(" tty0 ", " 62E3 ", 1.0)
    assert edge_cleaned(Notice(loose, 1.0)) == Notice(loose, 1.0)
    assert edge_cleaned(Press(Button.START, 1.0)) == Press(Button.START, 1.0)


def test_the_edge_refuses_the_first_text_it_cannot_take():
    with pytest.raises(TextRefused):
        edge_cleaned(SeatCommand(0, "points", "x\u202ey", 1.0))
    with pytest.raises(TextRefused):
        edge_cleaned(PageInfo("http://a", "c" * 65, 1.0))
