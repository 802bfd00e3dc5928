"""Draw screen models onto 1-bit images: `render(screen, size) -> PIL.Image.Image` (mode "1").

A pure function of the model and the panel size: no device, no clock, no state beyond cached fonts.
Lit OLED pixels are 1. Text is the bundled Terminus (OpenType bitmap strikes of the Terminus Font, SIL
Open Font License 1.1, `fonts/LICENSE-Terminus.txt`; Ä Ö Ü ß and the typographic marks “ „ … → − ·), a
face made for small monochrome screens, in two sizes: secondary text (titles, hints, footers) in the
12-px face (capitals 8 px high), primary content (list rows, message lines, the player on turn) in the
14-px face (capitals 10 px high) on a 64-px panel. Big values (the timer, the current word) are DejaVu
Sans Bold, scaled to fit. Everything is drawn without anti-aliasing (font mode "1"), so the image is
exactly what the panel shows.

Layouts (sizes below are for 64-pixel-high panels; taller panels take larger strikes):
- BigScreen: small title on top, the big value in bold as large as fits between title and footer,
  small footer at the bottom; `inverted` swaps background and text. Title and footer start at the left
  edge, so a changed word ("läuft" → "Pause") leaves the rest of its line in place and only that word
  goes over the display bus.
- ListScreen: bold title with a page indicator ("1/2") and a rule, then rows of label (left, clipped
  with "…") and value (right-aligned); the cursor row is inverted, marked rows get a ▸ in the gutter.
  A panel 256 px wide or more shows two or more columns; pages are chosen so the cursor is visible, and a
  list without a cursor shows its pages in turn (`page`, like a long text).
- MessageScreen: bold title and a rule, the lines word-wrapped to the width, clipped to the panel
  (the last visible line ends in "…" when text was cut), footer at the bottom.
- QrScreen: the QR code (segno, error level L) on the left as large as the height allows, dark modules on a
  lit square with a one-module quiet zone (phones read dark on light); to its right, each clipped to that
  column: the bold title on top, the big value in bold as large as fits, the lines, and the footer at the
  bottom (wrapped to two rows when the panel has room).
- TurnScreen: the title (the player on turn) in bold at 1.5 times the small size (clipped with "…") and the status
  right-aligned beside it, the time in bold as large as fits below, the footer at the bottom.

Any string is drawn, none raises: each text of the model is first cut to `MAX_DRAWN` characters (more
never fits a panel; a cut text ends in "…"), and every character FreeType's layout cannot take on one line
(controls, format characters, line and paragraph separators, lone surrogates) is drawn as "�". The core
refuses such text at its edge (`core.text_input`); this is the renderer's own guard.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, QrScreen, Screen, TurnScreen

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "terminus-normal.otb"
BOLD = FONT_DIR / "terminus-bold.otb"
BIG = FONT_DIR / "DejaVuSans-Bold.ttf"  # scalable: the big values
STRIKES = (12, 14, 16, 18, 20, 22, 24, 28, 32)  # the pixel sizes the Terminus faces hold

ELLIPSIS = "…"
MAX_DRAWN = 1024  # characters of one text that are drawn at most: more than any panel shows
MAX_BIG = 160  # of a big value: at the smallest big size no panel shows more
UNDRAWABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})  # drawn as REPLACEMENT
REPLACEMENT = "\ufffd"
COLUMN_MIN_WIDTH = 128  # a list gets one column per this many pixels of width
GUTTER = 6  # left of each list row: room for the mark
PAD = 2  # inner horizontal padding
GAP = 4  # least space between a label and its value
BIG_MIN_SIZE = 6
BIG_MAX_SIZE = 256
# The tallest ink of any line of small text: accents above capitals, descenders below the baseline.
_EXTENT_PROBE = "ÄÖÜÉÅgjpqy|"

Font = ImageFont.FreeTypeFont
_DIGIT = re.compile(r"[0-9]")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """The bundled Terminus strike for `size` pixels: the largest it holds that is not larger (at least the
    smallest, 12 px); loaded once per strike and weight."""
    strike = max([s for s in STRIKES if s <= size] or [STRIKES[0]])
    return ImageFont.truetype(str(BOLD if bold else REGULAR), strike)


@lru_cache(maxsize=256)
def big_font(size: int) -> Font:
    """DejaVu Sans Bold at `size` pixels: the big values, scaled to fit."""
    return ImageFont.truetype(str(BIG), size)


@dataclass(frozen=True, slots=True)
class _Metrics:
    """Text of one size on one panel height: rows are `pitch` px, the baseline `baseline` px below a row's
    top. `_metrics` is the secondary text's, `_primary` the primary content's."""

    size: int
    pitch: int
    baseline: int


def _measured(size: int) -> _Metrics:
    top = int(min(font(size, b).getbbox(_EXTENT_PROBE, anchor="ls")[1] for b in (False, True)))
    bottom = int(max(font(size, b).getbbox(_EXTENT_PROBE, anchor="ls")[3] for b in (False, True)))
    return _Metrics(size=size, pitch=bottom - top, baseline=-top)


@lru_cache(maxsize=16)
def _metrics(height: int) -> _Metrics:
    return _measured(max(12, round(height * 12 / 64)))


@lru_cache(maxsize=16)
def _primary(height: int) -> _Metrics:
    return _measured(max(14, round(height * 14 / 64)))


def cap_height(size: int, bold: bool = False) -> int:
    """The height in pixels of a capital H drawn in `font(size, bold)` (what a reader across the table sees)."""
    image = Image.new("1", (4 * size, 4 * size), 0)
    pen = ImageDraw.Draw(image)
    pen.fontmode = "1"
    pen.text((size, 3 * size), "H", font=font(size, bold), fill=1, anchor="ls")
    box = image.getbbox()
    return 0 if box is None else box[3] - box[1]


def render(screen: Screen, size: tuple[int, int], page: int = 0) -> Image.Image:
    """Draw `screen` on a new mode "1" image of `size` (width, height) pixels. A text too long for its place
    is shown a part at a time (wrapped to lines at spaces, line `page` modulo their number; a message's
    body likewise by screenfuls): the shell counts `page` up every `shell.PAGE_S` while `pages(screen, size)`
    is more than 1, so nothing is cut off and every frame is a pure function of (screen, size, page).
    The last few frames are kept: drawing one of them again (or `pages` after `render`, and the other way
    round, as the shell asks for a new screen) costs a copy."""
    return _drawn(screen, size, page)[0].copy()


def pages(screen: Screen, size: tuple[int, int]) -> int:
    """How many parts the longest paged text of `screen` has on a panel of `size` (1: all of it fits)."""
    return _drawn(screen, size, 0)[1]


@lru_cache(maxsize=4)
def _drawn(screen: Screen, size: tuple[int, int], page: int) -> tuple[Image.Image, int]:
    """The frame of `screen` at `page`, and how many parts its longest paged text has."""
    global _pages
    _pages = []
    try:
        return _draw(screen, size, page), max(_pages, default=1)
    finally:
        _pages = None


def _draw(screen: Screen, size: tuple[int, int], page: int) -> Image.Image:
    global _page
    _page = page
    width, height = size
    if width <= 0 or height <= 0:
        raise ValueError(f"panel size must be positive, got {width}×{height}")
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    screen = drawable_screen(screen)
    if isinstance(screen, BigScreen):
        _draw_big(draw, screen, size)
    elif isinstance(screen, ListScreen):
        _draw_list(draw, screen, size)
    elif isinstance(screen, TurnScreen):
        _draw_turn(draw, screen, size)
    elif isinstance(screen, QrScreen):
        _draw_qr(draw, screen, size)
    else:
        _draw_message(draw, screen, size)
    return image


def drawable(text: str, limit: int = MAX_DRAWN) -> str:
    """`text` as it can be drawn on one line: at most `limit` characters (a cut text ends in "…"),
    every control, format or separator character and lone surrogate replaced by "�"."""
    return _printable(text if len(text) <= limit else text[: limit - 1] + ELLIPSIS)


@lru_cache(maxsize=1024)
def _printable(text: str) -> str:
    if text.isprintable() and text.isascii():
        return text
    return "".join(REPLACEMENT if unicodedata.category(c) in UNDRAWABLE else c for c in text)


def drawable_screen(screen: Screen) -> Screen:
    """The screen with every text `drawable`."""
    if isinstance(screen, BigScreen):
        big = drawable(screen.big, MAX_BIG)
        return replace(screen, title=drawable(screen.title), big=big, footer=drawable(screen.footer))
    if isinstance(screen, ListScreen):
        items = tuple(replace(i, label=drawable(i.label), value=drawable(i.value)) for i in screen.items)
        return replace(screen, title=drawable(screen.title), items=items, footer=drawable(screen.footer))
    if isinstance(screen, TurnScreen):
        return replace(screen, title=drawable(screen.title), time=drawable(screen.time, MAX_BIG),
                       footer=drawable(screen.footer), status=drawable(screen.status))
    if isinstance(screen, QrScreen):
        lines = tuple(drawable(line) for line in screen.lines)
        return replace(screen, title=drawable(screen.title), big=drawable(screen.big, MAX_BIG), lines=lines,
                       footer=drawable(screen.footer))
    lines = tuple(drawable(line) for line in screen.lines)
    return replace(screen, title=drawable(screen.title), lines=lines, footer=drawable(screen.footer))


@lru_cache(maxsize=8)
def qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of `data` as rows of modules (True: dark), without its quiet zone."""
    import segno  # its writers pull in urllib, http and email: loaded only for a QR screen

    code = segno.make(data, error="l", micro=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def qr_box(data: str, height: int) -> tuple[int, int, int]:
    """Where `_draw_qr` puts the code on a panel `height` px high: (top, module size in px, side in px,
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


def _draw_qr(draw: ImageDraw.ImageDraw, screen: QrScreen, size: tuple[int, int]) -> None:
    width, height = size
    m = _metrics(height)
    top, scale, side = qr_box(screen.data, height)
    draw.rectangle((0, top, side - 1, top + side - 1), fill=1)
    for r, row in enumerate(qr_matrix(screen.data)):
        for c, dark in enumerate(row):
            if dark:
                x, y = (c + 1) * scale, top + (r + 1) * scale
                draw.rectangle((x, y, x + scale - 1, y + scale - 1), fill=0)
    left = side + PAD
    room = width - left - PAD
    if room <= 0:
        return
    small, bold = font(m.size), font(m.size, True)
    rows = height // m.pitch
    footer = wrap(screen.footer, small, room, max_lines=2 if rows >= 8 else 1) if screen.footer else []
    footer = [clip(line, small, room) for line in footer]
    lines = [clip(line, small, room) for line in screen.lines][: max(0, rows - 4 - len(footer))]
    _text_row(draw, clip(screen.title, bold, room), bold, left, 0, m, 1)
    top, bottom = m.pitch, height - (len(footer) + len(lines)) * m.pitch
    if screen.big and bottom - top > 4:
        code = _code_font(screen.big, room, bottom - top)
        _draw_text(draw, (left + room / 2, (top + bottom) / 2), screen.big, code, 1, "mm")
    for i, text in enumerate(lines):
        _text_row(draw, text, small, left, bottom + i * m.pitch, m, 1)
    for i, text in enumerate(footer):
        _text_row(draw, text, small, left, height - (len(footer) - i) * m.pitch, m, 1)


@lru_cache(maxsize=4096)
def _text_image(text: str, fnt: Font, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` drawn once on its own small image, and where that image's corner lies from the anchor."""
    left, top, right, bottom = (int(v) for v in fnt.getbbox(text, anchor=anchor))
    left, top, right, bottom = left - 2, top - 2, right + 2, bottom + 2  # some glyphs ink past their box
    image = Image.new("1", (right - left, bottom - top), 0)
    pen = ImageDraw.Draw(image)
    pen.fontmode = "1"
    pen.text((-left, -top), text, font=fnt, fill=1, anchor=anchor)
    return image, left, top


def _draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt: Font, ink: int,
               anchor: str) -> None:
    """`draw.text` for one line of text, with the rasterised line cached: a screen that is drawn again
    (a timer tick, a toggled status) costs a paste instead of a FreeType run. Same pixels."""
    x, y = xy
    if x != int(x) or y != int(y):  # sub-pixel positions rasterise differently: no cache
        draw.text(xy, text, font=fnt, fill=ink, anchor=anchor)
        return
    image, left, top = _text_image(text, fnt, anchor)
    draw.bitmap((int(x) + left, int(y) + top), image, fill=ink)


