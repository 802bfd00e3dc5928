"""The join QR as an SVG for a seated phone to show a newcomer: the modules the OLED's phone page screen
draws (`render_screens.qr_matrix`: segno, error level L) with the standard quiet zone of 4 modules a
phone's camera needs, and the table code and host below it as text to type instead."""

from __future__ import annotations

from functools import lru_cache
from html import escape

from firmware_host.render_screens import qr_matrix

QUIET = 4  # modules of white around the code
TEXT_ROWS = 9  # modules of room below the code for the two lines of text


@lru_cache(maxsize=4)
def join_qr_svg(data: str, code: str, host: str) -> str:
    """An SVG of the QR code of `data` with `code` (large) and `host` (small) below it."""
    matrix = qr_matrix(data)
    side = len(matrix) + 2 * QUIET
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            runs.append(f"M{start + QUIET},{r + QUIET}h{c - start}v1h-{c - start}z")
    height = side + TEXT_ROWS
    middle = side / 2
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {height}" shape-rendering="crispEdges">'
        f'<rect width="{side}" height="{height}" fill="#fff"/>'
        f'<path d="{"".join(runs)}" fill="#000"/>'
        f'<text x="{middle}" y="{side + 3.5}" text-anchor="middle" font-family="monospace" font-size="5" '
        f'font-weight="bold" letter-spacing="1">{escape(code)}</text>'
        f'<text x="{middle}" y="{side + 7}" text-anchor="middle" font-family="sans-serif" '
        f'font-size="2.5">{escape(host)}</text>'
        "</svg>"
    )
