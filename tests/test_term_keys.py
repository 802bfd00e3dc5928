"""The terminal's bytes as keys (term_keys) and the keys as inputs on the box (sim_terminal.KeyHandler)."""

from __future__ import annotations

import os
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.events import CardScan, TextEntry, Typing
from firmware_host.sim_terminal import KeyHandler
from firmware_host.term_keys import Key, KeyParser, KeyReader, char


def parse(*chunks: bytes) -> list[Key]:
    parser = KeyParser()
    keys = [key for chunk in chunks for key in parser.feed(chunk)]
    return keys + parser.flush()


def test_characters_enter_backspace_and_ctrl_c():
    assert parse("aB ä€\r\x7f\x08\x03\n".encode()) == [
        char("a"), char("B"), char(" "), char("ä"), char("€"), Key("enter"), Key("backspace"), Key("backspace"),
        Key("ctrl-c"), Key("enter")]


def test_cr_lf_is_one_enter_even_when_cut_between_reads():
    assert parse(b"a\r\nb") == parse(b"a\r", b"\nb") == [char("a"), Key("enter"), char("b")]


def test_arrows_in_both_forms_and_other_sequences_dropped_whole():
    assert parse(b"\x1b[A\x1b[B\x1bOC\x1b[1;5D\x1b[15~x") == [
        Key("up"), Key("down"), Key("right"), Key("left"), char("x")]


def test_a_lone_esc_waits_for_the_flush_and_an_esc_before_a_letter_is_esc_then_the_letter():
    parser = KeyParser()
    assert parser.feed(b"\x1b") == [] and parser.pending
    assert parser.flush() == [Key("esc")] and not parser.pending
    assert parse(b"\x1bq") == [Key("esc"), char("q")]


def test_a_sequence_cut_between_reads_is_one_key():
    parser = KeyParser()
    assert parser.feed(b"\x1b[") == []
    assert parser.feed(b"A") == [Key("up")]


def test_a_utf8_character_cut_between_reads_is_one_character():
    data = "ü".encode()
    assert parse(data[:1], data[1:]) == [char("ü")]


def test_a_bracketed_paste_is_marked_pasted_and_never_parsed_as_keys():
    keys = parse(b"s\x1b[200~ns\x1b[A\r\nx\x1b[201~b")
    assert keys[0] == char("s") and keys[-1] == char("b")
    inner = keys[1:-1]
    assert all(k.pasted for k in inner)
    assert [k.text or k.name for k in inner] == ["n", "s", "[", "A", "enter", "x"]  # the Esc byte is dropped


PIECES = ["a", "s", "ä", "€", "\r", "\n", "\x1b", "[", "A", "O", "2", "0", "1", "~", ";", "\x7f",
          "\x1b[200~", "\x1b[201~", "\x1b[B"]
BYTES = st.lists(st.sampled_from(PIECES), max_size=40).map(lambda p: "".join(p).encode())


@pytest.mark.slow  # hypothesis
@given(BYTES, st.lists(st.integers(min_value=0, max_value=200), max_size=6))
def test_how_the_bytes_are_cut_into_reads_never_changes_the_keys(data, cuts):
    points = sorted({min(c, len(data)) for c in cuts})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    assert parse(*chunks) == parse(data)


@pytest.mark.slow  # hypothesis
@given(st.text(alphabet=st.characters(exclude_categories=("Cc", "Cs")), max_size=60))
def test_printable_text_is_exactly_its_characters(text):
    assert [k.text for k in parse(text.encode())] == list(text)


def test_the_reader_reads_all_there_is_in_order_and_ends_at_eof():
    read_fd, write_fd = os.pipe()
    burst = ("\rAnna\rs+5\r" * 30).encode()
    os.write(write_fd, burst)
    os.close(write_fd)
    got = [key for batch in KeyReader(read_fd, esc_timeout=0.01).keys(threading.Event()) for key in batch]
    os.close(read_fd)
    assert got == parse(burst) and len(got) == 30 * 10


class FakeBox:
    """Records what the handler queues, in order."""

    def __init__(self, sim_config):
        self.resolved = sim_config
        self.appliance = None
        self.log: list[object] = []

    def press(self, button, long=False):
        self.log.append(("hold" if long else "press", button))
        return True

    def turn(self, steps):
        self.log.append(("turn", steps))

    def put(self, event_of):
        self.log.append(event_of(1.0))

    def after(self, action):
        self.log.append(("after", action))


def handled(sim_config, *chunks: bytes):
    box = FakeBox(sim_config)
    quit_ = object()
    handler = KeyHandler(box, quit_)  # type: ignore[arg-type]
    parser = KeyParser()
    for chunk in chunks:
        handler.handle(parser.feed(chunk))
    handler.handle(parser.flush())
    return [("quit",) if entry == ("after", quit_) else entry for entry in box.log], handler


def test_keys_press_buttons_and_a_typed_line_is_text_even_with_button_letters(sim_config):
    log, handler = handled(sim_config, b"mns\rSabine Schmidt\rS[\x1b[C\r+5\rq")
    # one read: the lines are sent whole (the line in the making is shown only when a read leaves it open)
    assert log == [("press", "menu"), ("press", "next"), ("press", "start"), TextEntry("Sabine Schmidt", 1.0),
                   ("hold", "start"), ("turn", -1), ("turn", 1), TextEntry("+5", 1.0), ("quit",)]
    assert handler.typing is None
    log, _ = handled(sim_config, b"\rSab", b"ine\rn")
    assert log == [Typing("Sab", 1.0), TextEntry("Sabine", 1.0), ("press", "next")]


def test_pasted_text_opens_a_typing_line_instead_of_pressing_buttons(sim_config):
    log, handler = handled(sim_config, b"\x1b[200~snbm\x1b[201~")
    assert log == [Typing("snbm", 1.0)] and handler.typing == "snbm"
    log, _ = handled(sim_config, b"\x1b[200~Anna\rBert\r\x1b[201~")
    assert [e for e in log if isinstance(e, TextEntry)] == [TextEntry("Anna", 1.0), TextEntry("Bert", 1.0)]


def test_esc_cancels_the_line_backspace_edits_it_and_at_lines_scan_a_card(sim_config):
    log, _handler = handled(sim_config, b"\rHunx\x7fd\x1b", b"\r@0A1B2C3D4E\r")
    assert log[-1] == CardScan("rfid", "0A1B2C3D4E", 1.0)
    assert Typing("Hund", 1.0) in log and not any(isinstance(e, TextEntry) for e in log)
    assert Typing("", 1.0) in log  # the cancelled line leaves the OLED


def test_ctrl_c_quits_also_while_typing(sim_config):
    log, _ = handled(sim_config, b"\rab\x03")
    assert ("quit",) in log and not any(isinstance(e, TextEntry) for e in log)  # the open line is not sent


def test_a_long_typing_line_shows_its_end_within_the_width(sim_config):
    from firmware_host.sim_terminal import status_lines

    _, handler = handled(sim_config, b"\r" + b"x" * 100 + b"yz")
    shown = status_lines(FakeBox(sim_config), handler, columns=80)  # type: ignore[arg-type]
    assert len(shown) == 1 and len(shown[0]) <= 80
    assert "…" in shown[0] and "xyz▏" in shown[0]
    _, handler = handled(sim_config, b"\rAnna")
    assert "Anna▏" in status_lines(FakeBox(sim_config), handler, lambda: "Tour", columns=80)[0]  # type: ignore[arg-type]
