"""RDM6300 frame parser and tag debouncer."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.rdm6300 import STX, FrameParser, TagDebouncer, TagPlaced, TagRemoved, checksum, frame

# The example frame of the RDM6300 data sheet: tag 62 E3 08 6C ED, checksum 08.
DATASHEET_FRAME = b"\x0262E3086CED08\x03"


def test_datasheet_frame() -> None:
    assert FrameParser().feed(DATASHEET_FRAME) == ["62E3086CED"]


def test_checksum_is_xor_of_the_five_bytes() -> None:
    assert checksum("0102030405") == f"{1 ^ 2 ^ 3 ^ 4 ^ 5:02X}"
    assert frame("62e3086ced") == DATASHEET_FRAME


def test_lower_case_hex_is_accepted_and_normalised() -> None:
    assert FrameParser().feed(b"\x0262e3086ced08\x03") == ["62E3086CED"]


def test_bad_checksum_rejected() -> None:
    parser = FrameParser()
    assert parser.feed(b"\x0262E3086CED09\x03") == []
    assert parser.stats["checksum"] == 1


def test_ghost_ids_rejected() -> None:
    parser = FrameParser()
    assert parser.feed(frame("0000000000") + frame("FFFFFFFFFF")) == []
    assert parser.stats["ghost"] == 2
    assert FrameParser(ghosts=["62E3086CED"]).feed(DATASHEET_FRAME) == []


def test_non_hex_byte_drops_the_frame() -> None:
    parser = FrameParser()
    assert parser.feed(b"\x0262E3086CXD08\x03") == []
    assert parser.stats["not-hex"] == 1


def test_cut_frame_then_resync() -> None:
    parser = FrameParser()
    assert parser.feed(DATASHEET_FRAME[:7] + DATASHEET_FRAME) == ["62E3086CED"]
    assert parser.stats["cut"] == 1


def test_early_etx_and_missing_etx() -> None:
    parser = FrameParser()
    assert parser.feed(b"\x0262E3\x03" + DATASHEET_FRAME[:-1] + b"0" + DATASHEET_FRAME) == ["62E3086CED"]
    assert parser.stats["cut"] == 1
    assert parser.stats["long"] == 1


def test_byte_by_byte_feeding() -> None:
    parser = FrameParser()
    out = [tag for byte in DATASHEET_FRAME * 2 for tag in parser.feed(bytes([byte]))]
    assert out == ["62E3086CED", "62E3086CED"]


tag_ids = st.text(alphabet="0123456789ABCDEF", min_size=10, max_size=10).filter(
    lambda tag: tag not in {"0000000000", "FFFFFFFFFF"}
)
# Garbage between frames: any bytes but STX (an STX in garbage could legitimately start a real frame).
no_stx = st.binary(max_size=40).map(lambda b: b.replace(bytes([STX]), b""))


@st.composite
def noisy_streams(draw: st.DrawFn) -> tuple[list[bytes], list[str]]:
    """Valid frames with garbage and cut frames (a frame's start, restarted by the next STX) between them."""
    data = bytearray()
    tags: list[str] = []
    for _ in range(draw(st.integers(0, 8))):
        data += draw(no_stx)
        tag = draw(tag_ids)
        if draw(st.booleans()):
            cut_of = draw(tag_ids)
            data += frame(cut_of)[: draw(st.integers(1, 13))]
        data += frame(tag)
        tags.append(tag)
    data += draw(no_stx)
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=6)))
    chunks = [bytes(data[a:b]) for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    return chunks, tags


@pytest.mark.slow
@settings(deadline=None)  # no timing assertions: a loaded CI machine must not fail these
@given(noisy_streams())
def test_every_valid_frame_found_none_invented(stream: tuple[list[bytes], list[str]]) -> None:
    chunks, tags = stream
    parser = FrameParser()
    found: list[str] = []
    for chunk in chunks:
        found += parser.feed(chunk)
        assert parser.pending <= 12
    assert found == tags


@pytest.mark.slow
@settings(deadline=None)
@given(st.lists(st.binary(max_size=64), max_size=20))
def test_arbitrary_bytes_never_crash_and_only_real_frames_come_out(chunks: list[bytes]) -> None:
    parser = FrameParser()
    found: list[str] = []
    for chunk in chunks:
        found += parser.feed(chunk)
        assert parser.pending <= 12
    data = b"".join(chunks)
    # Every reported ID occurs in the input as a complete, correctly checksummed frame.
    pattern = re.compile(rb"\x02([0-9A-Fa-f]{10})([0-9A-Fa-f]{2})\x03")
    real = [m.group(1).decode().upper() for m in pattern.finditer(data)
            if checksum(m.group(1).decode()) == m.group(2).decode().upper()]
    assert found == [tag for tag in real if tag not in {"0000000000", "FFFFFFFFFF"}]


def test_repeated_frames_collapse_to_one_placement() -> None:
    debouncer = TagDebouncer(gap=0.5)
    events = []
    for i in range(20):  # the reader repeats the frame every 50 ms while the card rests
        events += debouncer.seen("62E3086CED", 10.0 + i * 0.05)
    assert events == [TagPlaced("62E3086CED", 10.0)]
    assert debouncer.poll(10.0 + 19 * 0.05 + 0.4) == []
    assert debouncer.poll(10.0 + 19 * 0.05 + 0.5) == [TagRemoved("62E3086CED", 10.0 + 19 * 0.05 + 0.5)]
    assert debouncer.held is None and debouncer.deadline() is None


def test_tap_again_after_the_gap_is_a_new_placement() -> None:
    debouncer = TagDebouncer(gap=0.5)
    assert debouncer.seen("A", 1.0) == [TagPlaced("A", 1.0)]
    assert debouncer.deadline() == 1.5
    assert debouncer.seen("A", 2.0) == [TagRemoved("A", 2.0), TagPlaced("A", 2.0)]


def test_another_card_replaces_the_held_one() -> None:
    debouncer = TagDebouncer(gap=0.5)
    debouncer.seen("A", 1.0)
    assert debouncer.seen("B", 1.1) == [TagRemoved("A", 1.1), TagPlaced("B", 1.1)]


@pytest.mark.slow
@settings(deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ABC"), st.floats(0, 2, allow_nan=False)), max_size=40))
def test_placements_and_removals_alternate(seen: list[tuple[str, float]]) -> None:
    debouncer = TagDebouncer(gap=0.3)
    now = 0.0
    events = []
    for tag, step in seen:
        now += step
        events += debouncer.seen(tag, now)
    events += debouncer.poll(now + 1.0)
    kinds = [type(event) for event in events]
    assert kinds == [TagPlaced, TagRemoved] * (len(events) // 2)
    for placed, removed in zip(events[::2], events[1::2], strict=True):
        assert placed.tag == removed.tag and removed.at >= placed.at

