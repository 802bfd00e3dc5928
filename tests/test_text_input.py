"""The one normalisation at the edge (`core.text_input`): what it keeps, what it refuses and how it says so."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core.text_input import (
    FIELDS,
    LINE,
    NAME,
    REFUSED_CATEGORIES,
    WORD,
    TextRefused,
    at_edge,
    char_name,
    clean,
    quoted,
    refusal,
    visible,
)

ANY_FIELD = st.sampled_from(FIELDS)


def test_nfc_trimmed_and_inner_spaces_folded() -> None:
    assert clean("  Ju\u0308rgen \u00a0 Mu\u0308ller\u2003") == "Jürgen Müller"
    assert clean("") == ""
    assert clean(" \u3000 ") == ""


@pytest.mark.parametrize("char", ["\n", "\r", "\t", "\x00", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029",
                                  "\u200b", "\u202e", "\ufeff", "\ud800"])
def test_control_and_format_characters_are_refused_by_code_point(char: str) -> None:
    with pytest.raises(TextRefused) as caught:
        clean(f"Ge{char}li", NAME)
    assert f"U+{ord(char):04X}" in caught.value.text("de")
    assert f"U+{ord(char):04X}" in caught.value.text("en")
    assert "⟨U+" in caught.value.text("en")  # the text is quoted with the invisible character shown


def test_each_field_has_its_bound() -> None:
    assert clean("x" * NAME.limit, NAME) == "x" * NAME.limit
    with pytest.raises(TextRefused, match="at most 16 characters"):
        clean("x" * (NAME.limit + 1), NAME)
    assert len(clean("W" * WORD.limit, WORD)) == 32
    assert refusal("W" * 33, WORD) is not None
    assert refusal("Jürgen Müller-Lüdenscheid", NAME) is not None  # 25 characters


def test_decomposed_text_counts_as_composed() -> None:
    assert clean("U\u0308" * NAME.limit, NAME) == "Ü" * NAME.limit


def test_visible_shows_what_a_reader_would_miss() -> None:
    assert visible(" Geli ") == "„␣Geli␣“"
    assert visible("Ge\u200bli") == "„Ge⟨U+200B⟩li“"
    assert visible("\u0308U") == "„⟨U+0308⟩U“"
    assert visible("x" * 100).endswith("…“")
    assert quoted("GEL1") == "'GEL1'"
    assert char_name("\n") == "U+000A LINE FEED" and char_name("\u2029") == "U+2029 PARAGRAPH SEPARATOR"


def test_a_million_characters_are_refused_at_once_and_cut_at_the_edge() -> None:
    word = "Q" * 1_000_000
    with pytest.raises(TextRefused, match="too long"):
        clean(word, LINE)
    cut = at_edge(word, LINE)
    assert len(cut) == 4 * LINE.limit + 1
    assert refusal(cut, LINE) is not None and refusal(cut, LINE).text("en") == refusal(word, LINE).text("en")


@pytest.mark.slow  # hypothesis
@settings(max_examples=400, deadline=None)
@given(st.text(), ANY_FIELD)
def test_clean_is_idempotent_and_its_result_is_normal(text: str, field) -> None:
    try:
        once = clean(text, field)
    except TextRefused as exc:
        assert exc.text("de") and exc.text("en")  # every refusal has a message, in both languages
        return
    assert clean(once, field) == once
    assert unicodedata.normalize("NFC", once) == once
    assert once == once.strip() and "  " not in once and len(once) <= field.limit
    assert not any(unicodedata.category(c) in REFUSED_CATEGORIES for c in once)
    assert all(c == " " or not c.isspace() for c in once)


@pytest.mark.slow  # hypothesis
@settings(max_examples=200, deadline=None)
@given(st.text(), ANY_FIELD)
def test_at_edge_passes_clean_text_and_bounds_the_rest(text: str, field) -> None:
    edged = at_edge(text, field)
    assert len(edged) <= 4 * field.limit + 1
    assert (refusal(text, field) is None) == (refusal(edged, field) is None)
