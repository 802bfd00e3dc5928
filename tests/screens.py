"""Reference screens and the pixel-exact check against `tests/reference/*.png`.

To add a screen: put a model in `REFERENCE_SCREENS` (or a `# snapshot: NAME` comment in a game script,
tests/game_scripts.py), run `python -m tests.update_references` to write its PNGs, look at them, commit.
The tests only ever compare: a missing or different PNG fails.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen

REFERENCE_DIR = Path(__file__).parent / "reference"
UPDATE_COMMAND = "python -m tests.update_references"
PANEL_SIZES: tuple[tuple[int, int], ...] = ((128, 64), (256, 64))

PLAYERS = ("Jürgen", "Öznur", "Bärbel", "Weiß", "Anna-Katharina", "Ülkü", "Spieler 7", "Spieler 8")



def _scores() -> list[ListItem]:
    points = (12, -3, 45, 7, 120, 0, 9, 33)
    pairs = zip(PLAYERS, points, strict=True)
    return [ListItem(name, str(p), marked=i == 2) for i, (name, p) in enumerate(pairs)]


REFERENCE_SCREENS: dict[str, Screen] = {
    "timer_ready": BigScreen("Sanduhr", "1:00", "START: los"),
    "timer_running": BigScreen("Sanduhr", "0:42"),
    "timer_paused": BigScreen("Pause", "0:42", "START weiter · BACK neu"),
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
        tuple(f"Zeile {i}: Wörter über Wörter." for i in range(1, 4)),
        footer="BACK: zurück",
    ),
}


def reference_path(name: str, size: tuple[int, int]) -> Path:
    return REFERENCE_DIR / f"{name}_{size[0]}x{size[1]}.png"


def differing_pixels(image: Image.Image, path: Path) -> int | None:
    """How many pixels of `image` differ from the PNG at `path` (None: no such PNG, or another size)."""
    if not path.exists():
        return None
    with Image.open(path) as stored:
        expected = stored.convert("1")
    if expected.size != image.size:
        return None
    diff = ImageChops.logical_xor(expected, image.convert("1"))
    return diff.width * diff.height - diff.histogram()[0]


def assert_matches_reference(image: Image.Image, name: str, out_dir: Path | None = None) -> None:
    """Fail unless `image` equals the reference PNG pixel for pixel. Never writes a reference.

    On a mismatch the rendered image is saved to `out_dir` (if given) for a look.
    """
    path = reference_path(name, image.size)
    assert path.exists(), f"no reference {path.name}; run `{UPDATE_COMMAND}` to create it, then review it"
    differing = differing_pixels(image, path)
    if differing != 0 and out_dir is not None:
        image.save(out_dir / path.name)
    assert differing is not None, f"{path.name}: size {image.size} differs from the reference's"
    assert differing == 0, f"{path.name}: {differing} pixels differ from the reference ({UPDATE_COMMAND} to accept)"
