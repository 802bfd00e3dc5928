"""The OLED test patterns: pure functions of the panel size returning 1-bit PIL images (lit pixel = 1).

- `border`: the outermost rows and columns lit. A panel driven with the wrong column offset (an SH1106,
  132 columns of RAM, driven as an SSD1306) loses an edge and shows a stripe of noise on the other side.
- `checkerboard`: squares of `cell` pixels; stuck or swapped lines and a wrong COM order break it up.
- `page`: one display page (8 rows, the unit the controllers write) lit; `lit`: every pixel.
- `captioned`: a dark box in the middle with lines of text, so a pattern can carry its question.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from firmware_host.render_fonts import font

PAGE_ROWS = 8


def border(size: tuple[int, int]) -> Image.Image:
    image = Image.new("1", size, 0)
    ImageDraw.Draw(image).rectangle((0, 0, size[0] - 1, size[1] - 1), outline=1)
    return image


def checkerboard(size: tuple[int, int], cell: int = 4) -> Image.Image:
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    for top in range(0, size[1], cell):
        for left in range(0, size[0], cell):
            if (left // cell + top // cell) % 2 == 0:
                draw.rectangle((left, top, left + cell - 1, top + cell - 1), fill=1)
    return image


def pages(size: tuple[int, int]) -> int:
    """How many 8-row pages the panel has."""
    return (size[1] + PAGE_ROWS - 1) // PAGE_ROWS


def page(size: tuple[int, int], index: int) -> Image.Image:
    image = Image.new("1", size, 0)
    top = index * PAGE_ROWS
    ImageDraw.Draw(image).rectangle((0, top, size[0] - 1, min(size[1], top + PAGE_ROWS) - 1), fill=1)
    return image


def lit(size: tuple[int, int]) -> Image.Image:
    return Image.new("1", size, 1)


def caption_box(size: tuple[int, int], lines: Sequence[str], text_size: int = 10) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) `captioned` clears for `lines`: centred, 4 px inside the edges."""
    face = font(text_size)
    height = len(lines) * (text_size + 2) + 4
    width = min(size[0] - 8, max(int(face.getlength(line)) for line in lines) + 8) if lines else 0
    left, top = (size[0] - width) // 2, (size[1] - height) // 2
    return left, top, left + width - 1, top + height - 1


def captioned(image: Image.Image, lines: Sequence[str], text_size: int = 10) -> Image.Image:
    """`image` with `lines` of small text in a dark, outlined box in its middle."""
    out = image.copy()
    if not lines:
        return out
    draw = ImageDraw.Draw(out)
    draw.fontmode = "1"
    left, top, right, bottom = caption_box(out.size, lines, text_size)
    draw.rectangle((left, top, right, bottom), fill=0, outline=1)
    face = font(text_size)
    for i, line in enumerate(lines):
        draw.text(((left + right) // 2, top + 3 + i * (text_size + 2)), line, font=face, fill=1, anchor="mt")
    return out
