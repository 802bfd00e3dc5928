"""Label sheets: Code 39 geometry, captions, and the labels command."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.commands.labels import FacesError, parse_faces
from firmware_host.core.cards import printed_table
from firmware_host.labels import CODE39, COLUMNS, LABEL_H, LABEL_W, ROWS, WIDE, code39_elements, code39_svg, label_pages

SVG = "{http://www.w3.org/2000/svg}"
# Independent spellings of a few Code 39 characters (b/w narrow bar/space, B/W wide), from a published table.
REFERENCE = {"0": "bwbWBwBwb", "A": "BwbwbWbwB", "U": "BWbwbwbwB", "X": "bWbwBwbwB", "*": "bWbwBwBwb"}


def spelled(pattern: str) -> str:
    return "".join(("B" if w == "2" else "b") if i % 2 == 0 else ("W" if w == "2" else "w")
                   for i, w in enumerate(pattern))


def test_table_matches_reference_and_code39_structure() -> None:
    for char, reference in REFERENCE.items():
        assert spelled(CODE39[char]) == reference
    assert len(set(CODE39.values())) == len(CODE39) == 44
    for pattern in CODE39.values():
        assert len(pattern) == 9 and pattern.count("2") == 3


def decode(rects: list[tuple[float, float]]) -> str:
    """Read bars (x, width) back into text: the reverse of the drawing, by geometry."""
    narrow = min(width for _, width in rects)
    elements: list[str] = []
    for (x, width), following in zip(rects, [*rects[1:], None], strict=True):
        elements.append("2" if width > narrow * 1.5 else "1")
        if following is not None:
            gap = following[0] - (x + width)
            elements.append("2" if gap > narrow * 1.5 else "1")
    digits = "".join(elements)
    by_pattern = {pattern: char for char, pattern in CODE39.items()}
    chars = [by_pattern[digits[i : i + 9]] for i in range(0, len(digits), 10)]
    assert all(digits[i] == "1" for i in range(9, len(digits), 10))  # narrow inter-character gaps
    assert chars[0] == chars[-1] == "*"
    return "".join(chars[1:-1])


def bars(svg_fragment: str) -> list[tuple[float, float]]:
    root = ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{svg_fragment}</g>')
    return [(float(r.get("x", 0)), float(r.get("width", 0))) for r in root.iter(f"{SVG}rect")]


@pytest.mark.parametrize("text", ["PW001L", "QD118", "KW-7.$/+%"])
def test_drawn_barcode_reads_back(text: str) -> None:
    assert decode(bars(code39_svg(text, 0, 0, 60, 10))) == text


def test_barcode_fits_its_box_with_quiet_zones() -> None:
    drawn = bars(code39_svg("PW001L", 2, 0, 60, 10))
    assert drawn[0][0] > 2 and drawn[-1][0] + drawn[-1][1] < 62
    assert sum(code39_elements("A")) == 3 * (6 + 3 * WIDE) + 2


def test_unencodable_text_refused() -> None:
    with pytest.raises(ValueError, match="cannot encode 'Ä'"):
        code39_elements("PWÄ")


def test_pages_hold_every_code_once() -> None:
    faces = parse_faces("A x10\nQU x2\nÄ x20\n")
    pages = label_pages("quiddler", faces)
    assert len(pages) == 2  # 32 labels, 24 a page
    codes = [code for page in pages for code in re.findall(r">(QD\d{3})</text>", page)]
    assert codes == sorted(printed_table("quiddler", faces).faces)
    for page in pages:
        ET.fromstring(page.split("\n", 1)[1])  # well-formed XML
        assert not re.search(r">(A|QU|Ä)</text>", page)  # a card's back shows no letter: a hand stays hidden
    assert ">Ä</text>" in label_pages("quiddler", faces, show_face=True)[1]


def test_a_label_fits_a_63_by_88_mm_card_and_a_page_fits_a4() -> None:
    (page,) = label_pages("quiddler", ["A"])
    width, height = (float(v) for v in re.search(r'<rect x="0.5" y="0.5" width="([\d.]+)" height="([\d.]+)"',
                                                  page).groups())
    assert width + 1 <= 63 and height + 1 <= 88
    assert COLUMNS * LABEL_W <= 210 and ROWS * LABEL_H <= 297


def test_two_sided_captions() -> None:
    (page,) = label_pages("perfektes-wort", ["B/7"], lang="de")
    assert "Karte 1 · Buchstabenseite" in page and "Karte 1 · Zahlenseite" in page
    assert "card 1 · number side" in label_pages("perfektes-wort", ["B/7"], lang="en")[0]


def test_faces_file_errors_name_the_line() -> None:
    with pytest.raises(FacesError, match="line 2"):
        parse_faces("A\nB x0\n")
    with pytest.raises(FacesError, match="no faces"):
        parse_faces("# nothing\n")



@pytest.mark.parametrize(("raw", "message"), [
    (b"A x2\nB\x01 x3\n", "line 2: control character U+0001"),  # a binary file's bytes in a face
    (b"A\nB\x0bC\n", "line 2: control character U+000B LINE TABULATION"),  # no line break but "\n"
    (b"A\n" + b"Q" * 40 + b"\n", "line 2: too long for a word (at most 32 characters)"),
    ("A x2\nÄ".encode("latin-1"), "not UTF-8 text"),
    ("A x2\n".encode("utf-16"), "not UTF-8 text"),
])
def test_a_faces_file_the_table_could_not_type_is_refused_naming_its_line(tmp_path: Path, raw: bytes, message: str,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    faces = tmp_path / "bad.faces"
    faces.write_bytes(raw)
    assert main(["labels", "quiddler", "--faces", str(faces), "--show-face", "-o", str(tmp_path / "q.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"wordtable labels: {faces}: {message}") and err.count("\n") == 1, err
    assert not (tmp_path / "q.svg").exists()


def test_every_face_the_file_may_hold_makes_well_formed_svg(tmp_path: Path) -> None:
    faces = parse_faces("\ufeffQU x2\r\n<&>\"' \u00a0 x\r\nÄÖÜß\n")  # a byte-order mark, CRLF, XML's specials
    assert faces == ["QU", "QU", "<&>\"' x", "ÄÖÜß"]
    for page in label_pages("quiddler", faces, "de", show_face=True):
        ET.fromstring(page)


def test_an_unknown_game_is_a_usage_error_and_writes_nothing(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    faces = tmp_path / "q.faces"
    faces.write_text("A x3\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["labels", "quidler", "--faces", str(faces), "-o", str(tmp_path / "q.svg")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'quidler'" in err and "quiddler" in err  # the games are listed
    assert list(tmp_path.iterdir()) == [faces]


def test_labels_command_writes_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    faces = tmp_path / "q.faces"
    faces.write_text("A x25\n", encoding="utf-8")
    assert main(["labels", "quiddler", "--faces", str(faces), "-o", str(tmp_path / "q.svg")]) == 0
    assert (tmp_path / "q.svg").exists() and (tmp_path / "q-2.svg").exists()
    assert "25 cards, 2 page(s)" in capsys.readouterr().out
    assert main(["labels", "quiddler", "--faces", str(tmp_path / "missing")]) == 2


def test_example_sheet_is_current() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs" / "labels"
    faces = parse_faces((docs / "perfektes-wort-example.faces").read_text(encoding="utf-8"))
    assert label_pages("perfektes-wort", faces) == [(docs / "perfektes-wort-example.svg").read_text("utf-8")]

