"""The player's guide: linked first from the README, and every picture it shows is a rendered reference PNG
(kept current by tests/test_game_screens.py and tests/test_render.py)."""

import re
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide.md"


def test_the_readme_links_the_guide_first():
    links = re.findall(r"\]\(([^)#]+\.md)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert links[0] == "docs/guide.md"


def test_every_picture_of_the_guide_is_a_rendered_oled_frame():
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", GUIDE.read_text(encoding="utf-8"))
    assert len(pictures) >= 15
    for picture in pictures:
        path = (GUIDE.parent / picture).resolve()
        assert path.parent == ROOT / "tests" / "reference", picture
        with Image.open(path) as image:
            assert image.size in ((128, 64), (256, 64)), picture


def test_the_guide_names_every_game():
    text = GUIDE.read_text(encoding="utf-8")
    for game in ("Das perfekte Wort", "Quiddler", "Knack das Wort", "Perfect Words", "Zugzeit"):
        assert f"### {game}" in text
