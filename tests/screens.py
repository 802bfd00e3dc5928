"""Reference screens and the pixel-exact check against `tests/reference/*.png`.

To add a screen: put a model in `REFERENCE_SCREENS` (or call `assert_matches_reference` from your own
test), run the tests once with `WORDTABLE_UPDATE_REFERENCES=1` to write its PNGs, look at them, commit.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen

REFERENCE_DIR = Path(__file__).parent / "reference"
UPDATE_ENV = "WORDTABLE_UPDATE_REFERENCES"
PANEL_SIZES: tuple[tuple[int, int], ...] = ((128, 64), (256, 64))

PLAYERS = ("Jürgen", "Öznur", "Bärbel", "Weiß", "Anna-Katharina", "Ülkü", "Spieler 7", "Spieler 8")



def _scores() -> list[ListItem]:
    points = (12, -3, 45, 7, 120, 0, 9, 33)
    pairs = zip(PLAYERS, points, strict=True)
    return [ListItem(name, str(p), marked=i == 2) for i, (name, p) in enumerate(pairs)]


REFERENCE_SCREENS: dict[str, Screen] = {
    "timer_ready": BigScreen("Sanduhr", "1:00", "START: los"),
    "timer_running": BigScreen("Sanduhr", "0:42"),
    "timer_paused": BigScreen("Pause", "0:42", "START: weiter  BACK: neu"),
    "timer_custom": BigScreen("Dauer", "12:00", "NEXT: +30 s"),
    "timer_zeit": BigScreen("Sanduhr", "Zeit!", "BACK: neu", inverted=True),
    "menu": ListScreen(
        "Menü",
        (
            ListItem("Sanduhr", marked=True),
            ListItem("Punktetafel"),
            ListItem("Dauer", "60 s"),
            ListItem("Lautstärke", "normal"),
            ListItem("Sprache", "Deutsch"),
        ),
        cursor=2,
    ),
    "scoreboard": ListScreen("Punkte", tuple(_scores()), cursor=1),
    "scoreboard_page2": ListScreen("Punkte", tuple(_scores()), cursor=5),
    "scoreboard_long_name": ListScreen(
        "Punkte – Runde 3",
        (ListItem("Maximiliane Müller-Lüdenscheidt", "1234"), ListItem("Weiß", "-15")),
        cursor=0,
    ),
    "message": MessageScreen(
        "Hinweis",
        ("Drücke START, um die Sanduhr zu starten.", "Größe: Ä Ö Ü ß"),
    ),
    "message_overflow": MessageScreen(
        "Regeln",
        tuple(f"Zeile {i}: Wörter über Wörter, bis der Platz nicht mehr reicht." for i in range(1, 8)),
        footer="BACK: zurück",
    ),
}


def reference_path(name: str, size: tuple[int, int]) -> Path:
    return REFERENCE_DIR / f"{name}_{size[0]}x{size[1]}.png"


def assert_matches_reference(image: Image.Image, name: str, out_dir: Path | None = None) -> None:
    """Fail unless `image` equals the reference PNG pixel for pixel (or rewrite it when updating).

    On a mismatch the rendered image is saved to `out_dir` (if given) for a look.
    """
    path = reference_path(name, image.size)
    if os.environ.get(UPDATE_ENV) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return
    assert path.exists(), f"no reference {path.name}; run with {UPDATE_ENV}=1 to create it, then review it"
    with Image.open(path) as stored:
        expected = stored.convert("1")
    assert expected.size == image.size, f"{path.name}: size {image.size}, reference {expected.size}"
    diff = ImageChops.logical_xor(expected, image.convert("1"))
    differing = diff.width * diff.height - diff.histogram()[0]
    if differing and out_dir is not None:
        image.save(out_dir / path.name)
    assert differing == 0, f"{path.name}: {differing} pixels differ from the reference"
