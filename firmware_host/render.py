"""Draw screen models onto 1-bit images: `render(screen, size) -> PIL.Image.Image` (mode "1").

A pure function of the model and the panel size: no device, no clock, no state beyond cached fonts.
Lit OLED pixels are 1. Text is the bundled Terminus (Ä Ö Ü ß and the typographic marks “ „ … → − ·) in
two sizes: secondary text (titles, hints, footers) and primary content (list rows, message lines, the
player on turn); big values (the timer, the current word) are DejaVu Sans Bold, scaled to fit
(`render_fonts`). Everything is drawn without anti-aliasing (font mode "1"), so the image is exactly what
the panel shows.

Layouts (sizes below are for 64-pixel-high panels; taller panels take larger strikes):
- BigScreen: small title on top, the big value in bold as large as fits between title and footer (and
  `line` in the primary face under it), small footer at the bottom; `inverted` swaps background and text.
  Title and footer start at the left edge, so a changed word ("läuft" → "Pause") leaves the rest of its line
  in place and only that word goes over the display bus.
- ListScreen: bold title with a page indicator ("1/2") and a rule, then rows of label (left, clipped
  with "…") and value (right-aligned); the cursor row is inverted, marked rows get a ▸ in the gutter.
  A panel 256 px wide or more shows two or more columns; pages are chosen so the cursor is visible, and a
  list without a cursor shows its pages in turn (`page`, like a long text), its rows in the small face when
  the primary one would need more than three pages.
- MessageScreen: bold title and a rule, the lines wrapped to the width and shown a screenful at a time,
  footer at the bottom.
- QrScreen: the QR code (segno, error level L) on the left as large as the height allows, dark modules on a
  lit square with a one-module quiet zone (phones read dark on light); to its right, each clipped to that
  column: the bold title on top, the big value in bold as large as fits, the lines, and the footer at the
  bottom (wrapped to two rows when the panel has room).
- TurnScreen: the title (the player on turn) in the primary face (regular: bold letters of that size run
  together) and the status right-aligned beside it, the time in bold as large as fits below, `then` (the next
  player) in the primary face under it, the footer at the bottom.

Text is laid out one way (`render_text.paged`): by phrase, broken only at ordinary spaces, never inside a
word but one wider than the line (then visibly, with a hyphen); a body is shown a screenful, a line of a title,
footer or label a line, at a time — at most `render_lines.MAX_PAGES` (3) pages; what would need more is cut
with "…" (and reported by `lost`).

Any string is drawn, none raises (`render_text.drawable`). The modules: `render_fonts` (faces, sizes),
`render_text` (clipping, wrapping, paging text), `render_lines` (a line on the frame; what a frame notes),
`render_screens` (one drawing function per screen model).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from firmware_host.core.screens import Screen
from firmware_host.render_fonts import FONT_DIR, Font, big_font_size, cap_height, font, metrics, primary
from firmware_host.render_lines import NOTES, Laid
from firmware_host.render_screens import DRAWERS, Drawer, ListLayout, draw_message, list_layout, qr_box, qr_matrix
from firmware_host.render_text import clip, drawable, drawable_screen, paged, wrap

__all__ = [
    "FONT_DIR", "Font", "Laid", "ListLayout", "big_font_size", "cap_height", "clip", "drawable",
    "drawable_screen", "font", "laid_out", "list_layout", "lost", "paged", "pages", "qr_box", "qr_matrix",
    "render", "wrap",
]

# The row metrics under the names the tests read them by (`render_fonts.metrics`, `render_fonts.primary`).
_metrics, _primary = metrics, primary


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


def laid_out(screen: Screen, size: tuple[int, int]) -> list[Laid]:
    """Every text of `screen` laid out in more than one line on a panel of `size` (wrapped to rows, or
    shown a line a page), with its lines. Renders to find out."""
    return _noted(screen, size, "laid")


def lost(screen: Screen, size: tuple[int, int]) -> list[str]:
    """The texts of `screen` that do not show whole on a panel of `size`, on any of its pages: each one cut
    with "…" (a list's items on other pages are not lost: the cursor, or else the time, pages to them).
    Renders to find out."""
    return _noted(screen, size, "lost")


def _noted(screen: Screen, size: tuple[int, int], notes: str) -> Any:
    """What the renderer notes in `NOTES.<notes>` while it draws every page of `screen`."""
    setattr(NOTES, notes, [])
    try:
        for page in range(pages(screen, size)):
            _draw(screen, size, page)
        return getattr(NOTES, notes)
    finally:
        setattr(NOTES, notes, None)


@lru_cache(maxsize=4)
def _drawn(screen: Screen, size: tuple[int, int], page: int) -> tuple[Image.Image, int]:
    """The frame of `screen` at `page`, and how many parts its longest paged text has."""
    NOTES.pages = []
    try:
        return _draw(screen, size, page), max(NOTES.pages, default=1)
    finally:
        NOTES.pages = None


def _draw(screen: Screen, size: tuple[int, int], page: int) -> Image.Image:
    NOTES.page = page
    width, height = size
    if width <= 0 or height <= 0:
        raise ValueError(f"panel size must be positive, got {width}×{height}")
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    screen = drawable_screen(screen)
    drawer: Drawer = next((drawer for kind, drawer in DRAWERS if isinstance(screen, kind)), draw_message)
    drawer(draw, screen, size)
    return image
