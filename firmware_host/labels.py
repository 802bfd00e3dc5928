"""Printable label sheets (SVG) with a Code 39 barcode per card face, for the scanner variant.

`label_pages(game, faces)` returns SVG documents, one per A4 page of 3 × 8 labels of 60 × 35 mm: each fits
the back of a 63 × 88 mm playing card with room to spare (print on a full-page sticker sheet and cut along
the grey frames, or use 24-up sheets whose labels are at most 63 mm wide). A label shows the card's
number, the side it belongs on (for two-sided Das perfekte Wort cards) and the barcode with its code in
plain text — **never the card's letter**: a label goes on a card's back, and a Quiddler hand must stay
hidden (the codes carry no letter either). `show_face=True` adds the face, for labels that go elsewhere
(a box, a sorting tray). The codes are those of
`core.cards.printed_codes`, so `printed_table` knows them without enrolment.

Code 39: each character is 5 bars and 4 spaces, 3 of the 9 wide, with a narrow gap between characters
and `*` as start and stop. Pure functions, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from firmware_host.core.cards import PrintedCode, printed_codes
from firmware_host.core.i18n import pick

# Element widths (1 narrow, 2 wide), bar first, per character (ISO/IEC 16388).
CODE39 = {
    "0": "111221211", "1": "211211112", "2": "112211112", "3": "212211111", "4": "111221112",
    "5": "211221111", "6": "112221111", "7": "111211212", "8": "211211211", "9": "112211211",
    "A": "211112112", "B": "112112112", "C": "212112111", "D": "111122112", "E": "211122111",
    "F": "112122111", "G": "111112212", "H": "211112211", "I": "112112211", "J": "111122211",
    "K": "211111122", "L": "112111122", "M": "212111121", "N": "111121122", "O": "211121121",
    "P": "112121121", "Q": "111111222", "R": "211111221", "S": "112111221", "T": "111121221",
    "U": "221111112", "V": "122111112", "W": "222111111", "X": "121121112", "Y": "221121111",
    "Z": "122121111", "-": "121111212", ".": "221111211", " ": "122111211", "$": "121212111",
    "/": "121211121", "+": "121112121", "%": "111212121", "*": "121121211",
}
WIDE = 2.5  # wide element in narrow widths (Code 39 allows 2–3)
QUIET = 10  # quiet zone each side, in narrow widths

PAGE_W, PAGE_H = 210.0, 297.0  # mm
COLUMNS, ROWS = 3, 8
LABEL_W, LABEL_H = 60.0, 35.0  # fits a 63 × 88 mm card
FONT = "DejaVu Sans, Verdana, sans-serif"

_TEXT = {
    "de": {"side-L": "Buchstabenseite", "side-N": "Zahlenseite", "card": "Karte {number}"},
    "en": {"side-L": "letter side", "side-N": "number side", "card": "card {number}"},
}


def code39_elements(text: str) -> list[float]:
    """Widths (in narrow units) of alternating bars and spaces, bar first, for `*text*` incl. gaps."""
    unknown = sorted({char for char in text if char not in CODE39 or char == "*"})
    if unknown:
        raise ValueError(f"Code 39 cannot encode {''.join(unknown)!r} in {text!r}")
    widths: list[float] = []
    for index, char in enumerate(f"*{text}*"):
        if index:
            widths.append(1.0)  # the inter-character gap (a space)
        widths += [WIDE if digit == "2" else 1.0 for digit in CODE39[char]]
    return widths


def code39_svg(text: str, x: float, y: float, width: float, height: float) -> str:
    """SVG rects drawing `text` as Code 39 (quiet zones included) in the box (x, y, width, height)."""
    widths = code39_elements(text)
    unit = width / (sum(widths) + 2 * QUIET)
    at = x + QUIET * unit
    rects: list[str] = []
    for index, element in enumerate(widths):
        if index % 2 == 0:
            width_mm = element * unit
            rects.append(f'<rect x="{at:.3f}" y="{y:.3f}" width="{width_mm:.3f}" height="{height:.3f}"/>')
        at += element * unit
    return "".join(rects)


def _label(label: PrintedCode, x: float, y: float, lang: str, show_face: bool) -> str:
    side = pick(_TEXT, lang, f"side-{label.side}") if label.side else ""
    caption = " · ".join(part for part in (pick(_TEXT, lang, "card", number=label.number), side) if part)
    face = f'<text x="5" y="10" font-size="8" font-weight="bold">{escape(label.face)}</text>' if show_face else ""
    return (
        f'<g transform="translate({x:.1f},{y:.1f})">'
        f'<rect x="0.5" y="0.5" width="{LABEL_W - 1}" height="{LABEL_H - 1}" rx="2" '
        f'fill="none" stroke="#bbb" stroke-width="0.2"/>{face}'
        f'<text x="{LABEL_W - 5}" y="9" font-size="3" text-anchor="end">{escape(caption)}</text>'
        f'<g fill="#000">{code39_svg(label.code, 2, 13, LABEL_W - 4, 15)}</g>'
        f'<text x="{LABEL_W / 2}" y="33" font-size="4" text-anchor="middle" '
        f'font-family="DejaVu Sans Mono, monospace">{escape(label.code)}</text>'
        "</g>"
    )


def label_pages(game: str, faces: Iterable[str], lang: str = "de", show_face: bool = False) -> list[str]:
    """One SVG document per A4 page holding the labels of `faces` (with repeats) for `game`; the faces are
    printed only with `show_face`."""
    labels = printed_codes(game, faces)
    per_page = COLUMNS * ROWS
    pages: list[str] = []
    for start in range(0, len(labels), per_page):
        cells = []
        for slot, label in enumerate(labels[start : start + per_page]):
            row, column = divmod(slot, COLUMNS)
            x = column * LABEL_W + (PAGE_W - COLUMNS * LABEL_W) / 2
            cells.append(_label(label, x, row * LABEL_H + (PAGE_H - ROWS * LABEL_H) / 2, lang, show_face))
        pages.append(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}mm" height="{PAGE_H}mm" '
            f'viewBox="0 0 {PAGE_W} {PAGE_H}" font-family="{FONT}">\n'
            f"<title>wordtable labels: {escape(game)}</title>\n" + "\n".join(cells) + "\n</svg>\n"
        )
    return pages
