"""A printable score sheet for Das perfekte Wort, drawn from a sheet definition (ruling R1).

`sheet_svg(sheet)` is pure: the same sheet always gives the same SVG text (A4 portrait, millimetres).
The committed docs/sheets/*.svg are generated from the shipped data by `wordtable sheet`, and a test keeps
them in step. Print at 100 % so that the cells are big enough to write in.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from firmware_host.core.games.perfektes_wort.data import EMPTY_CELL, Sheet
from firmware_host.core.games.perfektes_wort.words import VOWELS

BORDER = {"grundversion": "#000000", "profi": "#1b8a3a"}
GREEN = "#bfe3c4"
GREY = "#9a9a9a"
GREY_BOX = "#d9d9d9"
BLUE = "#bcd7f2"
YELLOW = "#fff1a8"
LIGHT_YELLOW = "#fffbe0"
FONT = "DejaVu Sans, Verdana, sans-serif"


def _rect(
    x: float, y: float, w: float, h: float, fill: str = "#ffffff", stroke: str = "#000000", width: float = 0.3
) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
    )


def _text(
    x: float,
    y: float,
    text: str,
    size: float = 4.0,
    fill: str = "#000000",
    anchor: str = "middle",
    weight: str = "normal",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
        f'font-weight="{weight}">{escape(text)}</text>'
    )


def sheet_svg(sheet: Sheet) -> str:
    """The sheet side as an A4 SVG document."""
    border = BORDER.get(sheet.side, "#000000")
    cells = max(len(row) for row in sheet.rows)
    size = min(14.0, 140.0 / cells)
    left, top, row_h = 22.0, 34.0, 15.0
    box_x = left + cells * size + 4
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" viewBox="0 0 210 297" '
        f'font-family="{FONT}">',
        '<defs><marker id="head" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="4" markerHeight="4" '
        f'orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="{GREY}"/></marker></defs>',
        _rect(0, 0, 210, 297, "#ffffff", "none", 0),
        _rect(6, 6, 198, 285, "none", border, 2.5),
        _text(105, 20, f"Das perfekte Wort — {sheet.title}", 7, weight="bold"),
        _text(105, 27, "Name: ______________________", 4),
    ]

    def centre(row: int, cell: int) -> tuple[float, float]:
        return left + (cell - 0.5) * size, top + (row - 1) * row_h + size / 2

    for r, pattern in enumerate(sheet.rows, start=1):
        y = top + (r - 1) * row_h
        out.append(_text(left - 6, y + size / 2 + 1.5, str(r), 4.5, weight="bold"))
        for c, letter in enumerate(pattern, start=1):
            out.append(_rect(left + (c - 1) * size, y, size, size, GREEN if c == 1 else "#ffffff"))
            if letter != EMPTY_CELL:
                out.append(_text(left + (c - 0.5) * size, y + size * 0.72, letter, size * 0.6, GREY))
        out.append(_rect(box_x, y, 16, size, GREY_BOX))
    for arrow in sheet.arrows:
        (x1, y1), (x2, y2) = (
            centre(arrow.source.row, arrow.source.cell),
            centre(arrow.target.row, arrow.target.cell),
        )
        out.append(
            f'<path d="M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}" stroke="{GREY}" stroke-width="0.6" '
            'stroke-dasharray="1.2,0.8" fill="none" marker-end="url(#head)"/>'
        )
        out.append(f'<circle cx="{x1:.1f}" cy="{y1:.1f}" r="1.2" fill="{GREY}"/>')
    y = top + 9 * row_h + 6
    out.append(_rect(box_x, y - 2, 16, 9, GREY_BOX, width=0.6))
    out.append(_text(box_x - 2, y + 4, "Wortpunkte", 3.5, anchor="end"))
    y += 12
    out.append(_text(left - 6, y + 4, "Bonusfelder (je 5 Punkte)", 3.5, anchor="start"))
    for i, field in enumerate(sheet.bonus_fields):
        x = left - 6 + (i % 6) * 22
        by = y + 7 + (i // 6) * 12
        out.append(_rect(x, by, 18, 9, BLUE))
        out.append(_text(x + 9, by + 6.3, field, 5, weight="bold"))
    out.append(_rect(left - 6 + 6 * 22, y + 13, 18, 9, BLUE, width=0.6))
    out.append(_text(left - 6 + 6 * 22 + 9, y + 11.5, "Σ", 3.5))
    y += 36
    out.append(_text(left - 6, y - 3, "Vokale (Ä Ö Ü zählen nicht)", 3.5, anchor="start"))
    labels = (("Wert", LIGHT_YELLOW), ("Anzahl", "#ffffff"), ("Punkte", YELLOW))
    for j, (label, _) in enumerate(labels):
        out.append(_text(left + 10, y + 8.5 + j * 10, label, 3.2, anchor="end"))
    for i, vowel in enumerate(VOWELS):
        x = left + 13 + i * 18
        out.append(_text(x + 7, y + 3.5, vowel, 4.5, weight="bold"))
        for j, (_, fill) in enumerate(labels):
            out.append(_rect(x, y + 4 + j * 10, 14, 8, fill))
    out.append(_rect(left + 13 + 5 * 18, y + 24, 14, 8, YELLOW, width=0.6))
    out.append(_text(left + 13 + 5 * 18 + 7, y + 22.5, "Σ", 3.5))
    y += 42
    out.append(_text(150, y - 2, "Total", 4.5, weight="bold"))
    out.append(_rect(140, y, 20, 11, "#ffffff", width=0.8))
    out.append(
        _text(
            105,
            285,
            "Eigenes Design des wordtable-Geräts, passend zu seiner Wertung — "
            "nicht der Originalblock des Verlags.",
            2.8,
            GREY,
        )
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
