"""A line of text on the frame being drawn: rasterised once and pasted, shown a page at a time when it does
not fit, clipped with "…" — and what drawing a frame notes for `render.pages` and `render.lost`.

`NOTES` holds the part of each paged text the frame shows (`page`) and, while the renderer asks, how many
parts each paged text has and which texts were cut. One frame is drawn at a time (`render`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from firmware_host.core.screens import KEEP
from firmware_host.render_fonts import Font, Metrics, font
from firmware_host.render_text import ELLIPSIS, clip, paged

MAX_PAGES = 3  # no screen turns more pages: what would need more is cut (and noted as lost)
PAD = 2  # inner horizontal padding
GAP = 4  # least space between a label and its value


@dataclass(frozen=True, slots=True)
class Laid:
    """A text of the frame laid out in lines (`render_text.paged`): in `fnt`, each line at most `width` px."""

    text: str
    fnt: Font
    width: float
    lines: tuple[str, ...]


@dataclass(slots=True)
class Notes:
    """What the frame being drawn is drawn by and notes: `page`, the part of a paged text to draw (set by
    `render`); `pages` (while `render` counts them) how many parts each paged text has; `lost` (while
    `render.lost` renders) every text cut or left out; `laid` (while `render.laid_out` renders) every text
    laid out in more than one line."""

    page: int = 0
    pages: list[int] | None = None
    lost: list[str] | None = None
    laid: list[Laid] | None = None


NOTES = Notes()


def note_parts(count: int) -> None:
    """A text of the frame is shown in `count` parts, one per page."""
    if NOTES.pages is not None:
        NOTES.pages.append(count)


def note_lost(text: str) -> None:
    """`text` does not show whole on the frame."""
    if NOTES.lost is not None:
        NOTES.lost.append(text)


def laid_out(text: str, fnt: Font, width: float) -> tuple[str, ...]:
    """`paged(text, fnt, width)`, noted for `laid` when it takes more than one line."""
    lines = paged(text, fnt, width)
    if NOTES.laid is not None and len(lines) > 1:
        NOTES.laid.append(Laid(text, fnt, width, lines))
    return lines


def shown(text: str, fnt: Font, width: float) -> str:
    """`text` if it fits in `width` px; else its line for the current frame (`paged`, a line a page; past
    `MAX_PAGES` lines the last shown ends in "…")."""
    if fnt.getlength(text) <= width:
        return text
    parts = laid_out(text, fnt, width)
    if len(parts) > MAX_PAGES:
        note_lost(text)
        parts = (*parts[: MAX_PAGES - 1], clip(parts[MAX_PAGES - 1] + ELLIPSIS, fnt, width))
    note_parts(len(parts))
    return _fit(parts[NOTES.page % len(parts)], fnt, width)


def page_of(count: int) -> int:
    """Which of `count` screenfuls (at most `MAX_PAGES` are shown) the current frame shows."""
    shown_count = min(count, MAX_PAGES)
    note_parts(shown_count)
    return NOTES.page % shown_count


def _fit(text: str, fnt: Font, width: float) -> str:
    """`clip`, noting a cut text for `lost`."""
    cut = clip(text, fnt, width)
    if cut != text:
        note_lost(text)
    return cut


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


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt: Font, ink: int,
              anchor: str) -> None:
    """`draw.text` for one line of text, with the rasterised line cached: a screen that is drawn again
    (a timer tick, a toggled status) costs a paste instead of a FreeType run. Same pixels."""
    x, y = xy
    text = text.replace(KEEP, " ")
    if x != int(x) or y != int(y):  # sub-pixel positions rasterise differently: no cache
        draw.text(xy, text, font=fnt, fill=ink, anchor=anchor)
        return
    image, left, top = _text_image(text, fnt, anchor)
    draw.bitmap((int(x) + left, int(y) + top), image, fill=ink)


def text_row(
    draw: ImageDraw.ImageDraw, text: str, fnt: Font, x: float, top: int, m: Metrics, ink: int,
    anchor: str = "ls",
) -> None:
    """`text` on the row whose top is `top` px (nothing when empty)."""
    if text:
        draw_text(draw, (x, top + m.baseline), text, fnt, ink, anchor)


def draw_footer(draw: ImageDraw.ImageDraw, text: str, size: tuple[int, int], m: Metrics, ink: int) -> None:
    """The footer: one row at the bottom, from the left edge (nothing when empty)."""
    width, height = size
    small = font(m.size)
    text_row(draw, shown(text, small, width - 2 * PAD), small, PAD, height - m.pitch, m, ink, "ls")
