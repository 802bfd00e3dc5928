"""A journal whose SQLite header says a file format this SQLite only reads (byte 18 > 2) or cannot read at
all (byte 19 > 2) is damage, not a lock: it is moved aside and what still reads is salvaged, instead of the box
saying "Nicht gespeichert: gesperrt" at every start."""

from __future__ import annotations

import pytest

from firmware_host.journal import Journal


@pytest.mark.parametrize("byte", [18, 19])
def test_a_header_with_a_file_format_sqlite_will_not_write_is_moved_aside_and_salvaged(tmp_path, byte):
    path = tmp_path / "journal.sqlite"
    journal = Journal.open(path)
    game = journal.start_game("quiddler", ["Anna", "Ben"], {})
    journal.append(game, "record", {"event": "start"}, "2026-12-01T20:41:00+00:00")
    journal.close()
    data = bytearray(path.read_bytes())
    data[byte] = 3
    path.write_bytes(bytes(data))
    again = Journal.open(path)
    try:
        assert again.moved_aside is not None and "file format" in again.moved_aside.reason
        again.append(again.start_game("timer", [], {}), "input", {"type": "tick", "at": 1.0}, "2026-12-01T21:00:00")
        if byte == 18:  # still readable: its rows are salvaged
            assert again.moved_aside.salvaged is not None and again.moved_aside.salvaged.events >= 1
    finally:
        again.close()


@pytest.mark.parametrize("value", [5, 0x80])
def test_a_header_with_a_schema_format_sqlite_does_not_know_is_moved_aside_not_left_unopened(tmp_path, value):
    """Byte 47 (the schema format number's last byte) damaged: SQLite says "unsupported file format", which
    left the box without a journal at every start (found by bench/bench_journal_fuzz.py)."""
    path = tmp_path / "journal.sqlite"
    with Journal.open(path) as journal:
        journal.append(journal.start_game("quiddler", ["Anna", "Ben"], {}), "record", {"event": "start"}, "t")
    data = bytearray(path.read_bytes())
    data[47] = value
    path.write_bytes(bytes(data))
    with Journal.open(path) as again:
        assert again.moved_aside is not None and "schema format" in again.moved_aside.reason
