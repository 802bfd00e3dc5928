"""The input-event decoder, sans I/O: recorded `input_event` byte streams in, key actions and the table's
events out (press, repeat, release, Shift, AltGr, Caps Lock, lost events, both record sizes)."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.input_event import (
    EV_KEY,
    EV_SYN,
    EVIOCGRAB,
    SYN_DROPPED,
    EventParser,
    InputEvent,
    has_keys,
    record,
)
from drivers.keymap import (
    KEY_BACKSPACE,
    KEY_CAPSLOCK,
    KEY_DOWN,
    KEY_ENTER,
    KEY_ESC,
    KEY_LEFTCTRL,
    KEY_LEFTSHIFT,
    KEY_RIGHTALT,
    KEY_TAB,
    KEY_UP,
    LAYOUTS,
)
from drivers.keys import MAX_BUFFER, Char, Key, KeyDecoder, LineEditor, ScanLine, coalesce
from firmware_host.core.events import Button, LongPress, Press, TextEntry, Typing
from firmware_host.core.text_field import typed
from tests.keystreams import key_change, key_stream, keys_for, typing_stream


def decode(data: bytes, layout: str = "de", *, long_bytes: int = 8, chunk: int | None = None) -> list:
    """The table's events for a keyboard's byte stream (fed in chunks of `chunk` bytes, or whole)."""
    parser, decoder, editor = EventParser(long_bytes), KeyDecoder(LAYOUTS[layout]), LineEditor(typed)
    events: list = []
    pieces = [data] if chunk is None else [data[i : i + chunk] for i in range(0, len(data), chunk)]
    for piece in pieces:
        for raw in parser.feed(piece):
            action = decoder.feed(raw)
            if action is not None:
                events += editor.apply(action, 1.0)
    return events


def lines(events: list) -> list[str]:
    return [e.text for e in events if isinstance(e, TextEntry)]


def actions(data: bytes, layout: str = "de") -> list:
    parser, decoder = EventParser(), KeyDecoder(LAYOUTS[layout])
    return [a for raw in parser.feed(data) if (a := decoder.feed(raw)) is not None]


# --- records ---------------------------------------------------------------------------------------------


def test_records_are_24_bytes_on_a_64_bit_kernel_and_16_on_32_bit_armv7():
    assert len(record(EV_KEY, 30, 1, long_bytes=8)) == 24 and len(record(EV_KEY, 30, 1, long_bytes=4)) == 16
    assert EventParser(8).size == 24 and EventParser(4).size == 16
    assert EventParser().size == struct.calcsize("llHHi")  # this machine's own


def test_a_record_split_across_reads_waits_until_whole():
    parser = EventParser(8)
    data = record(EV_KEY, 30, 1, long_bytes=8) + record(EV_SYN, 0, 0, long_bytes=8)
    assert parser.feed(data[:10]) == [] and parser.feed(data[10:30]) == [InputEvent(EV_KEY, 30, 1)]
    assert parser.feed(data[30:]) == [InputEvent(EV_SYN, 0, 0)]


def test_grab_is_the_kernels_eviocgrab_and_the_key_bitmap_is_read_from_sysfs_text():
    assert EVIOCGRAB == 0x40044590  # _IOW('E', 0x90, int) in linux/input.h
    keyboard = "120013 0 0 0 0 0 0 0 0 0 0 0 0 e080ffdf01cfffff fffffffffffffffe"  # a real USB keyboard's
    assert has_keys(keyboard, (30, 44, 28, 57), long_bytes=8)
    assert not has_keys("100000 0 0 0", (30,), long_bytes=8)  # a power button: KEY_POWER alone
    assert not has_keys("no bitmap", (30,))


# --- keys ------------------------------------------------------------------------------------------------


def test_a_typed_word_with_shift_umlauts_and_sharp_s_is_one_line_on_enter():
    events = decode(typing_stream("Straße Ölüberfluß"))
    assert lines(events) == ["Straße Ölüberfluß"]
    assert [e.text for e in events if isinstance(e, Typing)][:3] == ["S", "St", "Str"]


def test_the_same_records_in_16_byte_records_of_armv7_in_odd_chunks():
    data = typing_stream("Anna", long_bytes=4)
    assert lines(decode(data, long_bytes=4, chunk=7)) == ["Anna"]


def test_qwertz_swaps_z_and_y_and_us_does_not():
    y_key, z_key = 21, 44  # the keys the kernel names KEY_Y and KEY_Z (US places)
    data = key_stream(y_key) + key_stream(z_key) + key_stream(KEY_ENTER)
    assert lines(decode(data, "de")) == ["zy"] and lines(decode(data, "us")) == ["yz"]


def test_altgr_gives_at_and_euro_on_qwertz_and_ctrl_gives_nothing():
    data = (key_change(KEY_RIGHTALT, 1) + key_stream(16) + key_stream(18) + key_change(KEY_RIGHTALT, 0)
            + key_change(KEY_LEFTCTRL, 1) + key_stream(46) + key_change(KEY_LEFTCTRL, 0) + key_stream(KEY_ENTER))
    assert lines(decode(data)) == ["@€"]  # Ctrl+C made no character


def test_caps_lock_makes_capitals_and_shift_small_ones():
    data = (key_stream(KEY_CAPSLOCK) + key_stream(30) + key_change(KEY_LEFTSHIFT, 1) + key_stream(30)
            + key_change(KEY_LEFTSHIFT, 0) + key_stream(40) + key_stream(12) + key_stream(KEY_ENTER))
    assert lines(decode(data)) == ["AaÄß"]


def test_a_held_key_repeats_characters_and_backspace_but_not_enter():
    data = key_stream(30, repeats=3) + key_stream(KEY_BACKSPACE, repeats=1) + key_stream(KEY_ENTER, repeats=5)
    assert lines(decode(data)) == ["aa"]


def test_lost_events_forget_a_held_shift():
    data = (key_change(KEY_LEFTSHIFT, 1) + record(EV_SYN, SYN_DROPPED, 0) + key_stream(30) + key_stream(KEY_ENTER))
    assert lines(decode(data)) == ["a"]


def test_enter_esc_arrows_and_tab_are_the_tables_keys():
    data = (typing_stream("ab", enter=False) + key_stream(KEY_ESC) + key_stream(KEY_ESC) + key_stream(KEY_TAB)
            + key_stream(KEY_DOWN) + key_change(KEY_LEFTSHIFT, 1) + key_stream(KEY_TAB) + key_change(KEY_LEFTSHIFT, 0)
            + key_stream(KEY_UP) + key_stream(KEY_ENTER))
    events = [e for e in decode(data) if not isinstance(e, Typing) or e.text == ""]
    assert events == [Typing("", 1.0), Press(Button.BACK, 1.0), Press(Button.NEXT, 1.0), Press(Button.NEXT, 1.0),
                      LongPress(Button.NEXT, 1.0), LongPress(Button.NEXT, 1.0), TextEntry("", 1.0)]


def test_an_auto_repeat_storm_fills_the_line_once_and_then_sends_nothing():
    storm = key_stream(30, repeats=300)  # 30 a second for 10 seconds
    parser, decoder, editor = EventParser(), KeyDecoder(LAYOUTS["de"]), LineEditor(typed)
    batches = [storm[i : i + 24 * 3 * 10] for i in range(0, len(storm), 24 * 3 * 10)]  # ten repeats a read
    sent = []
    for batch in batches:
        sent += coalesce([e for raw in parser.feed(batch) if (a := decoder.feed(raw)) for e in editor.apply(a, 1.0)])
    assert editor.line == "a" * MAX_BUFFER
    assert len(sent) <= MAX_BUFFER // 10 + 2  # one Typing per read while it grew, nothing after
    assert sent[-1] == Typing("a" * MAX_BUFFER, 1.0)


def test_coalesce_keeps_the_last_typing_of_each_run_and_everything_else():
    events = [Typing("a", 1), Typing("ab", 1), Press(Button.NEXT, 1), Typing("abc", 1), TextEntry("abc", 1)]
    assert coalesce(events) == [Typing("ab", 1), Press(Button.NEXT, 1), Typing("abc", 1), TextEntry("abc", 1)]


def test_a_scanner_line_is_a_code_and_an_over_long_one_is_dropped():
    scan = ScanLine(max_length=8)
    codes = [scan.apply(a) for a in actions(typing_stream("4006381333931", "us") + typing_stream("K5", "us"), "us")]
    assert [c for c in codes if c] == ["K5"] and scan.dropped == 1
    assert [scan.apply(a) for a in (Char("7"), Key.FORWARD)] == [None, "7"]  # Tab ends a code too


def test_unplugging_forgets_the_modifiers_but_the_line_stays():
    decoder, editor = KeyDecoder(LAYOUTS["de"]), LineEditor(typed)
    for raw in EventParser().feed(typing_stream("Ann", enter=False) + key_change(KEY_LEFTSHIFT, 1)):
        if (action := decoder.feed(raw)) is not None:
            editor.apply(action, 1.0)
    decoder.reset()  # the device is gone
    for raw in EventParser().feed(key_stream(30) + key_stream(KEY_ENTER)):
        if (action := decoder.feed(raw)) is not None:
            last = editor.apply(action, 2.0)
    assert last == [TextEntry("Anna", 2.0)]


# --- any stream ------------------------------------------------------------------------------------------

codes = st.integers(0, 130)
records = st.tuples(st.sampled_from([EV_KEY, EV_KEY, EV_KEY, EV_SYN, 0x04, 0x11]), codes, st.integers(-1, 3))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(records, max_size=120), st.sampled_from(["de", "us"]), st.integers(1, 50), st.binary(max_size=30))
def test_any_stream_never_raises_and_never_makes_a_line_the_keys_did_not_type(stream, layout, chunk, junk):
    data = b"".join(record(t, c, v) for t, c, v in stream) + junk
    events = decode(data, layout, chunk=chunk)
    keys = LAYOUTS[layout]
    pressed = [c for t, c, v in stream if t == EV_KEY and v in (1, 2)]
    typeable = {ch for code in pressed for ch in keys.get(code, ("", "", "")) if ch}
    typeable |= {ch.upper() for code in pressed for ch in keys.get(code, ("", "", ""))[:1] if ch}  # Caps Lock
    for line in lines(events):
        assert line.isprintable() and set(line) <= typeable
        assert len(line) <= len(pressed)
    for event in events:
        assert isinstance(event, Typing | TextEntry | Press | LongPress)


def test_every_character_of_both_layouts_can_be_typed_and_reads_back():
    for layout in ("de", "us"):
        text = "".join(sorted({ch for keys in LAYOUTS[layout].values() for ch in keys if ch and ch != " "}))
        for ch in text:
            keys_for(ch, layout)
        parts = [text[i : i + 30] for i in range(0, len(text), 30)]  # lines shorter than the buffer
        assert lines(decode(b"".join(typing_stream(part, layout) for part in parts), layout)) == parts
