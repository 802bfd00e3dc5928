"""The terminal emulation: Braille cells, the LED bar as text, the buzzer line, a frame within 80×24."""

from __future__ import annotations

import pytest
from gpiozero import LEDBarGraph
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageChops

from firmware_host.render import render
from firmware_host.textscreen import bar_text, braille, buzzer_text, frame, halve
from tests.screens import PANEL_SIZES, REFERENCE_SCREENS


def bitmap(width: int, height: int, lit: set[tuple[int, int]]) -> Image.Image:
    image = Image.new("1", (width, height), 0)
    for xy in lit:
        image.putpixel(xy, 255)
    return image


# Unicode Braille: dots 1-2-3-7 down the left column, 4-5-6-8 down the right; dot n is bit n-1.
@pytest.mark.parametrize(
    ("pixel", "char"),
    [
        ((0, 0), "⠁"), ((0, 1), "⠂"), ((0, 2), "⠄"), ((0, 3), "⡀"),
        ((1, 0), "⠈"), ((1, 1), "⠐"), ((1, 2), "⠠"), ((1, 3), "⢀"),
    ],
)
def test_each_pixel_of_a_cell_raises_its_own_dot(pixel: tuple[int, int], char: str) -> None:
    assert braille(bitmap(2, 4, {pixel})) == [char]


def test_cells_tile_the_image_left_to_right_top_to_bottom() -> None:
    lit = {(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)}  # top-left cell full
    lit |= {(3, 7)}  # bottom-right cell: lowest right dot
    lit |= {(2, 0), (2, 1), (2, 2), (2, 3)}  # top-right cell: left column
    assert braille(bitmap(4, 8, lit)) == ["⣿⡇", "⠀⢀"]


def test_a_size_off_the_grid_is_padded_with_blank_dots() -> None:
    assert braille(bitmap(3, 5, {(2, 4)})) == ["⠀⠀", "⠀⠁"]


@pytest.mark.parametrize(("size", "cells"), [((128, 64), (64, 16)), ((256, 64), (128, 16))])
def test_panel_sizes_in_characters(size: tuple[int, int], cells: tuple[int, int]) -> None:
    rows = braille(Image.new("1", size))
    assert (len(rows[0]), len(rows)) == cells
    half = braille(Image.new("1", size), half=True)
    assert (len(half[0]), len(half)) == (cells[0] // 2, cells[1] // 2)


def test_halving_keeps_thin_strokes_on_dark_and_on_lit_panels() -> None:
    # a one-pixel line on a dark panel stays lit...
    dark = bitmap(8, 8, {(3, y) for y in range(8)})
    assert [halve(dark).getpixel((1, y)) for y in range(4)] == [255] * 4
    # ...and a one-pixel dark line on a lit (inverted) panel stays dark
    lit = ImageChops.invert(dark)
    assert [halve(lit).getpixel((1, y)) for y in range(4)] == [0] * 4
    assert halve(lit).getpixel((3, 0)) == 255


def leds(level: float) -> list[float]:
    """The PWM values gpiozero's LEDBarGraph sets for `level` on 10 mock PWM pins."""
    factory = MockFactory(pin_class=MockPWMPin)
    with LEDBarGraph(*range(2, 12), pwm=True, pin_factory=factory) as bar:
        bar.value = level
        return [led.value for led in bar.leds]


@pytest.mark.parametrize(
    ("level", "text"),
    [
        (1.0, "██████████"),
        (0.55, "█████▒····"),
        (0.52, "█████░····"),
        (0.3, "███·······"),
        (0.0, "··········"),
    ],
)
def test_bar_text_from_the_pins_of_a_real_led_bar(level: float, text: str) -> None:
    assert bar_text(leds(level)) == text


@pytest.mark.parametrize(
    ("sound", "text"), [(880.0, "♪ 880 Hz"), (1174.7, "♪ 1175 Hz"), (True, "♪ beep"), (None, ""), (False, "")]
)
def test_buzzer_text(sound: float | bool | None, text: str) -> None:
    assert buzzer_text(sound) == text


KEYS = "START=s  NEXT=n  BACK=b  MENU=m  lang: Großbuchstabe  Karte: Zeile tippen + Enter  Ende=q  " * 2


@pytest.mark.slow
@pytest.mark.parametrize("size", [*PANEL_SIZES, (128, 128), (512, 64)])
@pytest.mark.parametrize("name", sorted(REFERENCE_SCREENS))
def test_frame_fits_80_by_24(name: str, size: tuple[int, int]) -> None:
    text = frame(render(REFERENCE_SCREENS[name], size), leds(0.55), 880.0, KEYS)
    lines = text.split("\n")
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 80


def test_frame_shows_the_display_bar_buzzer_and_keys() -> None:
    image = render(REFERENCE_SCREENS["timer_running"], (128, 64))
    lines = frame(image, leds(0.55), 880.0, "START=s").split("\n")
    assert lines[1:17] == ["│" + row + "│" for row in braille(image)]  # 128×64 at full scale
    assert "█████▒····" in lines[-2] and "♪ 880 Hz" in lines[-2]
    assert lines[-1] == "START=s"
    wide = render(REFERENCE_SCREENS["timer_running"], (256, 64))
    wide_lines = frame(wide, leds(0.0), None, "").split("\n")
    assert wide_lines[1:9] == ["│" + row + "│" for row in braille(wide, half=True)]
