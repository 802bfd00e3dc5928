"""Loading Das perfekte Wort's data files (TOML): sheet sides, letter deck, points-card faces.

The I/O half of rulings R1/R2: files are read here and validated by the pure core
(`firmware_host.core.games.perfektes_wort.data`), which gets only the finished values. Users may
replace any file; `load_game_data(directory)` reads a whole directory laid out like the default one.
Errors are `DataFileError`, naming the file and the key.
"""

from __future__ import annotations

import pprint
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from firmware_host.core.games.perfektes_wort.data import (
    ROUNDS,
    GameData,
    LetterCard,
    PointsFace,
    Sheet,
    deck_from_codes,
    faces_from_list,
    sheet_from_mapping,
)
from firmware_host.core.games.perfektes_wort.errors import DataError

PACKAGE_DIR = Path(__file__).parents[2]  # firmware_host/
DEFAULT_DIR = PACKAGE_DIR / "data" / "perfektes_wort"
SIDES = ("grundversion", "profi")
DECK_SIZE = 24

T = TypeVar("T")


class DataFileError(Exception):
    """A data file that cannot be used: `path`, the `key` inside it ("" for the file as a whole), why."""

    def __init__(self, path: Path, key: str, message: str) -> None:
        super().__init__(f"{path}: {key}: {message}" if key else f"{path}: {message}")
        self.path = path
        self.key = key
        self.message = message


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataFileError(path, "", "file not found") from None
    except OSError as exc:
        raise DataFileError(path, "", f"cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise DataFileError(path, "", "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(path, "", f"not valid TOML ({exc})") from None
    except RecursionError:
        raise DataFileError(path, "", "not valid TOML (its arrays or tables are nested too deeply)") from None


def _parsed(path: Path, build: Callable[[dict[str, Any]], T]) -> T:
    data = _read(path)
    try:
        return build(data)
    except DataError as exc:
        raise DataFileError(path, exc.key, exc.message.removeprefix(f"{exc.key}: ")) from None


def load_sheet(path: Path) -> Sheet:
    """One sheet side (see the comments in the default files for the format)."""
    return _parsed(path, sheet_from_mapping)


def load_deck(path: Path, size: int | None = DECK_SIZE) -> tuple[LetterCard, ...]:
    """The letter cards (`cards = ["F7", …]`); exactly `size` of them unless `size` is None."""

    def build(data: dict[str, Any]) -> tuple[LetterCard, ...]:
        deck = deck_from_codes(data.get("cards"), "cards", ROUNDS + 1)
        if size is not None and len(deck) != size:
            raise DataError("cards", "data_deck_size", count=len(deck), size=size)
        return deck

    return _parsed(path, build)


def load_faces(path: Path) -> tuple[PointsFace, ...]:
    """The points-card faces (`[[faces]]` tables with `face` and A E I O U)."""
    return _parsed(path, lambda data: faces_from_list(data.get("faces"), "faces"))


def load_game_data(directory: Path = DEFAULT_DIR) -> GameData:
    """All data from `directory`: grundversion.toml, profi.toml, deck.toml, points_cards.toml."""
    sheets = {side: load_sheet(directory / f"{side}.toml") for side in SIDES}
    for side, sheet in sheets.items():
        if sheet.side != side:
            raise DataFileError(directory / f"{side}.toml", "side", f"must be {side!r}, not {sheet.side!r}")
    return GameData(sheets, load_deck(directory / "deck.toml"), load_faces(directory / "points_cards.toml"))


DEFAULTS_MODULE = PACKAGE_DIR / "core" / "games" / "perfektes_wort" / "defaults.py"


def emit_defaults(directory: Path = DEFAULT_DIR) -> str:
    """The source of `core/games/perfektes_wort/defaults.py`: the default TOML data as Python literals, so
    the pure table flow has the shipped sheets, deck and points faces without reading files. The TOML
    files stay the one source of truth; a test checks the module equals what this function emits."""
    load_game_data(directory)  # refuse to emit data the loader would refuse
    sheets = {side: _read(directory / f"{side}.toml") for side in SIDES}
    deck = _read(directory / "deck.toml")["cards"]
    faces = _read(directory / "points_cards.toml")["faces"]
    return (
        '"""The shipped default data of Das perfekte Wort as values (GENERATED, do not edit).\n\n'
        "Made from firmware_host/data/perfektes_wort/*.toml by\n"
        "`python -m firmware_host.games.perfektes_wort.data_files --emit-defaults`; tests check it matches the files.\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Any\n\n"
        "from .data import GameData, deck_from_codes, faces_from_list, sheet_from_mapping\n\n"
        f"SHEETS: dict[str, dict[str, Any]] = {_literal(sheets)}\n"
        f"DECK: list[str] = {_literal(deck)}\n"
        f"FACES: list[dict[str, Any]] = {_literal(faces)}\n\n"
        "DEFAULT_DATA = GameData(\n"
        "    {side: sheet_from_mapping(sheet) for side, sheet in SHEETS.items()},\n"
        "    deck_from_codes(DECK),\n"
        "    faces_from_list(FACES),\n"
        ")\n"
    )


def _literal(value: object) -> str:
    return pprint.pformat(value, width=110, sort_dicts=False)


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--emit-defaults"]:
        sys.exit("usage: python -m firmware_host.games.perfektes_wort.data_files --emit-defaults")
    DEFAULTS_MODULE.write_text(emit_defaults(), encoding="utf-8")
    print(f"wrote {DEFAULTS_MODULE}")