_lost: list[str] | None = None  # while `lost` renders: every text cut or left out
_pages: list[int] | None = None  # while `_drawn` draws: how many parts each paged text has
_page = 0  # the part of a paged text to draw (set by `render`)


def lost(screen: Screen, size: tuple[int, int]) -> list[str]:
    """The texts of `screen` that do not show whole on a panel of `size`, on any of its pages: each one cut
    with "…" (a list's items on other pages are not lost: the cursor, or else the time, pages to them).
    Renders to find out."""
    global _lost
    _lost = []
    try:
        render(screen, size)
        return _lost
    finally:
        _lost = None


SEPARATOR = " · "  # between the parts of a hint ("START los · NEXT Dauer"): a page breaks there first


@lru_cache(maxsize=1024)
def paged(text: str, fnt: Font, width: float) -> tuple[str, ...]:
    """The pages `text` is shown in, each fitting `width` px: whole hint parts (split at " · ") joined while
    they fit, a part too long for a page wrapped at spaces (a word too long cut into pieces)."""
    pages: list[str] = []
    for part in text.split(SEPARATOR):
        joined = f"{pages[-1]}{SEPARATOR}{part}" if pages else part
        if pages and fnt.getlength(joined) <= width:
            pages[-1] = joined
        elif fnt.getlength(part) <= width:
            pages.append(part)
        else:
            pages += wrap(part, fnt, width)
    return tuple(pages) or ("",)


