"""The panel's one text layout (`render_text.paged`, `wrap`): properties over random texts, fonts and widths,
judged by the acceptance test's own reading of a layout (`tests.test_panel_layout.layout_faults`)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.screens import KEEP, phrase
from firmware_host.render import Font, Laid, font, paged, wrap
from tests.test_panel_layout import layout_faults

pytestmark = pytest.mark.slow  # hypothesis

FONTS = st.sampled_from([font(12), font(14), font(12, bold=True)])
WORDS = st.text(alphabet=st.characters(codec="latin-1", categories=("L", "N")) | st.just("-"), min_size=1,
                max_size=30)
TEXTS = st.lists(WORDS, max_size=12).map(" ".join)


def laid(text: str, fnt: Font, width: int) -> Laid:
    return Laid(text, fnt, width, paged(text, fnt, width))


@given(text=TEXTS, fnt=FONTS, width=st.integers(20, 260))
def test_every_line_fits_and_nothing_is_lost_or_cut_but_a_word_wider_than_the_line(text: str, fnt: Font,
                                                                                    width: int) -> None:
    lines = paged(text, fnt, width)
    assert all(fnt.getlength(line) <= width or len(line.rstrip("-")) == 1 for line in lines), lines
    assert layout_faults(laid(text, fnt, width)) == []
    assert re.sub(r"[\s-]", "", "".join(lines)) == re.sub(r"[\s-]", "", text)


@st.composite
def phrased(draw: st.DrawFn) -> tuple[str, Font, int]:
    """A text of phrases (words joined by `KEEP`, or the parts of a hint), each fitting the width."""
    fnt, width = draw(FONTS), draw(st.integers(60, 260))
    fits = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüß", min_size=1, max_size=6),
                    min_size=1, max_size=4).filter(lambda ws: fnt.getlength(" ".join(ws)) <= width)
    groups = draw(st.lists(fits, min_size=1, max_size=8))
    if draw(st.booleans()):  # a hint: its parts are its phrases
        return " · ".join(" ".join(words) for words in groups), fnt, width
    return " ".join(phrase(*words) for words in groups), fnt, width


@given(case=phrased())
def test_a_phrase_that_fits_a_line_is_never_split(case: tuple[str, Font, int]) -> None:
    text, fnt, width = case
    assert layout_faults(laid(text, fnt, width)) == []
    assert all(KEEP not in line for line in paged(text, fnt, width))


@given(text=TEXTS, fnt=FONTS, width=st.integers(20, 260), most=st.integers(1, 4))
def test_wrap_is_the_layout_cut_to_max_lines(text: str, fnt: Font, width: int, most: int) -> None:
    assert wrap(text, fnt, width) == list(paged(text, fnt, width))
    assert wrap(text, fnt, width, most) == list(paged(text, fnt, width))[:most]
