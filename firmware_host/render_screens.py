"""How each kind of screen sits on the panel: one drawing function per screen model (`DRAWERS`), each a
pure function of the model, the panel size and the frame's `NOTES` (`render_lines`). The layouts are
described in `firmware_host.render`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, QrScreen, TurnScreen
from firmware_host.render_fonts import (
    EXTENT_PROBE,
    STRIKES,
    Font,
    Metrics,
    big_font,
    big_font_size,
    font,
    metrics,
    primary,
)
from firmware_host.render_lines import (
    GAP,
    MAX_PAGES,
    PAD,
    draw_footer,
    draw_text,
    laid_out,
    note_lost,
    page_of,
    shown,
    text_row,
)
from firmware_host.render_text import ELLIPSIS, clip, paged

COLUMN_MIN_WIDTH = 128  # a list gets one column per this many pixels of width
GUTTER = 6  # left of each list row: room for the mark
CURSOR_W = 5  # the cursor's bar in the gutter (the mark cut out of it on the marked row)
_DIGIT = re.compile(r"[0-9]")


@lru_cache(maxsize=8)
def qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of `data` as rows of modules (True: dark), without its quiet zone."""
    import segno  # its writers pull in urllib, http and email: loaded only for a QR screen

    code = segno.make(data, error="l", micro=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def qr_box(data: str, height: int) -> tuple[int, int, int]:
    """Where `draw_qr` puts the code on a panel `height` px high: (top, module size in px, side in px,
    quiet zone included)."""
    modules = len(qr_matrix(data)) + 2
    scale = max(1, height // modules)
    side = scale * modules
    return max(0, (height - side) // 2), scale, side


def _code_font(text: str, width: int, height: int) -> Font:
    """The largest regular Terminus strike that shows `text` in `width` × `height` px: the table code is read
    and typed letter by letter, and the regular face keeps a blank column between letters (the bold 14-px
    E, H and M run into one block)."""
    fitting = [s for s in STRIKES if font(s).getlength(text) <= width and s <= height]
    return font(max(fitting, default=STRIKES[0]))


@lru_cache(maxsize=8)
def qr_image(data: str, height: int) -> Image.Image:
    """The QR code of `data` as `draw_qr` puts it on a panel `height` px high, quiet zone included: lit
    where the code is light (drawn once: a module at a time is ~300 rectangles)."""
    _, scale, side = qr_box(data, height)
    image = Image.new("1", (side, side), 1)
    pen = ImageDraw.Draw(image)
    for r, row in enumerate(qr_matrix(data)):
        for c, dark in enumerate(row):
            if dark:
                x, y = (c + 1) * scale, (r + 1) * scale
                pen.rectangle((x, y, x + scale - 1, y + scale - 1), fill=0)
    return image


def draw_qr(draw: ImageDraw.ImageDraw, screen: QrScreen, size: tuple[int, int]) -> None:
    width, height = size
    m = metrics(height)
    top, _, side = qr_box(screen.data, height)
    draw.bitmap((0, top), qr_image(screen.data, height), fill=1)
    left = side + PAD
    room = width - left - PAD
    if room <= 0:
        return
    small, bold = font(m.size), font(m.size, True)
    rows = height // m.pitch
    footer = list(laid_out(screen.footer, small, room)[: 2 if rows >= 8 else 1]) if screen.footer else []
    footer = [clip(line, small, room) for line in footer]
    lines = [clip(line, small, room) for line in screen.lines][: max(0, rows - 4 - len(footer))]
    text_row(draw, clip(screen.title, bold, room), bold, left, 0, m, 1)
    top, bottom = m.pitch, height - (len(footer) + len(lines)) * m.pitch
    if screen.big and bottom - top > 4:
        code = _code_font(screen.big, room, bottom - top)
        draw_text(draw, (left + room / 2, (top + bottom) / 2), screen.big, code, 1, "mm")
    for i, text in enumerate(lines):
        text_row(draw, text, small, left, bottom + i * m.pitch, m, 1)
    for i, text in enumerate(footer):
        text_row(draw, text, small, left, height - (len(footer) - i) * m.pitch, m, 1)


def draw_big(draw: ImageDraw.ImageDraw, screen: BigScreen, size: tuple[int, int]) -> None:
    width, height = size
    m = metrics(height)
    small = font(m.size)
    paper, ink = (1, 0) if screen.inverted else (0, 1)
    draw.rectangle((0, 0, width - 1, height - 1), fill=paper)
    top = 0
    bottom = height
    if screen.title:
        text_row(draw, shown(screen.title, small, width - 2 * PAD), small, PAD, 0, m, ink, "ls")
        top = m.pitch
    if screen.footer:
        bottom = height - m.pitch
        draw_footer(draw, screen.footer, size, m, ink)
    bottom = _body_line(draw, screen.line, bottom, size, ink)
    _big_value(draw, screen.big, top, bottom, width, ink)


def _body_line(draw: ImageDraw.ImageDraw, text: str, bottom: int, size: tuple[int, int], ink: int) -> int:
    """`text` in the body's face on the row that ends at `bottom` (nothing when empty); the new bottom."""
    if not text:
        return bottom
    width, height = size
    p = primary(height)
    body = font(p.size)
    text_row(draw, shown(text, body, width - 2 * PAD), body, PAD, bottom - p.pitch, p, ink)
    return bottom - p.pitch


def _big_value(draw: ImageDraw.ImageDraw, text: str, top: int, bottom: int, width: int, ink: int) -> None:
    """`text` in bold, as large as fits between `top` and `bottom`, centred."""
    if not text or bottom - top < 4:
        return
    box_w, box_h = width - 2 * PAD, bottom - top - 2
    # Size and vertical place come from the text with every digit a "0" (the tallest ink of the lining
    # digits), so a running timer keeps its size and baseline whatever its digits: no 1-px jump as
    # "1:58" becomes "1:57", and only the changed digits go over the display bus.
    probe = _DIGIT.sub("0", text)
    fnt = big_font(big_font_size(probe, box_w, box_h))
    if fnt.getlength(text) > box_w:
        note_lost(text)
    _, ink_top, _, ink_bottom = fnt.getbbox(probe, anchor="ls")
    # centre the advance horizontally (digits are tabular, so a running timer does not jitter)
    # and the ink vertically
    x = (width - fnt.getlength(text)) / 2
    baseline = top + (bottom - top - (ink_bottom - ink_top)) // 2 - ink_top
    draw_text(draw, (round(x), baseline), text, fnt, ink, "ls")


def draw_turn(draw: ImageDraw.ImageDraw, screen: TurnScreen, size: tuple[int, int]) -> None:
    width, height = size
    m, p = metrics(height), primary(height)
    small = font(m.size)
    name = font(p.size)  # the regular face: bold Terminus letters of this size run into each other
    paper, ink = (1, 0) if screen.inverted else (0, 1)
    draw.rectangle((0, 0, width - 1, height - 1), fill=paper)
    ink_top, ink_bottom = (int(v) for v in name.getbbox(EXTENT_PROBE, anchor="ls")[1::2])
    baseline = 1 - ink_top
    status_w = small.getlength(screen.status) + GAP if screen.status else 0
    draw_text(draw, (PAD, baseline), shown(screen.title, name, width - 2 * PAD - status_w), name, ink, "ls")
    if screen.status:
        draw_text(draw, (width - PAD, baseline), screen.status, small, ink, "rs")
    bottom = height
    if screen.footer:
        bottom = height - m.pitch
        draw_footer(draw, screen.footer, size, m, ink)
    bottom = _body_line(draw, screen.then, bottom, size, ink)
    _big_value(draw, screen.time, ink_bottom - ink_top + 2, bottom, width, ink)


def _title_with_rule(draw: ImageDraw.ImageDraw, title: str, right: str, width: int, m: Metrics) -> int:
    """Draw the bold title, `right` (a page indicator) right-aligned, and a rule; return the content top."""
    bold = font(m.size, bold=True)
    small = font(m.size)
    right_w = small.getlength(right) + GAP if right else 0
    text_row(draw, shown(title, bold, width - 2 * PAD - right_w), bold, PAD, 0, m, 1)
    text_row(draw, right, small, width - PAD, 0, m, 1, "rs")
    draw.line((0, m.pitch, width - 1, m.pitch), fill=1)
    return m.pitch + 2


@dataclass(frozen=True, slots=True)
class ListLayout:
    """How a ListScreen sits on a panel: `columns` × `rows` items per page, showing page `page` of `pages`;
    `dense`: the rows are in the small face (a list without a cursor that needs more than `MAX_PAGES`
    pages in the primary one)."""

    columns: int
    rows: int
    page: int
    pages: int
    dense: bool = False

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def list_layout(screen: ListScreen, size: tuple[int, int]) -> ListLayout:
    """The layout of `screen` on a panel of `size`: the page shown is the cursor's (the first without one).
    The most columns (one per `COLUMN_MIN_WIDTH` px) in the primary face whose rows all show whole; else fewer
    columns; else the small face; a list without a cursor takes at most `MAX_PAGES` pages where it can."""
    width, height = size
    m = metrics(height)
    header = m.pitch + 2 if screen.title else 0
    footer = m.pitch if screen.footer else 0
    most = max(1, width // COLUMN_MIN_WIDTH)
    cursor = screen.cursor
    has_cursor = cursor is not None and 0 <= cursor < len(screen.items)
    options = [(columns, dense) for dense in (False, True) for columns in range(most, 0, -1)]
    layouts = []
    for columns, dense in options:
        rows = max(1, (height - header - footer) // _row_metrics(height, dense).pitch)
        pages = max(1, -(-len(screen.items) // (columns * rows)))
        layouts.append(ListLayout(columns=columns, rows=rows, page=0, pages=pages, dense=dense))
    candidates = [lay for lay in layouts if has_cursor or lay.pages <= MAX_PAGES] or layouts[-1:]
    parts = [_most_parts(screen.items, width // lay.columns, height, lay.dense) for lay in candidates]
    lay = next((lay for lay, n in zip(candidates, parts, strict=True) if n == 1), None) or next(
        (lay for lay, n in zip(candidates, parts, strict=True) if n <= MAX_PAGES), candidates[0])
    page = cursor // lay.per_page if has_cursor and cursor is not None else 0
    return replace(lay, page=page)


def _most_parts(items: tuple[ListItem, ...], col_w: int, height: int, dense: bool) -> int:
    """How many parts (a part a page) the longest item's label takes in a row of a column `col_w` px wide,
    as `_draw_row` lays it out beside its value (1: every row shows whole)."""
    fnt = font(_row_metrics(height, dense).size)
    inner = col_w - 1 - PAD - GUTTER
    most = 1
    for item in items:
        value = item.value if fnt.getlength(item.value) <= inner * 0.6 else ""
        if item.value and not value:
            return MAX_PAGES + 1  # the value itself would be paged
        room = inner - (fnt.getlength(value) + GAP if value else 0)
        if fnt.getlength(item.label) > room:
            most = max(most, len(paged(item.label, fnt, room)))
    return most


def _row_metrics(height: int, dense: bool) -> Metrics:
    return metrics(height) if dense else primary(height)


def draw_list(draw: ImageDraw.ImageDraw, screen: ListScreen, size: tuple[int, int]) -> None:
    width, height = size
    m = metrics(height)
    lay = list_layout(screen, size)
    if lay.pages > 1 and not (screen.cursor is not None and 0 <= screen.cursor < len(screen.items)):
        if lay.pages > MAX_PAGES:  # no cursor pages to the rest: the pages take turns, like a long hint
            note_lost(screen.items[MAX_PAGES * lay.per_page].label)
        lay = replace(lay, page=page_of(lay.pages), pages=min(lay.pages, MAX_PAGES))
    top = 0
    if screen.title:
        indicator = f"{lay.page + 1}/{lay.pages}" if lay.pages > 1 else ""
        top = _title_with_rule(draw, screen.title, indicator, width, m)
    col_w = width // lay.columns
    first = lay.page * lay.per_page
    for slot, item in enumerate(screen.items[first : first + lay.per_page]):
        col, row = divmod(slot, lay.rows)
        x0 = col * col_w
        x1 = x0 + col_w - 1 - (1 if col < lay.columns - 1 else 0)  # a 1-px gap between columns
        p = _row_metrics(height, lay.dense)
        _draw_row(draw, item, x0, x1, top + row * p.pitch, p, selected=first + slot == screen.cursor)
    draw_footer(draw, screen.footer, size, m, 1)


def _draw_row(
    draw: ImageDraw.ImageDraw, item: ListItem, x0: int, x1: int, top: int, m: Metrics, selected: bool
) -> None:
    fnt = font(m.size)
    ink = 1
    if selected:  # a bar in the gutter, not the whole row inverted: a move changes ~22 bytes, not 528
        draw.rectangle((x0, top + 1, x0 + CURSOR_W - 1, top + m.pitch - 2), fill=1)
    if item.marked:
        mid = top + m.pitch // 2
        draw.polygon([(x0 + 1, mid - 3), (x0 + 4, mid), (x0 + 1, mid + 3)], fill=0 if selected else 1)
    inner = x1 - PAD - (x0 + GUTTER)
    value = shown(item.value, fnt, inner * 0.6)
    value_w = fnt.getlength(value) + GAP if value else 0
    text_row(draw, shown(item.label, fnt, inner - value_w), fnt, x0 + GUTTER, top, m, ink)
    text_row(draw, value, fnt, x1 - PAD, top, m, ink, "rs")


def draw_message(draw: ImageDraw.ImageDraw, screen: MessageScreen, size: tuple[int, int]) -> None:
    width, height = size
    m, p = metrics(height), primary(height)
    fnt = font(p.size)
    top = _title_with_rule(draw, screen.title, "", width, m) if screen.title else 0
    bottom = height - m.pitch if screen.footer else height
    fit = max(0, (bottom - top) // p.pitch)
    lines = [part for line in screen.lines for part in laid_out(line, fnt, width - 2 * PAD)]
    if fit > 0 and len(lines) > fit:  # a screenful at a time
        screenfuls = -(-len(lines) // fit)
        if screenfuls > MAX_PAGES:
            note_lost(" ".join(screen.lines))
            lines = lines[: MAX_PAGES * fit]
            lines[-1] = clip(lines[-1] + ELLIPSIS, fnt, width - 2 * PAD)
        first = page_of(screenfuls) * fit
        lines = lines[first : first + fit]
    elif fit == 0 and lines:
        note_lost(" ".join(screen.lines))
    for i, line in enumerate(lines[:fit]):
        text_row(draw, line, fnt, PAD, top + i * p.pitch, p, 1)
    draw_footer(draw, screen.footer, size, m, 1)


Drawer = Callable[[ImageDraw.ImageDraw, Any, tuple[int, int]], None]
# Which function draws which screen model; any other screen is drawn as a MessageScreen.
DRAWERS: tuple[tuple[type, Drawer], ...] = (
    (BigScreen, draw_big), (ListScreen, draw_list), (TurnScreen, draw_turn), (QrScreen, draw_qr),
    (MessageScreen, draw_message),
)
