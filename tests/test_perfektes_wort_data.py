"""The shipped data files, the loader's errors, and the printable sheets generated from the data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.games.perfektes_wort.data_files import (
    DEFAULT_DIR,
    DataFileError,
    load_deck,
    load_faces,
    load_game_data,
    load_sheet,
)
from firmware_host.games.perfektes_wort.sheet import sheet_svg

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_data_follows_rulings_r1_r2() -> None:
    data = load_game_data()
    assert set(data.sheets) == {"grundversion", "profi"}
    for sheet in data.sheets.values():
        assert len(sheet.rows) == 9 and all(len(row) >= 9 for row in sheet.rows)
        assert len(sheet.bonus_fields) == 12
    assert data.sheets["grundversion"].arrows == ()
    assert len(data.sheets["profi"].arrows) >= 1
    assert len(data.deck) == 24
    assert all(card.letter not in "AEIOUÄÖÜ" for card in data.deck)
    assert {card.length for card in data.deck} == {5, 6, 7, 8, 9}
    assert len(data.faces) == 20
    assert all(2 <= value <= 5 for face in data.faces for value in face.values.values())
    for name in ("grundversion.toml", "profi.toml", "deck.toml", "points_cards.toml"):
        assert "OWN" in (DEFAULT_DIR / name).read_text(encoding="utf-8")  # says it is the appliance's design


def test_user_replaces_the_data_directory(tmp_path: Path) -> None:
    shutil.copytree(DEFAULT_DIR, tmp_path, dirs_exist_ok=True)
    deck = tmp_path / "deck.toml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('"B5"', '"Q9"'), encoding="utf-8")
    assert load_game_data(tmp_path).deck[0].code == "Q9"


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ('side = "x"\nrows = []\nbonus = []', "rows", "9 row patterns"),
        ('side = "x"\nrows = ["........"]\nbonus = []', "rows", "9 row patterns"),
        (
            'side = "x"\nrows = ' + str([".A......."] * 8 + ["......."]) + "\nbonus = []",
            "rows[9]",
            "at least 9",
        ),
        ('side = "x"\nrows = ' + str(["A........"] * 9) + "\nbonus = []", "rows[1]", "starting-letter"),
        ('side = "x"\nrows = ' + str([".1......."] * 9) + "\nbonus = []", "rows[1]", "'1'"),
        ('side = "x"\nrows = ' + str(["........."] * 9) + '\nbonus = ["CH"]', "bonus", "12 bonus fields"),
        (
            'side = "x"\nrows = ' + str(["........."] * 9) + "\nbonus = " + str(["CH"] * 12),
            "bonus[2]",
            "twice",
        ),
        (
            'side = "x"\nrows = '
            + str([".A......."] * 9)
            + "\nbonus = "
            + str([f"{c}" for c in "BCDFGHJKLMNP"])
            + "\narrows = [{from = [1, 2], to = [2, 3]}]",
            "arrows[1].from",
            "grey letter",
        ),
        (
            'side = "x"\nrows = '
            + str(["........."] * 9)
            + "\nbonus = "
            + str([f"{c}" for c in "BCDFGHJKLMNP"])
            + "\narrows = [{from = [1, 2], to = [10, 3]}]",
            "arrows[1].to",
            "not on the sheet",
        ),
        (
            'side = "x"\nrows = '
            + str(["........."] * 9)
            + "\nbonus = "
            + str([f"{c}" for c in "BCDFGHJKLMNP"])
            + "\narrows = [{from = [1, 2], to = [1, 3]}, {from = [1, 3], to = [2, 3]}]",
            "arrows[2].from",
            "another",
        ),
    ],
)
def test_sheet_errors_name_file_and_key(tmp_path: Path, text: str, key: str, message: str) -> None:
    path = tmp_path / "side.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_sheet(path)
    assert err.value.path == path and err.value.key == key and message in err.value.message
    assert str(err.value).startswith(f"{path}: {key}: ")


def test_deck_and_faces_errors(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('cards = ["B5", "D6", "F7", "G8", "H9", "K5", "L6", "M7", "N8", "P"]', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"cards\[10\]: 'P' is not a card"):
        load_deck(path)
    path.write_text('cards = ["B5", "D6", "F7", "G8", "H9", "K5", "L6", "M7", "N8", "P9"]', encoding="utf-8")
    with pytest.raises(DataFileError, match="10 cards; it must have 24"):
        load_deck(path)
    path.write_text("cards = [", encoding="utf-8")
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_deck(path)
    with pytest.raises(DataFileError, match="file not found"):
        load_deck(tmp_path / "missing.toml")
    faces = tmp_path / "faces.toml"
    faces.write_text('[[faces]]\nface = "1a"\nA = 2\nE = 6\nI = 3\nO = 3\nU = 4\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"faces\[1\]\.E: must be a whole number from 2 to 5"):
        load_faces(faces)
    faces.write_text('[[faces]]\nface = "1a"\nA = 2\nE = 5\nI = 3\nO = 3\nU = 4\n"Ä" = 2\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="not a vowel"):
        load_faces(faces)


@pytest.mark.parametrize("side", ["grundversion", "profi"])
def test_committed_sheets_are_what_the_data_draws(side: str) -> None:
    committed = (ROOT / "docs" / "sheets" / f"perfektes-wort-{side}.svg").read_text(encoding="utf-8")
    assert sheet_svg(load_sheet(DEFAULT_DIR / f"{side}.toml")) == committed


def test_sheet_svg_shows_grey_letters_arrows_and_fields() -> None:
    svg = sheet_svg(load_sheet(DEFAULT_DIR / "profi.toml"))
    assert svg.count('marker-end="url(#head)"') == 9
    assert ">QU</text>" in svg and ">ß</text>" in svg and "Eigenes Design" in svg
    assert "#1b8a3a" in svg  # the Profi side's green border


def test_sheet_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.svg"
    assert main(["sheet", "grundversion", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<svg")
    bad = tmp_path / "bad.toml"
    bad.write_text('side = "x"', encoding="utf-8")
    assert main(["sheet", str(bad)]) == 2
    assert f"{bad}: rows:" in capsys.readouterr().err


@pytest.mark.parametrize(("raw", "message"), [
    ('side = "Grundversion"'.encode("latin-1") + b"\xe4", "not UTF-8 text"),  # latin-1
    ('side = "grundversion"'.encode("utf-16"), "not UTF-8 text"),  # with its byte-order mark
    (b"rows = " + b"[" * 5000, "not valid TOML (its arrays or tables are nested too deeply)"),
], ids=["latin-1", "utf-16", "nested"])
def test_a_sheet_file_that_is_not_utf8_toml_is_one_line_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   raw: bytes, message: str) -> None:
    bad = tmp_path / "side.toml"
    bad.write_bytes(raw)
    assert main(["sheet", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"wordtable sheet: {bad}: {message}\n"
