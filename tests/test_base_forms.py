"""The words a table allows (base forms, no proper names) read from a Ding dictionary, and the reveal's
list made of them: built once beside the whole list, which the dictionary assist keeps."""

from __future__ import annotations

import gzip
import logging
import os
from pathlib import Path

import pytest

from firmware_host.base_forms import Entry, LexiconError, allowed_words, is_name, parse_entries, read_allowed
from firmware_host.config import ConfigError, parse_config
from firmware_host.word_index import WordIndexError, open_allowed_index

# A few entries as Debian's dict-de-en lays them out: headword, tag line, English indented (a long English
# line wraps unindented; a tag line may wrap inside its note).
DING = """\
00-database-short
     German - English Dictionary
Hund
 {m} [zool.]
   dog
Hunde
 {pl}
   dogs
Hundes

   dog's
gehen
 {vi}
   to go
gehend

   going
gegangen

   gone
ging

   went
sitzen
 {vi}
   to sit
sitzend
 {adj}
   seated
schön
 {adj}
   beautiful
schöner
 {adj}
   more beautiful
schönsten
 {adj}
   most beautiful
Berlin
 (Hauptstadt von Deutschland) [geogr.]
   Berlin (capital of Germany)
Rhein
 {m} (Fluss) [geogr.]
   Rhine (river)
Diana
 {f} (Göttin der Jagd in der röm. Mythologie,
entspricht Artemis)
   Diana (goddess)
Wolf
 {m} (Sternbild) [astron.]
   Lupus
Wolf
 {m} [zool.]
   wolf; grey wolf
   [Br.]
Bayern
 {pl}
   Bavarians
mein
 {pron}
   my
meines
 {pron}
   mine
weinen
 {vi}
   to cry
sich verspäten
 {vr}
   to be late
jdn./etw. rächen
 {vt}
   to avenge sb./sth.
rächend
 {adj}
   avenging
Weinende
 {m,f}
   weeper
neu
 {adj}
   new
Neuen
 {pl}
   new members; newcomers
lieb
 {adj}
   dear
Liebste
 {f}
   sweetheart
daß
 [alt] {conj}
   that
Ahoi
 {interj}
   ahoy
AG
 {f}
   public company
Aal blau
 {m}
   eel au bleu
großes
 (flaches) Stück {n}
   slab
Paradeiser
 {m} [Ös.]
   tomato
"""


def test_entries_are_read_with_their_tags_and_wrapped_lines() -> None:
    entries = list(parse_entries(DING.splitlines()))
    assert entries[0] == Entry("Hund", "{m} [zool.]", "dog")
    assert Entry("Hundes", "", "dog's") in entries
    wolf = [e for e in entries if e.headword == "Wolf"]
    assert [e.gloss for e in wolf] == ["Lupus", "wolf; grey wolf [Br.]"]
    diana = next(e for e in entries if e.headword == "Diana")
    assert diana.tags.endswith("entspricht Artemis)") and diana.gloss == "Diana (goddess)"


def test_names_are_told_by_their_english() -> None:
    assert is_name(Entry("Rhein", "{m} (Fluss) [geogr.]", "Rhine (river)"))
    assert is_name(Entry("Nordkorea", "{n}", "North Korea"))
    assert not is_name(Entry("Äquator", "{m} [geogr.]", "equator"))
    assert not is_name(Entry("Polarfuchs", "{m}", "Arctic fox"))
    assert not is_name(Entry("deutsch", "{adj}", "German"))  # lower case: no noun, no name


def test_the_allowed_words_are_base_forms_without_names() -> None:
    allowed = allowed_words(parse_entries(DING.splitlines()))
    inflected = {"HUNDES", "GEHEND", "GEGANGEN", "GING", "SITZEND", "SCHÖNER", "SCHÖNSTEN", "MEINES", "RÄCHEND",
                 "WEINENDE", "NEUEN", "LIEBSTE", "GROßES"}
    names = {"BERLIN", "RHEIN", "DIANA", "BAYERN"}
    refused = {"DAß", "AHOI", "AG", "PARADEISER"}  # old spelling, interjection, acronym, regional
    assert not allowed & (inflected | names | refused)
    assert allowed == {"HUND", "HUNDE", "GEHEN", "SITZEN", "SCHÖN", "WOLF", "MEIN", "WEINEN", "NEU", "LIEB",
                       "VERSPÄTEN", "RÄCHEN"}  # a verb's headword may name its objects first


def test_the_lexicon_is_read_compressed_or_plain_and_fails_with_a_clear_error(tmp_path: Path) -> None:
    packed = tmp_path / "german-english.dict.dz"
    with gzip.open(packed, "wt", encoding="utf-8") as out:
        out.write(DING)
    plain = tmp_path / "ding.txt"
    plain.write_text(DING, encoding="utf-8")
    assert read_allowed(packed) == read_allowed(plain) and "HUND" in read_allowed(packed)
    with pytest.raises(LexiconError, match=r"missing\.dz: cannot read the lexicon"):
        read_allowed(tmp_path / "missing.dz")
    broken = tmp_path / "broken.dz"
    broken.write_bytes(gzip.compress(DING.encode())[:40])
    with pytest.raises(LexiconError, match=r"broken\.dz"):
        read_allowed(broken)


