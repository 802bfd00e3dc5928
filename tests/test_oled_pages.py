"""The changed-pages panels (drivers.oled_pages) on a fake controller that rebuilds its RAM from the bytes
luma's real I²C interface puts on a fake smbus: what the glass shows after each frame, and what went over
the wire for it."""

from __future__ import annotations

import itertools
import random
from contextlib import contextmanager
from dataclasses import replace
from unittest import mock

import luma.oled.device
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from drivers import oled_pages
from drivers.display import open_device
from hw.profile import load_profile
from tests.helpers.fake_panel import FakePanel, FakeSMBus, full_frame_bytes

KINDS = {"ssd1306": "ssd1306", "ssd1309": "ssd1306", "sh1106": "sh1106"}  # driver -> controller model


@contextmanager
def on_fake_bus(driver: str, **cfg_changes):
    """The profile's device for `driver` opened by `open_device` over a fake smbus (luma's own i2c)."""
    panel = FakePanel(KINDS[driver])
    bus = FakeSMBus(panel)
    cfg = replace(load_profile("default").display, driver=driver, **cfg_changes)
    with mock.patch("smbus2.SMBus", lambda port: bus):
        device = open_device(cfg)
    yield device, panel, bus


def commands_sent(device, panel: FakePanel, frame: Image.Image) -> list[tuple[int, ...]]:
    """`device.display(frame)`, and the command writes the panel took for it (each as its bytes)."""
    commands: list[tuple[int, ...]] = []
    original = panel.command
    with mock.patch.object(panel, "command", side_effect=lambda *c: (commands.append(c), original(*c))):
        device.display(frame)
    return commands


def noise(seed: int, size=(128, 64), dots=600) -> Image.Image:
    rnd = random.Random(seed)
    image = Image.new("1", size)
    pixels = image.load()
    for _ in range(dots):
        pixels[rnd.randrange(size[0]), rnd.randrange(size[1])] = 255
    return image


@pytest.mark.parametrize("make, kind", [(luma.oled.device.ssd1306, "ssd1306"), (luma.oled.device.sh1106, "sh1106")])
def test_the_fake_panel_shows_what_lumas_own_device_sends(make, kind):
    """The fake controller is right about luma's full-frame path (so it can judge ours)."""
    panel = FakePanel(kind)
    device = make(luma.core.interface.serial.i2c(bus=FakeSMBus(panel), address=0x3C))
    for seed in range(3):
        device.display(noise(seed))
        assert panel.visible().tobytes() == noise(seed).tobytes()
    assert panel.errors == []


def test_the_fake_panel_notices_a_wrong_window():
    """A span written to the wrong column shows: the comparison can fail."""
    panel = FakePanel("ssd1306")
    panel.command(0x20, 0x00, 0x21, 5, 5, 0x22, 0, 0)
    panel.data([0x01])
    assert panel.visible().getpixel((5, 0)) == 255 and panel.visible().getpixel((4, 0)) == 0


@pytest.mark.parametrize("driver", ["ssd1306", "ssd1309", "sh1106"])
def test_the_panel_shows_every_frame_of_a_changing_sequence(driver):
    with on_fake_bus(driver) as (device, panel, _bus):
        assert isinstance(device, oled_pages.DEVICES[driver])
        image = noise(1)
        for step in range(40):
            image = image.copy()
            draw = ImageDraw.Draw(image)
            rnd = random.Random(step)
            x, y = rnd.randrange(120), rnd.randrange(56)
            draw.rectangle((x, y, x + rnd.randrange(8), y + rnd.randrange(8)), fill=255 * (step % 2))
            device.display(image)
            assert panel.visible().tobytes() == image.tobytes(), f"frame {step}"
        assert panel.errors == []


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63), st.booleans()), min_size=1, max_size=30),
       st.sampled_from(["ssd1306", "sh1106"]), st.integers(0, 3))
def test_any_pixel_changes_reach_the_glass(changes, driver, rotate):
    with on_fake_bus(driver, rotate=rotate) as (device, panel, _bus):
        image = Image.new("1", device.size)
        device.display(image)
        for x, y, lit in changes:
            image = image.copy()
            image.putpixel((x % device.size[0], y % device.size[1]), 255 if lit else 0)
            device.display(image)
            expected = device.preprocess(image)  # the glass holds the image turned the panel's way
            assert panel.visible().tobytes() == expected.tobytes()


