"""The renderer's faces and their sizes: the bundled Terminus strikes for text, DejaVu Sans Bold for the big
values, the row metrics of each panel height, and the size search that fits a big value in its box.

Terminus: OpenType bitmap strikes of the Terminus Font (SIL Open Font License 1.1,
`fonts/LICENSE-Terminus.txt`), a face made for small monochrome screens: secondary text in the 12-px face
(capitals 8 px high), primary content in the 14-px face (capitals 10 px high) on a 64-px panel; taller
panels take larger strikes. Fonts and measurements are cached; nothing here draws on a frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "terminus-normal.otb"
BOLD = FONT_DIR / "terminus-bold.otb"
BIG = FONT_DIR / "DejaVuSans-Bold.ttf"  # scalable: the big values
STRIKES = (12, 14, 16, 18, 20, 22, 24, 28, 32)  # the pixel sizes the Terminus faces hold
BIG_MIN_SIZE = 6
BIG_MAX_SIZE = 256
GUESS_SIZE = 64  # the size the fit search scales its first guess from
# The tallest ink of any line of small text: accents above capitals, descenders below the baseline.
EXTENT_PROBE = "ÄÖÜÉÅgjpqy|"
# Pillow's own layout, never libraqm: Pillow takes raqm when the system happens to have it (fribidi), and raqm
# places glyphs differently (Terminus 14 and 18 a pixel closer than their strikes' advances), so the panel's
# pixels would depend on the installed libraries (issue 42).
LAYOUT = ImageFont.Layout.BASIC

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """The bundled Terminus strike for `size` pixels: the largest it holds that is not larger (at least the
    smallest, 12 px); loaded once per strike and weight."""
    strike = max([s for s in STRIKES if s <= size] or [STRIKES[0]])
    return ImageFont.truetype(str(BOLD if bold else REGULAR), strike, layout_engine=LAYOUT)


@lru_cache(maxsize=256)
def big_font(size: int) -> Font:
    """DejaVu Sans Bold at `size` pixels: the big values, scaled to fit."""
    return ImageFont.truetype(str(BIG), size, layout_engine=LAYOUT)


@dataclass(frozen=True, slots=True)
class Metrics:
    """Text of one size on one panel height: rows are `pitch` px, the baseline `baseline` px below a row's
    top. `metrics` is the secondary text's, `primary` the primary content's."""

    size: int
    pitch: int
    baseline: int


def _measured(size: int) -> Metrics:
    top = int(min(font(size, b).getbbox(EXTENT_PROBE, anchor="ls")[1] for b in (False, True)))
    bottom = int(max(font(size, b).getbbox(EXTENT_PROBE, anchor="ls")[3] for b in (False, True)))
    return Metrics(size=size, pitch=bottom - top, baseline=-top)


@lru_cache(maxsize=16)
def metrics(height: int) -> Metrics:
    """The secondary text's rows (titles, hints, footers) on a panel `height` px high."""
    return _measured(max(12, round(height * 12 / 64)))


@lru_cache(maxsize=16)
def primary(height: int) -> Metrics:
    """The primary content's rows (list rows, message lines, the player on turn) on a panel `height` px high."""
    return _measured(max(14, round(height * 14 / 64)))


def cap_height(size: int, bold: bool = False) -> int:
    """The height in pixels of a capital H drawn in `font(size, bold)` (what a reader across the table sees)."""
    image = Image.new("1", (4 * size, 4 * size), 0)
    pen = ImageDraw.Draw(image)
    pen.fontmode = "1"
    pen.text((size, 3 * size), "H", font=font(size, bold), fill=1, anchor="ls")
    box = image.getbbox()
    return 0 if box is None else box[3] - box[1]


@lru_cache(maxsize=512)
def big_font_size(text: str, width: int, height: int) -> int:
    """The largest bold size whose advance fits `width` and whose ink fits `height` (at least the minimum).
    The sizes it tries are faces of their own, not `big_font`'s: each face maps the font file anew (~240 KB
    resident), so only the sizes drawn stay (issue 40). A first guess scaled from one size narrows the
    search to the sizes next to it (a size that does not fit has no larger one that does)."""

    def measured(size: int) -> tuple[float, int]:
        fnt = ImageFont.truetype(str(BIG), size, layout_engine=LAYOUT)
        left, top, right, bottom = fnt.getbbox(text, anchor="ls")
        return max(fnt.getlength(text), right - left), bottom - top

    def fits(size: int) -> bool:
        wide, tall = measured(size)
        return wide <= width and tall <= height

    wide, tall = measured(GUESS_SIZE)
    guess = min(width * GUESS_SIZE / wide if wide else BIG_MAX_SIZE,
                height * GUESS_SIZE / tall if tall else BIG_MAX_SIZE)
    size = max(BIG_MIN_SIZE, min(BIG_MAX_SIZE, int(guess)))
    if fits(size):
        while size < BIG_MAX_SIZE and fits(size + 1):
            size += 1
        return size
    while size > BIG_MIN_SIZE and not fits(size - 1):
        size -= 1
    return max(BIG_MIN_SIZE, size - 1)
