"""The word index is built by a child process, never in the service: the file the child writes is the one
the in-process build makes, the service never reads the list itself, and a list the child cannot read is
the same `WordIndexError` as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host import word_index
from firmware_host.word_index import MAGIC, WordIndexError, encode_index, open_allowed_index, open_index, read_list

pytestmark = pytest.mark.slow  # child processes

WORDS = "Apfel\nÄpfel\nAst\nBaum\nbäume\nStraße\nZebra\n# a comment\nx-ray\n"


def test_the_childs_file_is_what_the_in_process_build_makes(tmp_path: Path) -> None:
    source = tmp_path / "liste"
    source.write_text(WORDS, encoding="utf-8")
    index = open_index(source, "de", tmp_path)
    data = (tmp_path / "words" / "liste.de.idx").read_bytes()
    header = json.loads(data[len(MAGIC) : data.index(b"\n", len(MAGIC))])
    stamp = {key: value for key, value in header.items() if key not in ("words", "groups")}
    assert data == encode_index(read_list(source, "de"), stamp)
    assert "STRAßE" in index and "ÄPFEL" in index and index.words == len(read_list(source, "de"))


def test_the_service_never_reads_the_list_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "liste"
    source.write_text(WORDS, encoding="utf-8")

    def in_the_service(path: Path, language: str) -> set[str]:
        raise AssertionError("the list was read in the service's process")

    monkeypatch.setattr(word_index, "read_list", in_the_service)
    assert "ZEBRA" in open_index(source, "de", tmp_path)
    source.write_text(WORDS + "Zwerg\n", encoding="utf-8")  # the list changed: rebuilt the same way
    assert "ZWERG" in open_index(source, "de", tmp_path)


def test_a_lexicon_the_child_cannot_read_is_refused_as_before(tmp_path: Path) -> None:
    source, lexicon = tmp_path / "liste", tmp_path / "de-en.dict.gz"
    source.write_text(WORDS, encoding="utf-8")
    lexicon.write_bytes(b"\x1f\x8b not gzip at all")
    with pytest.raises(WordIndexError, match="cannot read the lexicon"):
        open_allowed_index(source, lexicon, tmp_path, "liste+Ding")
    assert not (tmp_path / "words" / "liste.allowed.de.idx").exists()
