"""The renderer: reference PNGs of every layout, glyphs for umlauts, and layout rules checked on pixels."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, QrScreen, Screen
from firmware_host.render import Font, clip, font, list_layout, render, wrap
from firmware_host.render_screens import CURSOR_W
from tests.screens import PANEL_SIZES, REFERENCE_SCREENS, assert_matches_reference


def lit(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    """Number of lit pixels, in `box` (left, top, right, bottom; exclusive) if given."""
    region = image.crop(box) if box else image
    return region.width * region.height - region.histogram()[0]


def ink_box(image: Image.Image) -> tuple[int, int, int, int]:
    box = image.getbbox()
    assert box is not None, "nothing drawn"
    return box


@pytest.mark.parametrize("size", PANEL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", sorted(REFERENCE_SCREENS))
def test_matches_reference(name: str, size: tuple[int, int], tmp_path: Path) -> None:
    assert_matches_reference(render(REFERENCE_SCREENS[name], size), name, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(128, 64), (256, 64), (128, 32), (96, 16), (512, 128), (3, 2)])
@pytest.mark.parametrize("name", sorted(REFERENCE_SCREENS))
def test_any_panel_size_gives_a_1bit_image_of_that_size(name: str, size: tuple[int, int]) -> None:
    image = render(REFERENCE_SCREENS[name], size)
    assert (image.mode, image.size) == ("1", size)


def test_rejects_an_empty_panel() -> None:
    with pytest.raises(ValueError, match="0×64"):
        render(BigScreen("", "1:00"), (0, 64))


@pytest.mark.parametrize(("umlaut", "plain"), [("Ä", "A"), ("Ö", "O"), ("Ü", "U"), ("ß", "s"), ("ä", "a")])
def test_umlauts_have_their_own_glyphs(umlaut: str, plain: str) -> None:
    for screen in (MessageScreen("", (f"x{umlaut}x",)), MessageScreen("", (f"x{plain}x",))):
        assert lit(render(screen, (128, 64))) > 0
    a = render(MessageScreen("", (f"x{umlaut}x",)), (128, 64))
    b = render(MessageScreen("", (f"x{plain}x",)), (128, 64))
    assert a.tobytes() != b.tobytes()
    # and not a "missing glyph" box: each is a different drawing from every other umlaut's
    others = {u for u in "ÄÖÜß" if u != umlaut}
    for other in others:
        assert a.tobytes() != render(MessageScreen("", (f"x{other}x",)), (128, 64)).tobytes()


@pytest.mark.parametrize(("tall", "short"), [("Ä", "A"), ("Ö", "O"), ("Ü", "U"), ("ß", "s")])
def test_dots_and_eszett_reach_above_their_base_letter(tall: str, short: str) -> None:
    # same font, same baseline: the umlaut's dots (and ß's ascender) start higher up
    assert ink_box(render(MessageScreen("", (tall,)), (128, 64)))[1] < ink_box(
        render(MessageScreen("", (short,)), (128, 64))
    )[1]


@pytest.mark.parametrize("size", PANEL_SIZES)
@pytest.mark.parametrize("big", ["0:42", "12:00", "Zeit!"])
def test_big_value_fills_the_space_between_title_and_footer(big: str, size: tuple[int, int]) -> None:
    width, height = size
    bare = ink_box(render(BigScreen("", big), size))
    framed = render(BigScreen("Sanduhr", big, "START: los"), size)
    # as large as fits: either nearly the whole width or nearly the whole height
    assert bare[2] - bare[0] >= 0.85 * width or bare[3] - bare[1] >= 0.85 * height
    # readable across a table: at least 24 px tall on a 64-px panel even with title and footer
    title_only = ink_box(render(BigScreen("Sanduhr", "", ""), size))
    footer_only = ink_box(render(BigScreen("", "", "START: los"), size))
    big_only = render(BigScreen("Sanduhr", big, "START: los"), size).crop(
        (0, title_only[3], width, footer_only[1])
    )
    box = ink_box(big_only)
    assert box[3] - box[1] >= 24
    # nothing of the big value spills into the title or footer rows beyond those texts
    combined = lit(framed)
    assert combined == lit(render(BigScreen("Sanduhr", "", "START: los"), size)) + lit(big_only)


def test_inverted_swaps_background_and_text() -> None:
    normal = render(BigScreen("Sanduhr", "Zeit!"), (128, 64))
    inverted = render(BigScreen("Sanduhr", "Zeit!", inverted=True), (128, 64))
    assert lit(normal) < 128 * 64 / 2 < lit(inverted)
    assert lit(normal) + lit(inverted) == 128 * 64


def test_timer_digits_do_not_move_as_the_time_runs() -> None:
    # tabular digits centred by their advance: "0:" stays put while the seconds change, and the
    # seconds stay put while the minute changes
    def left(text: str) -> bytes:
        return render(BigScreen("", text), (128, 64)).crop((0, 0, 50, 64)).tobytes()

    def right(text: str) -> bytes:
        return render(BigScreen("", text), (128, 64)).crop((64, 0, 128, 64)).tobytes()

    assert left("0:59") == left("0:10") == left("0:42")
    assert right("0:42") == right("1:42") == right("9:42")
    assert left("0:42") != left("1:42")


def test_list_layout_per_panel() -> None:
    eight = ListScreen("Punkte", players(8), cursor=0)
    small = list_layout(eight, (128, 64))  # rows in the 14-px primary face under a 12-px title
    assert small.columns == 1 and small.rows == 3 and small.pages == 3
    wide = list_layout(eight, (256, 64))
    assert wide.columns == 2 and wide.pages == 2
    with_footer = list_layout(ListScreen("Punkte", players(8), footer="START: +1"), (128, 64))
    assert with_footer.rows == small.rows - 1


def players(n: int) -> tuple[ListItem, ...]:
    return tuple(ListItem(f"Spieler {i + 1}", str(i)) for i in range(n))


def cursor_rows(image: Image.Image) -> list[int]:
    """The y of every pixel row lit across the cursor's bar in the gutter, below the title's rule."""
    rows = [y for y in range(image.size[1]) if all(image.getpixel((x, y)) for x in range(CURSOR_W))]
    return rows[1:]  # the first is the rule under the title


@pytest.mark.parametrize("cursor", range(8))
def test_paging_keeps_the_cursor_visible(cursor: int) -> None:
    screen = ListScreen("Punkte", players(8), cursor=cursor)
    rows = list_layout(screen, (128, 64)).rows
    assert (list_layout(screen, (128, 64)).page, list_layout(screen, (256, 64)).page) == (
        cursor // rows, cursor // (2 * rows))
    # the cursor's bar is one contiguous block, one row pitch lower per row down the page (inset by a
    # pixel at its row's top and bottom); the row's text is not inverted (a move changes the gutter only)
    image = render(screen, (128, 64))
    band = cursor_rows(image)
    assert band == list(range(band[0], band[0] + len(band)))
    assert not any(image.getpixel((127, y)) for y in band)
    top_row = ListScreen("Punkte", players(8), cursor=cursor - cursor % rows)
    first_on_page = cursor_rows(render(top_row, (128, 64)))
    assert band[0] - first_on_page[0] == (cursor % rows) * (len(band) + 2)


def test_page_indicator_is_shown_only_when_paging() -> None:
    title_row = (64, 0, 128, 10)
    assert lit(render(ListScreen("P", players(8), cursor=0), (128, 64)), title_row) > 0
    assert lit(render(ListScreen("P", players(3), cursor=0), (128, 64)), title_row) == 0
    page1 = render(ListScreen("P", players(8), cursor=0), (128, 64)).crop(title_row)
    page2 = render(ListScreen("P", players(8), cursor=7), (128, 64)).crop(title_row)
    assert page1.tobytes() != page2.tobytes()


@pytest.mark.parametrize("size", PANEL_SIZES)
def test_a_long_label_never_touches_the_value(size: tuple[int, int]) -> None:
    # one word too long for three pages in any face (a shorter one takes the small face, as the value alone
    # does not): its pages fill the room they have
    name = "MaximilianeMüllerLüdenscheidtWiesenthal" * 3
    long = render(ListScreen("", (ListItem(name, "1234"),), None), size)
    value_only = render(ListScreen("", (ListItem("", "1234"),), None), size)
    label_only = render(ListScreen("", (ListItem(name, ""),), None), size)
    value_left = ink_box(value_only)[0]
    # the value is drawn exactly as alone, and a gap of empty columns separates it from the label
    width, height = size
    right = (value_left - 2, 0, width, height)
    assert long.crop(right).tobytes() == value_only.crop(right).tobytes()
    assert ink_box(long.crop((0, 0, value_left - 2, height)))[2] < value_left - 2
    # the label alone uses the room the value took
    assert ink_box(label_only)[2] > value_left


@pytest.mark.parametrize("cursor", [None, -1, 8, 99])
def test_a_cursor_off_the_list_shows_the_first_page_without_a_cursor(cursor: int | None) -> None:
    screen = ListScreen("Punkte", players(8), cursor=cursor)
    assert cursor_rows(render(screen, (128, 64))) == []
    assert list_layout(screen, (128, 64)).page == 0


def test_a_list_without_a_cursor_too_long_for_the_panel_shows_its_pages_in_turn() -> None:
    """No cursor pages to the rest (a round's table with the best lay-downs, the statistics of three
    players): the list is paged like a long hint, a page per `page`, so every row is seen."""
    from firmware_host.render import pages

    screen = ListScreen("Punkte", players(5), None)
    rows = list_layout(screen, (128, 64)).rows
    count = -(-5 // rows)
    assert count > 1 and pages(screen, (128, 64)) == count
    frames = [render(screen, (128, 64), page).tobytes() for page in range(count + 1)]
    assert len(set(frames[:count])) == count and frames[count] == frames[0]
    last = render(ListScreen("Punkte", players(5)[(count - 1) * rows:], None), (128, 64))
    body = (0, 16, 128, 64)  # under the title (whose page indicator differs)
    assert render(screen, (128, 64), count - 1).crop(body).tobytes() == last.crop(body).tobytes()


def test_marked_rows_show_a_mark_in_the_gutter() -> None:
    marked = render(ListScreen("", (ListItem("Weiß", "7", marked=True),), None), (128, 64))
    plain = render(ListScreen("", (ListItem("Weiß", "7"),), None), (128, 64))
    assert lit(marked, (0, 0, 5, 64)) > 0 == lit(plain, (0, 0, 5, 64))


def test_message_wraps_to_the_width_and_clips_to_the_panel() -> None:
    text = "Wörter über Wörter " * 20
    image = render(MessageScreen("Regeln", (text,)), (128, 64))
    assert lit(image, (0, 48, 128, 64)) > 0  # wrapped lines fill the panel down to the last row
    one_line = render(MessageScreen("Regeln", ("Wörter",)), (128, 64))
    assert lit(one_line, (0, 30, 128, 64)) == 0


fonts = st.sampled_from([font(10), font(10, bold=True), font(12)])
texts = st.text(alphabet=st.characters(codec="latin-1", categories=("L", "N", "P", "Zs")), max_size=60)


@pytest.mark.slow
@given(text=texts, fnt=fonts, width=st.integers(0, 200))
def test_clip_fits_and_keeps_a_prefix(text: str, fnt: Font, width: int) -> None:
    clipped = clip(text, fnt, width)
    assert fnt.getlength(clipped) <= width
    if clipped != text and clipped:
        assert clipped.endswith("…") and text.startswith(clipped[:-1])


@pytest.mark.slow
@given(text=texts, fnt=fonts, width=st.integers(20, 200))
def test_wrap_fits_and_keeps_every_character(text: str, fnt: Font, width: int) -> None:
    lines = wrap(text, fnt, width)  # a word wider than the line is cut with a hyphen added
    assert all(fnt.getlength(line) <= width or len(line.rstrip("-")) == 1 for line in lines)
    assert "".join(lines).replace(" ", "").replace("-", "") == "".join(text.split()).replace("-", "")


items = st.builds(ListItem, texts, texts, st.booleans())
screens: st.SearchStrategy[Screen] = st.one_of(
    st.builds(BigScreen, texts, texts, texts, st.booleans()),
    st.builds(
        ListScreen, texts, st.lists(items, max_size=12).map(tuple), st.none() | st.integers(-2, 14), texts
    ),
    st.builds(MessageScreen, texts, st.lists(texts, max_size=6).map(tuple), texts),
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(screen=screens, size=st.sampled_from([(128, 64), (256, 64), (128, 32), (64, 48)]))
def test_any_screen_renders(screen: Screen, size: tuple[int, int]) -> None:
    assert render(screen, size).size == size


def test_a_wrapped_line_never_starts_with_the_number_of_the_word_before_it() -> None:
    fnt = font(10)
    width = fnt.getlength("Restkarten: Spieler")  # "Spieler 3" does not fit after it
    assert wrap("Restkarten: Spieler 3", fnt, width) == ["Restkarten:", "Spieler 3"]
    assert wrap("Runde 7 von 9", fnt, fnt.getlength("Runde 7")) == ["Runde 7", "von 9"]
    narrow = fnt.getlength("Spieler")  # the pair fits on no line: it breaks as any two words
    assert wrap("Spieler 12", fnt, narrow) == ["Spieler", "12"]


@pytest.mark.parametrize("host", ["10.0.0.5", "192.168.178.20"])
@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_the_table_code_beside_the_qr_keeps_a_blank_column_between_its_letters(size: tuple[int, int],
                                                                                host: str) -> None:
    """The code is typed from the panel when the QR is not scanned: E, H and M side by side must not run
    into one block (Terminus' bold 14-px letters touch)."""
    from firmware_host.render import qr_box

    code = "EHEMEH"
    data = f"http://{host}:8080/j/{code}"
    image = render(QrScreen("Handy-Seite", data, code, footer="NEXT: neu"), size)
    side = qr_box(data, size[1])[2]
    band = image.crop((side + 1, 14, size[0], size[1] - 13))  # between the title and the footer
    inked = [any(band.getpixel((x, y)) for y in range(band.height)) for x in range(band.width)]
    runs = sum(1 for x in range(band.width) if inked[x] and (x == 0 or not inked[x - 1]))
    assert runs == len(code)