@pytest.mark.slow  # hypothesis
@given(st.binary(min_size=1, max_size=132), st.data(), st.integers(0, 12))
def test_the_changed_runs_cover_exactly_the_differing_columns_parted_by_more_than_the_gap(old, data, gap):
    changes = data.draw(st.dictionaries(st.integers(0, len(old) - 1), st.integers(0, 255), max_size=12))
    new = bytes(changes.get(i, byte) for i, byte in enumerate(old))
    differ = [i for i in range(len(old)) if old[i] != new[i]]
    runs = oled_pages.changed_runs(old, new, gap)
    assert all(old[first] != new[first] and old[last] != new[last] for first, last in runs)
    assert all(later[0] - earlier[1] - 1 > gap for earlier, later in itertools.pairwise(runs))
    covered = [i for i in differ if any(first <= i <= last for first, last in runs)]
    assert covered == differ and runs == sorted(runs)
    assert (runs == []) == (differ == [])


@pytest.mark.slow  # hypothesis
@given(st.lists(st.lists(st.integers(0, 127), max_size=6), min_size=8, max_size=8))
def test_the_windows_cover_every_changed_run_in_no_more_bytes_than_a_span_per_page(changed):
    old = [bytes(128) for _ in changed]
    new = [bytes(1 if column in columns else 0 for column in range(128)) for columns in changed]
    gap = oled_pages.WINDOW_COST
    runs = [(page, *run) for page in range(8) for run in oled_pages.changed_runs(old[page], new[page], gap)]
    windows = oled_pages.merged_windows(runs)
    for page, first, last in runs:
        assert any(p0 <= page <= p1 and c0 <= first and last <= c1 for p0, p1, c0, c1 in windows)
    spans = [(page, min(columns), max(columns)) for page, columns in enumerate(changed) if columns]
    assert sum(map(oled_pages._cost, windows)) <= sum(map(oled_pages._cost, oled_pages.merged_windows(spans)))


def test_the_first_frame_is_lumas_full_frame_in_pieces_and_an_unchanged_frame_sends_nothing():
    ours = FakeSMBus(FakePanel("ssd1306"))
    theirs = FakeSMBus(FakePanel("ssd1306"))
    device = oled_pages.ssd1306(luma.core.interface.serial.i2c(bus=ours, address=0x3C))
    stock = luma.oled.device.ssd1306(luma.core.interface.serial.i2c(bus=theirs, address=0x3C))
    sent: dict[str, list[list[int]]] = {"ours": [], "theirs": []}
    frame = noise(7)
    for bus, dev, key in ((ours, device, "ours"), (theirs, stock, "theirs")):
        with mock.patch.object(bus, "_transfer", side_effect=lambda addr, payload, k=key: sent[k].append(payload)):
            dev.display(frame)
    (window, *pieces), (their_window, *theirs_data) = sent["ours"], sent["theirs"]
    assert window == their_window  # the same command window ...
    data = [b for piece in pieces for b in piece[1:]]
    assert data == [b for block in theirs_data for b in block[1:]]  # ... and the same 1024 data bytes
    assert all(piece[0] == 0x40 for piece in pieces)
    ours.bytes = 0
    device.display(frame)
    assert ours.bytes == 0


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_write_stops_between_pieces_for_a_newer_frame_and_the_next_sends_what_is_missing(driver):
    """A frame told to stop after its first piece leaves the panel part old, part new; the next frame,
    diffed against what the panel then holds, completes the picture."""
    with on_fake_bus(driver) as (device, panel, _bus):
        device.display(noise(1))
        pieces: list[int] = []
        original = panel.data
        with mock.patch.object(panel, "data", side_effect=lambda d: (pieces.append(len(d)), original(d))):
            assert device.display(noise(2), stale=lambda: len(pieces) >= 1) is False
            assert len(pieces) == 1 and pieces[0] <= oled_pages.PIECE_BYTES
            shown = panel.visible().tobytes()
            assert shown not in (noise(1).tobytes(), noise(2).tobytes())
            assert device.display(noise(3), stale=lambda: False) is True
        assert panel.visible().tobytes() == noise(3).tobytes()
        assert panel.errors == []


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_frame_told_to_stop_before_it_starts_sends_nothing(driver):
    with on_fake_bus(driver) as (device, panel, bus):
        device.display(noise(1))
        bus.bytes = 0
        assert device.display(noise(2), stale=lambda: True) is False
        assert bus.bytes == 0 and panel.visible().tobytes() == noise(1).tobytes()
        device.display(noise(2))
        assert panel.visible().tobytes() == noise(2).tobytes()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_refresh_sends_every_page_again_and_when_stopped_leaves_only_the_newer_frames_changes(driver):
    with on_fake_bus(driver) as (device, panel, bus):
        frame = noise(8)
        device.display(frame)
        panel.ram[3][40] ^= 0xFF  # a glitch on the panel
        assert device.display(frame, every_page=True) is True
        assert panel.visible().tobytes() == frame.tobytes()  # healed
        pieces = bus.transactions
        assert device.display(frame, stale=lambda: bus.transactions > pieces + 1, every_page=True) is False
        newer = frame.copy()
        newer.putpixel((70, 21), 0 if newer.getpixel((70, 21)) else 255)
        bus.bytes = 0
        assert device.display(newer) is True
        window = 6 if driver == "ssd1306" else 3  # column and page window, or page and column address
        assert bus.bytes == (2 + window) + (2 + 1)  # one byte: the stopped refresh left nothing missing
        assert panel.visible().tobytes() == newer.tobytes()


