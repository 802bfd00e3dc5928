"""The player's guide, in German (docs/anleitung.md, the box's default language) and English (docs/guide.md):
linked first from the README, every game and topic in both, and every picture one that
docs/scripts/guide_pictures.py renders from the live box — a committed picture that no longer matches the box
fails here, with the command that rewrites them."""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GUIDES = {"de": DOCS / "anleitung.md", "en": DOCS / "guide.md"}
REWRITE = "python docs/scripts/guide_pictures.py"


@functools.cache
def picture_script() -> ModuleType:
    """docs/scripts/guide_pictures.py as a module (a script of the docs, not of the package)."""
    spec = importlib.util.spec_from_file_location("guide_pictures", DOCS / "scripts" / "guide_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def pictures_of(guide: Path) -> list[Path]:
    return [(guide.parent / link).resolve()
            for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", guide.read_text(encoding="utf-8"))]


def test_the_readme_links_the_guide_first_in_german_then_in_english():
    links = re.findall(r"\]\(([^)#]+\.md)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert links[:2] == ["docs/anleitung.md", "docs/guide.md"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_picture_of_the_guide_is_one_the_box_renders_in_its_language(lang):
    names = {picture.name for picture in picture_script().PICTURES}
    shown = pictures_of(GUIDES[lang])
    assert len(shown) >= 20
    for path in shown:
        assert path.parent == DOCS / "pictures" / lang, path
        assert path.stem in names, f"{path.name} is not a picture of docs/scripts/guide_pictures.py"
        with Image.open(path) as image:
            assert image.size in ((384, 192), (768, 192)), path  # the 128×64 panel, each pixel 3×3


@pytest.mark.parametrize(("lang", "headings"), [
    ("de", ["Die Handys", "Stromausfall", "Sprache", "Spiel abbrechen und fortsetzen", "Sanduhr", "Punktetafel"]),
    ("en", ["Phones", "Power cut", "Language", "Leaving a game and playing on", "sand timer", "scoreboard"]),
])
def test_the_guide_names_every_game_and_every_topic(lang, headings):
    text = GUIDES[lang].read_text(encoding="utf-8")
    titles = re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)
    for game in ("Das perfekte Wort", "Quiddler", "Knack das Wort", "Perfect Words", "Zugzeit"):
        assert any(title.startswith(game) for title in titles), game
    for heading in headings:
        assert any(heading.casefold() in title.casefold() for title in titles), heading


def test_das_perfekte_wort_is_explained_to_someone_who_never_played_it():
    for lang, words in {"de": ("Seite des Blocks", "Punktekarte 1a", "Bonusfeld", "grau"),
                        "en": ("Seite des Blocks", "Punktekarte 1a", "bonus field", "grau")}.items():
        text = GUIDES[lang].read_text(encoding="utf-8")
        for word in words:
            assert word in text, (lang, word)


@pytest.mark.slow
def test_the_committed_pictures_are_what_the_box_shows_now(tmp_path):
    written = picture_script().write_all(tmp_path)
    expected = {DOCS / path.relative_to(tmp_path): path for path in written}
    committed = set((DOCS / "pictures").rglob("*.png")) | set((DOCS / "night").glob("panel_*.png"))
    assert committed == set(expected), f"pictures missing or left over: {REWRITE} rewrites them"
    differing = []
    for path, fresh in expected.items():
        with Image.open(path) as old, Image.open(fresh) as new:
            if old.size != new.size or old.convert("1").tobytes() != new.convert("1").tobytes():
                differing.append(str(path.relative_to(ROOT)))
    assert not differing, (f"these pictures no longer match the box: {differing}; {REWRITE} rewrites them "
                           "(look at them before committing)")