def _list_and_lexicon(tmp_path: Path) -> tuple[Path, Path]:
    words = tmp_path / "ngerman"
    words.write_text("Hund\nHunde\nHundes\ngehen\nging\nBerlin\nRhein\nWolf\nschön\nschöner\n", encoding="utf-8")
    lexicon = tmp_path / "ding.txt"
    lexicon.write_text(DING, encoding="utf-8")
    return words, lexicon


def test_the_allowed_index_holds_the_lists_words_the_lexicon_allows_and_follows_both(tmp_path: Path) -> None:
    words, lexicon = _list_and_lexicon(tmp_path)
    state = tmp_path / "state"
    index = open_allowed_index(words, lexicon, state, "wngerman+Ding")
    assert index.name == "wngerman+Ding" and index.words == 5  # MEIN, NEU, … are not in the list
    assert {w for w in ("HUND", "HUNDE", "GEHEN", "WOLF", "SCHÖN") if w in index} == {"HUND", "HUNDE", "GEHEN",
                                                                                        "WOLF", "SCHÖN"}
    assert "HUNDES" not in index and "BERLIN" not in index and "GING" not in index
    target = state / "words" / "ngerman.allowed.de.idx"
    built = target.stat().st_mtime_ns
    assert open_allowed_index(words, lexicon, state, "wngerman+Ding").spans == index.spans
    assert target.stat().st_mtime_ns == built  # read, not rebuilt
    lexicon.write_text(DING.replace("Wolf\n {m} [zool.]", "Wolf\n"), encoding="utf-8")
    os.utime(lexicon, ns=(built + 10**9, built + 10**9))
    assert "WOLF" not in open_allowed_index(words, lexicon, state, "wngerman+Ding")  # the lexicon changed
    with pytest.raises(WordIndexError, match="cannot read the lexicon"):
        lexicon.write_bytes(b"\x1f\x8b broken")
        os.utime(lexicon, ns=(built + 2 * 10**9, built + 2 * 10**9))
        open_allowed_index(words, lexicon, state, "wngerman+Ding")


def test_the_reveal_takes_the_allowed_words_and_the_assist_the_whole_list(tmp_path: Path) -> None:
    from firmware_host.shell_effects import WordCheck, WordLists

    words, lexicon = _list_and_lexicon(tmp_path)
    lists = WordLists(words, tmp_path / "state", lexicons=(lexicon,))
    reveal, whole = lists("de"), lists.whole("de")
    assert reveal is not None and whole is not None
    assert reveal.name == "wngerman+Ding" and reveal.words == 5 and whole.words == 10
    assert "HUNDES" not in reveal and "HUNDES" in whole
    assert WordCheck(lists)(("Hundes", "Katze")) == {"Hundes": True, "Katze": False}
    everything = WordLists(words, tmp_path / "state", reveal_words="all", lexicons=(lexicon,))("de")
    assert everything is not None and everything.words == 10


def test_without_the_lexicon_the_reveal_takes_the_whole_list_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from firmware_host.shell_effects import WordLists

    words, _ = _list_and_lexicon(tmp_path)
    with caplog.at_level(logging.WARNING, logger="wordtable"):
        index = WordLists(words, tmp_path / "state", lexicons=(tmp_path / "none.dz",))("de")
    assert index is not None and index.words == 10
    assert "no lexicon of base forms" in caplog.text and "apt-get install dict-de-en" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="wordtable"):  # system lists off: no lexicon looked for
        index = WordLists(words, tmp_path / "state", system=False, lexicons=(tmp_path / "ding.txt",))("de")
    assert index is not None and index.words == 10 and "no lexicon" not in caplog.text


def test_reveal_words_is_configured_in_the_dictionary_section() -> None:
    assert parse_config({}).dictionary.reveal_words == "allowed"
    assert parse_config({"dictionary": {"reveal_words": "all"}}).dictionary.reveal_words == "all"
    with pytest.raises(ConfigError, match="reveal_words"):
        parse_config({"dictionary": {"reveal_words": "some"}})


def test_the_whole_list_is_served_while_the_allowed_words_are_still_being_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from firmware_host import shell_effects
    from firmware_host.shell_effects import WordLists

    words, lexicon = _list_and_lexicon(tmp_path)
    building, release = threading.Event(), threading.Event()
    real = shell_effects.open_allowed_index

    def slow(*args: object) -> object:
        building.set()
        release.wait(10)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(shell_effects, "open_allowed_index", slow)
    lists = WordLists(words, tmp_path / "state", lexicons=(lexicon,))
    reveal: list[object] = []
    builder = threading.Thread(target=lambda: reveal.append(lists("de")))
    builder.start()
    assert building.wait(10)
    whole = lists.whole("de")  # the dictionary assist does not wait for the reveal's build
    assert whole is not None and whole.words == 10 and not reveal
    release.set()
    builder.join(10)
    assert len(reveal) == 1 and reveal[0] is not None and reveal[0].words == 5  # type: ignore[attr-defined]
