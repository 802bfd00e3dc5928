"""A changed-pages write (drivers.oled_pages) between any two frames: the controller's memory, rebuilt from
the bytes luma's real I²C interface put on the wire, equals the second frame, and the write took no more
bytes than sending every changed page whole would have (nothing at all for an unchanged frame)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from drivers.display import open_device
from hw.profile import load_profile
from tests.helpers.fake_panel import FakePanel, FakeSMBus

pytestmark = pytest.mark.slow  # hypothesis

KINDS = {"ssd1306": "ssd1306", "ssd1309": "ssd1306", "sh1106": "sh1106"}  # driver -> controller model
PAGE_WHOLE = {"ssd1306": (2 + 6) + 2 + 128, "sh1106": (2 + 3) + 2 + 128}  # a page in a window of its own


@contextmanager
def on_fake_bus(driver: str, rotate: int):
    panel = FakePanel(KINDS[driver])
    bus = FakeSMBus(panel)
    cfg = replace(load_profile("default").display, driver=driver, rotate=rotate)
    with mock.patch("smbus2.SMBus", lambda port: bus):
        device = open_device(cfg)
    yield device, panel, bus


shapes = st.lists(st.tuples(st.sampled_from(["rectangle", "line", "point"]), st.integers(0, 127),
                            st.integers(0, 63), st.integers(0, 127), st.integers(0, 63), st.booleans()),
                  max_size=12)


def frame(size: tuple[int, int], base: Image.Image | None,
          drawn: list[tuple[str, int, int, int, int, bool]]) -> Image.Image:
    """`drawn` (shapes, lit or dark) on a copy of `base` (None: a dark frame)."""
    image = base.copy() if base is not None else Image.new("1", size)
    draw = ImageDraw.Draw(image)
    for kind, x0, y0, x1, y1, lit in drawn:
        (left, right), (top, bottom) = sorted((x0 % size[0], x1 % size[0])), sorted((y0 % size[1], y1 % size[1]))
        box = (left, top, right, bottom)
        if kind == "rectangle":
            draw.rectangle(box, fill=255 if lit else 0)
        elif kind == "line":
            draw.line(box, fill=255 if lit else 0)
        else:
            draw.point(box[:2], fill=255 if lit else 0)
    return image


def pages_differing(device, one: Image.Image, other: Image.Image) -> int:
    """How many 8-row pages of the panel differ between the two frames (turned the panel's way)."""
    turned = device.preprocess(one)
    a, b = turned.tobytes(), device.preprocess(other).tobytes()
    page = 8 * ((turned.size[0] + 7) // 8)  # the bytes of 8 rows
    return sum(a[n * page : (n + 1) * page] != b[n * page : (n + 1) * page] for n in range(turned.size[1] // 8))


@settings(max_examples=60, deadline=None)
@given(shapes, shapes, st.sampled_from(sorted(KINDS)), st.sampled_from([0, 2]), st.booleans())
def test_a_diff_write_leaves_the_frame_in_no_more_bytes_than_its_changed_pages_whole(first, second, driver,
                                                                                    rotate, fresh):
    with on_fake_bus(driver, rotate) as (device, panel, bus):
        one = frame(device.size, None, first)
        two = one if not second else frame(device.size, None if fresh else one, second)
        device.display(one)
        assert panel.visible().tobytes() == device.preprocess(one).tobytes()
        before = bus.bytes
        device.display(two)
        assert panel.visible().tobytes() == device.preprocess(two).tobytes()
        assert bus.bytes - before <= pages_differing(device, one, two) * PAGE_WHOLE[KINDS[driver]]
        assert panel.errors == []
