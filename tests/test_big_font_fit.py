"""The big value's size search (`render_fonts.big_font_size`): the largest size that fits, and the sizes it
tries leave no face behind (each face maps the font file anew: issue 40)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.render_fonts import BIG_MAX_SIZE, BIG_MIN_SIZE, big_font, big_font_size

TEXTS = ("0:00", "1:23", "59:59", "120", "-7", "ÄÖÜß", "Quiddler", "Spieler 1", "+15", "x", "Jürgen")


def _fits(text: str, size: int, width: int, height: int) -> bool:
    fnt = big_font(size)
    left, top, right, bottom = fnt.getbbox(text, anchor="ls")
    return max(fnt.getlength(text), right - left) <= width and bottom - top <= height


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize(("width", "height"), [(20, 8), (64, 30), (128, 40), (128, 64), (256, 64), (300, 100)])
def test_the_size_found_fits_and_the_next_does_not(text: str, width: int, height: int) -> None:
    size = big_font_size(text, width, height)
    assert BIG_MIN_SIZE <= size <= BIG_MAX_SIZE
    if size > BIG_MIN_SIZE:
        assert _fits(text, size, width, height)
    if size < BIG_MAX_SIZE:
        assert not _fits(text, size + 1, width, height)


def test_only_the_sizes_drawn_keep_the_font_file_mapped() -> None:
    code = (
        "from firmware_host.render_fonts import BIG, big_font, big_font_size\n"
        f"sizes = {{big_font_size(text, 128, 40) for text in {TEXTS!r}}}\n"
        "for size in sizes:\n    big_font(size)\n"
        "with open('/proc/self/maps') as maps:\n"
        "    print(len(sizes), sum(str(BIG) in line for line in maps))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parent.parent, check=True)
    drawn, mapped = map(int, done.stdout.split())
    assert mapped == drawn