def _paged(text: str, fnt: Font, width: float) -> str:
    """`text` if it fits in `width` px; else its page for the current frame (`paged`)."""
    if fnt.getlength(text) <= width:
        return text
    parts = paged(text, fnt, width)
    if _pages is not None:
        _pages.append(len(parts))
    return _fit(parts[_page % len(parts)], fnt, width)


def _fit(text: str, fnt: Font, width: float) -> str:
    """`clip`, noting a cut text for `lost`."""
    shown = clip(text, fnt, width)
    if shown != text and _lost is not None:
        _lost.append(text)
    return shown


@lru_cache(maxsize=4096)
def clip(text: str, fnt: Font, width: float) -> str:
    """`text` if it fits in `width` px, else its longest prefix that fits with "…" appended ("" if none)."""
    if fnt.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)  # invariant: prefix of length lo fits (with ellipsis), hi does not
    if fnt.getlength(ELLIPSIS) > width:
        return ""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fnt.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid
    return text[:lo].rstrip() + ELLIPSIS


def wrap(text: str, fnt: Font, width: float, max_lines: int | None = None) -> list[str]:
    """Break `text` into lines no wider than `width` px, at spaces; a word too long is cut into pieces.
    With `max_lines`, stops once that many lines are full (the rest would not be shown)."""
    lines: list[str] = []
    line = ""
    for word in _bonded(text.split(), fnt, width):
        if max_lines is not None and len(lines) >= max_lines:
            return lines[:max_lines]
        candidate = f"{line} {word}" if line else word
        if fnt.getlength(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        while len(word) > 1 and fnt.getlength(word) > width:
            if max_lines is not None and len(lines) >= max_lines:
                return lines[:max_lines]
            cut = max(1, _longest_fitting_prefix(word, fnt, width))
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


def _bonded(words: list[str], fnt: Font, width: float) -> list[str]:
    """`words` with a short number joined to the word before it ("Spieler 3", "Runde 2") where the pair
    fits in `width` px: a line break never leaves the number alone on the next line."""
    bonded: list[str] = []
    for word in words:
        if bonded and len(word) <= 3 and word.isdigit() and fnt.getlength(f"{bonded[-1]} {word}") <= width:
            bonded[-1] = f"{bonded[-1]} {word}"
        else:
            bonded.append(word)
    return bonded


def _longest_fitting_prefix(text: str, fnt: Font, width: float) -> int:
    lo, hi = 0, len(text)  # invariant: the prefix of length lo fits, of length hi + 1 does not (or is all)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid]) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


@lru_cache(maxsize=512)
def big_font_size(text: str, width: int, height: int) -> int:
    """The largest bold size whose advance fits `width` and whose ink fits `height` (at least the minimum)."""

    def fits(size: int) -> bool:
        fnt = big_font(size)
        left, top, right, bottom = fnt.getbbox(text, anchor="ls")
        return max(fnt.getlength(text), right - left) <= width and bottom - top <= height

    lo, hi = BIG_MIN_SIZE, BIG_MAX_SIZE
    if not fits(lo):
        return lo
    while hi - lo > 1:  # invariant: lo fits, hi does not (or is the cap)
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return hi if fits(hi) else lo


def _text_row(
    draw: ImageDraw.ImageDraw, text: str, fnt: Font, x: float, top: int, m: _Metrics, ink: int,
    anchor: str = "ls",
) -> None:
    if text:
        _draw_text(draw, (x, top + m.baseline), text, fnt, ink, anchor)


def _footer(draw: ImageDraw.ImageDraw, text: str, size: tuple[int, int], m: _Metrics, ink: int) -> None:
    """The footer: one row at the bottom, from the left edge (nothing when empty)."""
    width, height = size
    small = font(m.size)
    _text_row(draw, _paged(text, small, width - 2 * PAD), small, PAD, height - m.pitch, m, ink, "ls")


def _draw_big(draw: ImageDraw.ImageDraw, screen: BigScreen, size: tuple[int, int]) -> None:
    width, height = size
    m = _metrics(height)
    small = font(m.size)
    paper, ink = (1, 0) if screen.inverted else (0, 1)
    draw.rectangle((0, 0, width - 1, height - 1), fill=paper)
    top = 0
    bottom = height
    if screen.title:
        _text_row(draw, _paged(screen.title, small, width - 2 * PAD), small, PAD, 0, m, ink, "ls")
        top = m.pitch
    if screen.footer:
        bottom = height - m.pitch
        _footer(draw, screen.footer, size, m, ink)
    _big_value(draw, screen.big, top, bottom, width, ink)


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
    if fnt.getlength(text) > box_w and _lost is not None:
        _lost.append(text)
    _, ink_top, _, ink_bottom = fnt.getbbox(probe, anchor="ls")
    # centre the advance horizontally (digits are tabular, so a running timer does not jitter)
    # and the ink vertically
    x = (width - fnt.getlength(text)) / 2
    baseline = top + (bottom - top - (ink_bottom - ink_top)) // 2 - ink_top
    _draw_text(draw, (round(x), baseline), text, fnt, ink, "ls")


def _draw_turn(draw: ImageDraw.ImageDraw, screen: TurnScreen, size: tuple[int, int]) -> None:
    width, height = size
    m = _metrics(height)
    small = font(m.size)
    name = font(_primary(height).size, bold=True)
    paper, ink = (1, 0) if screen.inverted else (0, 1)
    draw.rectangle((0, 0, width - 1, height - 1), fill=paper)
    ink_top, ink_bottom = (int(v) for v in name.getbbox(_EXTENT_PROBE, anchor="ls")[1::2])
    baseline = 1 - ink_top
    status_w = small.getlength(screen.status) + GAP if screen.status else 0
    _draw_text(draw, (PAD, baseline), _paged(screen.title, name, width - 2 * PAD - status_w), name, ink, "ls")
    if screen.status:
        _draw_text(draw, (width - PAD, baseline), screen.status, small, ink, "rs")
    bottom = height
    if screen.footer:
        bottom = height - m.pitch
        _footer(draw, screen.footer, size, m, ink)
    _big_value(draw, screen.time, ink_bottom - ink_top + 2, bottom, width, ink)


def _title_with_rule(draw: ImageDraw.ImageDraw, title: str, right: str, width: int, m: _Metrics) -> int:
    """Draw the bold title, `right` (a page indicator) right-aligned, and a rule; return the content top."""
    bold = font(m.size, bold=True)
    small = font(m.size)
    right_w = small.getlength(right) + GAP if right else 0
    _text_row(draw, _paged(title, bold, width - 2 * PAD - right_w), bold, PAD, 0, m, 1)
    _text_row(draw, right, small, width - PAD, 0, m, 1, "rs")
    draw.line((0, m.pitch, width - 1, m.pitch), fill=1)
    return m.pitch + 2


@dataclass(frozen=True, slots=True)
class ListLayout:
    """How a ListScreen sits on a panel: `columns` × `rows` items per page, showing page `page` of `pages`."""

    columns: int
    rows: int
    page: int
    pages: int

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def list_layout(screen: ListScreen, size: tuple[int, int]) -> ListLayout:
    """The layout of `screen` on a panel of `size`: the page shown is the cursor's (the first without one)."""
    width, height = size
    m, p = _metrics(height), _primary(height)
    header = m.pitch + 2 if screen.title else 0
    footer = m.pitch if screen.footer else 0
    rows = max(1, (height - header - footer) // p.pitch)
    columns = max(1, width // COLUMN_MIN_WIDTH)
    pages = max(1, -(-len(screen.items) // (columns * rows)))
    cursor = screen.cursor
    page = cursor // (columns * rows) if cursor is not None and 0 <= cursor < len(screen.items) else 0
    return ListLayout(columns=columns, rows=rows, page=page, pages=pages)


def _draw_list(draw: ImageDraw.ImageDraw, screen: ListScreen, size: tuple[int, int]) -> None:
    width, height = size
    m = _metrics(height)
    lay = list_layout(screen, size)
    if lay.pages > 1 and not (screen.cursor is not None and 0 <= screen.cursor < len(screen.items)):
        if _pages is not None:  # no cursor pages to the rest: the pages take turns, like a long hint
            _pages.append(lay.pages)
        lay = replace(lay, page=_page % lay.pages)
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
        p = _primary(height)
        _draw_row(draw, item, x0, x1, top + row * p.pitch, p, selected=first + slot == screen.cursor)
    _footer(draw, screen.footer, size, m, 1)


def _draw_row(
    draw: ImageDraw.ImageDraw, item: ListItem, x0: int, x1: int, top: int, m: _Metrics, selected: bool
) -> None:
    fnt = font(m.size)
    ink = 0 if selected else 1
    if selected:
        draw.rectangle((x0, top, x1, top + m.pitch - 1), fill=1)
    if item.marked:
        mid = top + m.pitch // 2
        draw.polygon([(x0 + 1, mid - 3), (x0 + 4, mid), (x0 + 1, mid + 3)], fill=ink)
    inner = x1 - PAD - (x0 + GUTTER)
    value = _paged(item.value, fnt, inner * 0.6)
    value_w = fnt.getlength(value) + GAP if value else 0
    _text_row(draw, _paged(item.label, fnt, inner - value_w), fnt, x0 + GUTTER, top, m, ink)
    _text_row(draw, value, fnt, x1 - PAD, top, m, ink, "rs")


def _draw_message(draw: ImageDraw.ImageDraw, screen: MessageScreen, size: tuple[int, int]) -> None:
    width, height = size
    m, p = _metrics(height), _primary(height)
    fnt = font(p.size)
    top = _title_with_rule(draw, screen.title, "", width, m) if screen.title else 0
    bottom = height - m.pitch if screen.footer else height
    fit = max(0, (bottom - top) // p.pitch)
    lines = [part for line in screen.lines for part in wrap(line, fnt, width - 2 * PAD)]
    if fit > 0 and len(lines) > fit:  # a screenful at a time
        screenfuls = -(-len(lines) // fit)
        if _pages is not None:
            _pages.append(screenfuls)
        first = (_page % screenfuls) * fit
        lines = lines[first : first + fit]
    elif fit == 0 and lines and _lost is not None:
        _lost.append(" ".join(screen.lines))
    for i, line in enumerate(lines[:fit]):
        _text_row(draw, line, fnt, PAD, top + i * p.pitch, p, 1)
    _footer(draw, screen.footer, size, m, 1)
