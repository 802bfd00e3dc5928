"""The compact word index: built once into the state directory, read back as the same groups, rebuilt when
the list changes or the file is damaged; spelled the games' way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.games.word_groups import GroupedWords
from firmware_host.word_index import decode_index, encode_index, english_spelling, german_spelling, open_index


def test_built_once_then_read_and_rebuilt_when_the_list_changes(tmp_path: Path) -> None:
    source = tmp_path / "list.txt"
    source.write_text("Fuchs\nfuchs\nFuchsbau\nStraße\nAbc-Def\n# comment\n", encoding="utf-8")
    index = open_index(source, "de", tmp_path / "state")
    assert index.words == 3 and index.group("F", 5) == "FUCHS" and index.group("S", 6) == "STRAßE"
    assert "FUCHSBAU" in index and "FUCHSBA" not in index and "" not in index
    target = tmp_path / "state" / "words" / "list.txt.de.idx"
    built = target.stat().st_mtime_ns
    assert open_index(source, "de", tmp_path / "state").spans == index.spans
    assert target.stat().st_mtime_ns == built  # read, not rebuilt
    source.write_text("Hund\n", encoding="utf-8")
    os.utime(source, ns=(built + 10**9, built + 10**9))
    assert open_index(source, "de", tmp_path / "state").group("H", 4) == "HUND"
    target.write_bytes(b"garbage")
    assert open_index(source, "de", tmp_path / "state").words == 1  # damaged: built again


def test_spellings() -> None:
    assert german_spelling("straße") == "STRAßE" and german_spelling("x-ray") is None
    assert english_spelling("cat") == "CAT" and english_spelling("cat's") is None
    assert english_spelling("Boston") is None and english_spelling("ct") is None and english_spelling("café") is None


def test_quiddlers_list_keeps_no_capital_anywhere_no_abbreviation_and_no_roman_numeral() -> None:
    # Issue 36: only the first character was checked, so these names passed (IOS changed a best lay).
    for name in ("eBay", "iOS", "iPad", "iPhone", "iPod", "iTunes", "fMRI", "eMusic", "kHz", "pH"):
        assert english_spelling(name) is None, name
    for abbreviation in ("adj", "ea", "etc", "hwy", "yrs", "dept", "xiv", "iii", "lvi"):
        assert english_spelling(abbreviation) is None, abbreviation
    for word in ("mix", "xi", "mi", "by", "vim", "civil", "oath", "quit"):
        assert english_spelling(word) == word.upper(), word


def test_a_lay_down_the_list_no_longer_allows_is_not_revealed(tmp_path: Path) -> None:
    from firmware_host.core.games.quiddler.best_lay import best_lay
    from firmware_host.core.games.quiddler.deck import STANDARD_DECK
    from firmware_host.word_index import read_list

    source = tmp_path / "list.txt"
    source.write_text("iOS\nso\nis\n", encoding="utf-8")
    words = GroupedWords.of("t", read_list(source, "en"))
    best = best_lay(["S", "I", "Q", "O"], words, STANDARD_DECK)  # IOS would be 7 - 15 = -8
    assert best.words in ((("S", "O"),), (("I", "S"),)) and best.value == -12


WORD = st.text("ABCÄÖÜßXYZ", min_size=1, max_size=9)


@pytest.mark.slow  # hypothesis
@given(st.lists(WORD, max_size=40))
def test_the_file_holds_the_same_groups_as_the_words(words: list[str]) -> None:
    index, header = decode_index("t", encode_index(words, {"source": "x", "language": "de"}))
    expected = GroupedWords.of("t", words)
    assert header["source"] == "x" and index.words == len(set(words))
    assert {key: index.group(*key) for key in index.spans} == expected.groups
    assert index.firsts() == expected.firsts()


def test_an_index_cut_short_on_the_card_is_rebuilt_not_read_as_a_shorter_list(tmp_path: Path) -> None:
    source = tmp_path / "liste"
    source.write_text("Apfel\nAst\nBaum\nBirne\nZebra\n", encoding="utf-8")
    built = open_index(source, "de", tmp_path)
    target = tmp_path / "words" / "liste.de.idx"
    whole = target.read_bytes()
    target.write_bytes(whole[:-4])  # what a power cut can leave: the header whole, the words not
    again = open_index(source, "de", tmp_path)
    assert "ZEBRA" in again and again.blob == built.blob
    assert target.read_bytes() == whole  # and the file is whole again
