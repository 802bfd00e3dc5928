"""Line-terminated scanner code parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.scanner import LineParser, Rejected


def test_cr_lf_and_crlf_terminate() -> None:
    assert LineParser().feed(b"PW01L\rPW01N\nQD117\r\n") == ["PW01L", "PW01N", "QD117"]


def test_split_across_chunks() -> None:
    parser = LineParser()
    assert parser.feed(b"PW0") == []
    assert parser.feed(b"1L\r") == ["PW01L"]


def test_blank_lines_and_surrounding_spaces() -> None:
    assert LineParser().feed(b"\r\n\r\n  ABC \n\n") == ["ABC"]


def test_too_long_line_dropped_with_reason_then_next_line_read() -> None:
    parser = LineParser(max_length=8)
    assert parser.feed(b"123456789\nOK\n") == ["OK"]
    assert list(parser.rejected) == [Rejected("too-long", "12345678")]
    assert parser.stats["too-long"] == 1
    assert parser.feed(b"12345678\n") == ["12345678"]


def test_non_printable_line_dropped() -> None:
    parser = LineParser()
    assert parser.feed(b"AB\x00C\nD\xc3\xa4\nE\n") == ["E"]
    assert [r.reason for r in parser.rejected] == ["not-printable", "not-printable"]


printable = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20)
terminators = st.sampled_from([b"\r", b"\n", b"\r\n"])


@pytest.mark.slow
@settings(deadline=None)  # no timing assertions: a loaded CI machine must not fail these
@given(st.lists(st.tuples(printable, terminators), max_size=10), st.lists(st.integers(0, 400), max_size=5))
def test_every_code_found_in_any_chunking(lines: list[tuple[str, bytes]], cuts: list[int]) -> None:
    data = b"".join(code.encode() + end for code, end in lines)
    cuts = sorted(min(c, len(data)) for c in cuts)
    parser = LineParser(max_length=20)
    found: list[str] = []
    for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True):
        found += parser.feed(data[a:b])
    assert found == [code for code, _ in lines]


@pytest.mark.slow
@settings(deadline=None)
@given(st.lists(st.binary(max_size=100), max_size=20))
def test_arbitrary_bytes_bounded_and_printable(chunks: list[bytes]) -> None:
    parser = LineParser(max_length=16)
    for chunk in chunks:
        for code in parser.feed(chunk):
            assert 0 < len(code) <= 16 and code.isprintable() and code.isascii()
            assert code.encode() in chunk or code.encode() in b"".join(chunks)
        assert parser.pending <= 16
