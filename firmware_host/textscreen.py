"""The table as terminal text: the OLED image in Braille, the LED bar, the buzzer, a key-help line.

Pure functions of their inputs (no terminal I/O): the simulator prints what they return.
Braille patterns (U+2800…U+28FF) show 2×4 pixels per character, so a 128×64 panel is 64×16 characters
and a 256×64 panel 128×16, or 64×8 at half scale for an 80-column terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

BRAILLE_BLANK = 0x2800
# Dot bit for the pixel at (dx, dy) inside a 2×4 cell (Unicode's dot numbering 1-8).
_DOT_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [dy][dx]

TERMINAL_SIZE = (80, 24)
FULL, BRIGHT, DIM, OFF = "█", "▒", "░", "·"


def halve(image: Image.Image) -> Image.Image:
    """Scale a 1-bit image to half size keeping the ink: on a dark panel a 2×2 block is lit if any of its
    pixels is, on a mostly lit (inverted) panel it is dark if any is dark, so thin strokes survive."""
    gray = image.convert("L")
    mostly_lit = gray.histogram()[255] * 2 > gray.width * gray.height
    blocks = gray.reduce(2)  # each pixel the mean of a 2×2 block
    if mostly_lit:
        return blocks.point(lambda v: 255 if v >= 255 else 0).convert("1")
    return blocks.point(lambda v: 255 if v > 0 else 0).convert("1")


def braille(image: Image.Image, half: bool = False) -> list[str]:
    """The image as rows of Braille characters (lit pixel = raised dot); `half` first halves the image.

    A size not a multiple of 2×4 is padded with unlit pixels.
    """
    bitmap = halve(image) if half else image.convert("1")
    width, height = bitmap.size
    pixels = bitmap.load()
    assert pixels is not None
    rows: list[str] = []
    for top in range(0, height, 4):
        chars = []
        for left in range(0, width, 2):
            code = BRAILLE_BLANK
            for dy in range(4):
                for dx in range(2):
                    x, y = left + dx, top + dy
                    if x < width and y < height and pixels[x, y]:
                        code |= _DOT_BITS[dy][dx]
            chars.append(chr(code))
        rows.append("".join(chars))
    return rows


def bar_text(segments: Sequence[float]) -> str:
    """The LED bar, one character per segment from its brightness in [0, 1]: █ full, ▒ at least half,
    ░ dimmer, · off. Pass the segments' PWM values (e.g. `[led.value for led in bar.leds]`)."""
    return "".join(_segment(v) for v in segments)


def _segment(value: float) -> str:
    if value >= 0.995:
        return FULL
    if value >= 0.5:
        return BRIGHT
    if value >= 0.005:
        return DIM
    return OFF


def buzzer_text(sound: float | bool | None) -> str:
    """What the buzzer does: "♪ 880 Hz" for a tone, "♪ beep" for an active buzzer on, "" when silent."""
    if sound is None or sound is False:
        return ""
    if sound is True:
        return "♪ beep"
    return f"♪ {sound:.0f} Hz" if sound > 0 else ""


def frame(
    image: Image.Image,
    segments: Sequence[float],
    sound: float | bool | None,
    keys: str,
    size: tuple[int, int] = TERMINAL_SIZE,
) -> str:
    """The whole table as text fitting `size` (columns, lines): the display in a box, then a line with
    the LED bar and the buzzer, then the key help (clipped). The display is shown at half scale when it
    does not fit at full scale, and cropped if it does not fit even then."""
    columns, lines = size
    room_w, room_h = columns - 2, lines - 4  # box sides; box top/bottom, bar line, key line
    display = braille(image)
    if len(display[0]) > room_w or len(display) > room_h:
        display = braille(image, half=True)
    display = [row[:room_w] for row in display[:room_h]]
    inner = len(display[0]) if display else 0
    out = [
        "┌" + "─" * inner + "┐",
        *("│" + row + "│" for row in display),
        "└" + "─" * inner + "┘",
        _fit(f"LED {bar_text(segments)}   {buzzer_text(sound)}".rstrip(), columns),
        _fit(keys, columns),
    ]
    return "\n".join(out)


def _fit(text: str, columns: int) -> str:
    return text if len(text) <= columns else text[: max(0, columns - 1)] + "…"
