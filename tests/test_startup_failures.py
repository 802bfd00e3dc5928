"""A start that fails shows its reason on the OLED (the frames are reference PNGs) and exits or runs on
as documented in systemd/README.md: a bad config exits 2; a state directory that is missing, read-only or
full starts the appliance unsaved ("Nicht gespeichert: …", every title marked)."""

import pytest

from tests.screens import UPDATE_COMMAND, differing_pixels, reference_path
from tests.startup_cases import CASES, start_image

pytestmark = pytest.mark.slow  # real starts, a 10 MB config


@pytest.mark.parametrize("case", CASES)
def test_a_failed_start_shows_its_reason_on_the_oled(case, tmp_path):
    shown = start_image(case, tmp_path)
    if shown is None:
        pytest.skip(f"{case} cannot be set up here (a size-limited tmpfs needs root)")
    image, text = shown
    if case.startswith("state_"):
        assert "Nicht gespeichert" in text, text
    path = reference_path(f"startup_{case}", image.size)
    assert differing_pixels(image, path) == 0, f"{path.name} differs or is missing: {UPDATE_COMMAND}"
