"""The panel's pixels do not depend on the system's libraries (issue 42): Pillow lays text out with libraqm
when the system happens to have it (fribidi installed) and with its own basic layout otherwise, so the
reference screens are rendered once on a system with raqm and once without, each in a fresh interpreter
(the renderer caches its fonts), and each must equal the reference PNGs pixel for pixel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, features

from tests.screens import PANEL_SIZES, REFERENCE_SCREENS, differing_pixels, reference_path

pytestmark = pytest.mark.slow  # a subprocess per half

ROOT = Path(__file__).resolve().parents[1]

# The child: Pillow believes raqm is there or not (what it decides by when a font names no layout engine),
# then renders every reference screen at every panel size into the directory argv[2].
RENDER_ALL = """
import sys
from pathlib import Path
from PIL import ImageFont
ImageFont.core.HAVE_RAQM = sys.argv[1] == "raqm"
from firmware_host.render import render
from tests.screens import PANEL_SIZES, REFERENCE_SCREENS
for name, screen in REFERENCE_SCREENS.items():
    for size in PANEL_SIZES:
        render(screen, size).save(Path(sys.argv[2]) / f"{name}_{size[0]}x{size[1]}.png")
"""


@pytest.mark.parametrize("system", ["raqm", "basic"])
def test_the_reference_screens_are_the_same_with_and_without_raqm(system: str, tmp_path: Path) -> None:
    if system == "raqm" and not features.check("raqm"):
        pytest.skip("this system's Pillow has no libraqm (fribidi missing): only the basic half runs")
    subprocess.run([sys.executable, "-c", RENDER_ALL, system, str(tmp_path)], cwd=ROOT, check=True, timeout=600)
    differing = {}
    for name in REFERENCE_SCREENS:
        for size in PANEL_SIZES:
            path = reference_path(name, size)
            with Image.open(tmp_path / path.name) as rendered:
                count = differing_pixels(rendered, path)
            if count != 0:
                differing[path.name] = count
    assert differing == {}, f"with Pillow's layout decided by {system}, these differ from the references"