def test_one_changed_pixel_sends_one_byte_in_its_page_and_column_window():
    with on_fake_bus("ssd1306") as (device, panel, bus):
        frame = noise(3)
        device.display(frame)
        frame = frame.copy()
        frame.putpixel((70, 21), 0 if frame.getpixel((70, 21)) else 255)
        bus.bytes = bus.transactions = 0
        commands = commands_sent(device, panel, frame)
        assert commands == [(0x21, 70, 70, 0x22, 2, 2)]  # column 70, page 21 // 8
        assert (bus.transactions, bus.bytes) == (2, (2 + 6) + (2 + 1))  # address + control byte each
        assert panel.visible().tobytes() == frame.tobytes()


@pytest.mark.parametrize(("columns", "windows"), [
    ((10, 100), [(0x21, 10, 10, 0x22, 0, 0), (0x21, 100, 100, 0x22, 0, 0)]),  # 89 columns apart: two windows
    ((10, 22), [(0x21, 10, 10, 0x22, 0, 0), (0x21, 22, 22, 0x22, 0, 0)]),  # 11 unchanged: more than a window
    ((10, 21), [(0x21, 10, 21, 0x22, 0, 0)]),  # 10 unchanged columns cost what a second window does: sent
])
def test_changes_on_one_page_go_as_runs_when_the_columns_between_cost_more_than_a_window(columns, windows):
    with on_fake_bus("ssd1306") as (device, panel, _bus):
        frame = noise(5)
        device.display(frame)
        frame = frame.copy()
        for x in columns:
            frame.putpixel((x, 2), 0 if frame.getpixel((x, 2)) else 255)
        commands = commands_sent(device, panel, frame)
        assert commands == windows
        assert panel.visible().tobytes() == frame.tobytes()


def test_runs_of_neighbouring_pages_share_a_window_each_when_that_is_fewer_bytes():
    """Two digits three pages tall, far apart: a window per digit (not one per page, nor one across both)."""
    with on_fake_bus("ssd1306") as (device, panel, _bus):
        frame = Image.new("1", device.size)
        device.display(frame)
        frame = frame.copy()
        draw = ImageDraw.Draw(frame)
        draw.rectangle((5, 8, 20, 31), fill=255)
        draw.rectangle((90, 8, 105, 31), fill=255)
        commands = commands_sent(device, panel, frame)
        assert commands == [(0x21, 5, 20, 0x22, 1, 3), (0x21, 90, 105, 0x22, 1, 3)]
        assert panel.visible().tobytes() == frame.tobytes()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_small_windows_share_one_combined_transfer_of_at_most_a_piece(driver):
    """Each window's command and data, and the windows of a frame up to PIECE_BYTES of data, go in one
    i2c_rdwr call: the wire carries the same bytes, the kernel is entered
    once per piece."""
    with on_fake_bus(driver) as (device, panel, bus):
        device.display(noise(1))
        frame = noise(1).copy()
        frame.putpixel((10, 3), 0 if frame.getpixel((10, 3)) else 255)  # page 0
        frame.putpixel((100, 60), 0 if frame.getpixel((100, 60)) else 255)  # page 7
        bus.calls = bus.transactions = 0
        device.display(frame)
        assert (bus.calls, bus.transactions) == (1, 4)  # two windows: command + data each, one call
        assert panel.visible().tobytes() == frame.tobytes()

        scattered = frame.copy()
        for x in range(0, 128, 4):
            for page in range(8):
                scattered.putpixel((x, page * 8), 0 if scattered.getpixel((x, page * 8)) else 255)
        sizes: list[tuple[int, int]] = []
        rdwr = bus.i2c_rdwr

        def watched(*messages):
            sizes.append((len(messages), sum(len(m) - 1 for m in messages if next(iter(m)) == 0x40)))
            rdwr(*messages)

        with mock.patch.object(bus, "i2c_rdwr", side_effect=watched):
            device.display(scattered)
        assert len(sizes) > 1
        assert all(data <= oled_pages.PIECE_BYTES for _count, data in sizes)
        assert panel.visible().tobytes() == scattered.tobytes()
        assert panel.errors == []


def test_in_lumas_smbus_block_mode_the_writes_go_one_by_one():
    """A bus handed to the interface (luma's unmanaged mode: 32-byte SMBus blocks) takes no combined call."""
    panel = FakePanel("ssd1306")
    bus = FakeSMBus(panel)
    device = oled_pages.ssd1306(oled_pages.CombinedI2C(bus=bus, address=0x3C))
    device.display(noise(2))
    frame = noise(2).copy()
    frame.putpixel((10, 3), 0 if frame.getpixel((10, 3)) else 255)
    frame.putpixel((100, 60), 0 if frame.getpixel((100, 60)) else 255)
    bus.calls = bus.transactions = 0
    device.display(frame)
    assert bus.calls == bus.transactions == 4
    assert panel.visible().tobytes() == frame.tobytes()


def test_sh1106_sends_page_and_column_with_its_offset_and_never_a_window():
    with on_fake_bus("sh1106") as (device, panel, _bus):
        frame = noise(4)
        device.display(frame)
        frame = frame.copy()
        ImageDraw.Draw(frame).rectangle((40, 50, 47, 53), fill=255)
        commands = commands_sent(device, panel, frame)
        columns = [c for c in commands if c[0] & 0xF0 == 0xB0]
        assert columns and all(len(c) == 3 for c in commands)
        for page_cmd, low, high in commands:
            column = (high & 0x0F) << 4 | low
            assert page_cmd == 0xB6 and 2 + 40 <= column <= 2 + 47  # page 6, column offset 2
        assert panel.visible().tobytes() == frame.tobytes()


@pytest.mark.parametrize("change", ["contrast", "show", "hide", "invalidate"])
def test_a_contrast_or_power_change_makes_the_next_frame_full(change):
    with on_fake_bus("ssd1306") as (device, _panel, bus):
        frame = noise(5)
        device.display(frame)
        getattr(device, change)(*((0x40,) if change == "contrast" else ()))
        bus.bytes = 0
        device.display(frame)
        assert bus.bytes == full_frame_bytes()


def test_a_write_that_failed_half_way_is_followed_by_a_full_frame():
    with on_fake_bus("ssd1306") as (device, panel, bus):
        device.display(noise(1))
        calls = iter([None, OSError(121, "Remote I/O error")])
        bus.fail = lambda: next(calls, None)
        with pytest.raises(OSError):
            device.display(noise(2))  # the window went out, the data did not
        bus.bytes = 0
        device.display(noise(2))
        assert bus.bytes == full_frame_bytes()
        assert panel.visible().tobytes() == noise(2).tobytes()
