import logging
import time
from dataclasses import replace
from unittest import mock

import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw

from drivers.display import Backoff, DisplayError, LumaDisplay, open_device
from firmware_host.core.events import Button, Press, TextEntry
from hw.profile import load_profile
from tests.helpers.fake_panel import FakePanel, FakeSMBus, full_frame_bytes


def test_dummy_device_receives_the_image():
    device = dummy(width=128, height=64, mode="1")
    display = LumaDisplay(device)
    assert display.size == (128, 64)
    frame = Image.new("L", (128, 64), 0)
    ImageDraw.Draw(frame).rectangle((10, 20, 29, 29), fill=255)
    display.show(frame)
    assert device.image.mode == "1"
    assert device.image.getpixel((15, 25)) == 255 and device.image.getpixel((5, 5)) == 0
    assert device.image.getbbox() == (10, 20, 30, 30)


def test_rotated_panel_takes_its_rotated_size():
    device = dummy(width=128, height=64, rotate=1, mode="1")
    display = LumaDisplay(device)
    assert display.size == (64, 128)
    display.show(Image.new("1", (64, 128), 1))
    assert device.image.size == (128, 64)


def test_wrong_size_is_refused():
    display = LumaDisplay(dummy(width=128, height=64, mode="1"))
    with pytest.raises(ValueError, match="256×64"):
        display.show(Image.new("1", (256, 64)))


def test_open_dummy_from_profile_and_close_twice():
    display = LumaDisplay(open_device(load_profile("sim").display))
    display.show(Image.new("1", (128, 64), 1))
    display.close()
    display.close()
    display.show(Image.new("1", (128, 64), 1))  # after close: ignored


def test_missing_i2c_bus_is_a_clear_display_error():
    cfg = replace(load_profile("default").display, port=9, address=0x3D)
    with pytest.raises(DisplayError) as info:
        open_device(cfg)
    message = str(info.value)
    assert "ssd1306 on I2C bus 9 at address 0x3D" in message
    assert "i2c" in message.lower()


class Unplugged:
    """A luma-like device whose bus fails (the panel fell off the I2C bus)."""

    width, height, mode = 128, 64, "1"

    def display(self, image):
        raise OSError(121, "Remote I/O error")

    def cleanup(self):
        pass


def test_a_failing_write_is_logged_once_and_show_never_raises(caplog):
    display = LumaDisplay(Unplugged(), load_profile("default").display, backoff=Backoff(0.001, 0.004))
    with caplog.at_level(logging.WARNING, logger="drivers.display"):
        for _ in range(5):
            display.show(Image.new("1", (128, 64)))
        assert not display.flush(0.1)  # nothing reaches the glass, and the writer keeps trying
        assert display.failing
        display.close()
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1
    assert "ssd1306 on I2C bus 1 at address 0x3C" in warnings[0] and "Remote I/O error" in warnings[0]


def on_fake_bus(**changes):
    panel = FakePanel("ssd1306")
    bus = FakeSMBus(panel)
    cfg = replace(load_profile("default").display, **changes)
    with mock.patch("smbus2.SMBus", lambda port: bus):
        device = open_device(cfg)
    return cfg, device, panel, bus


def test_after_a_loose_wire_the_newest_frame_goes_out_whole(caplog):
    cfg, device, panel, bus = on_fake_bus()
    display = LumaDisplay(device, cfg, backoff=Backoff(0.002, 0.01))
    display.show(frame_with(0))
    assert display.flush()
    failures = iter([OSError(121, "Remote I/O error")] * 4)
    bus.fail = lambda: next(failures, None)
    bus.bytes = 0
    with caplog.at_level(logging.WARNING, logger="drivers.display"):
        display.show(frame_with(1))
        display.show(frame_with(2))  # replaces frame 1 if that is not out yet
        assert display.flush()
    assert panel.visible().tobytes() == frame_with(2).tobytes()
    assert bus.bytes == full_frame_bytes()  # the good write after the failures was a full frame
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2 and "retrying" in messages[0] and "answers again" in messages[1]
    display.close()


def test_a_newer_frame_stops_the_one_on_the_wire_at_its_next_piece():
    """The bus is not held for an old frame: a frame shown while another is being written stops that one
    after the piece on the wire, and the glass ends on the newer frame."""
    cfg, device, panel, bus = on_fake_bus()
    display = LumaDisplay(device, cfg)
    transactions: list[int] = []

    def on_write(nbytes: int) -> None:
        transactions.append(nbytes)
        if len(transactions) == 2:  # frame 0's window and its first piece are out
            display.show(frame_with(1))

    bus.on_write = on_write
    display.show(frame_with(0))  # the first frame: every page, in 8 pieces
    assert display.flush()
    assert panel.visible().tobytes() == frame_with(1).tobytes()
    assert display.writes == 1  # frame 1 whole; frame 0 stopped after one piece
    assert sum(transactions) < 2 * full_frame_bytes() - 128
    display.close()


def test_the_frame_on_the_glass_is_sent_whole_again_every_refresh():
    cfg, device, panel, bus = on_fake_bus()
    display = LumaDisplay(device, cfg, refresh_s=0.02)
    display.show(frame_with(0))
    assert display.flush()
    panel.ram[3][10] ^= 0xFF  # a glitch on the panel
    bus.bytes = 0
    deadline = time.monotonic() + 5
    while bus.bytes < full_frame_bytes() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert panel.visible().tobytes() == frame_with(0).tobytes()
    display.close()


def test_contrast_and_power_go_out_from_the_writer_in_order_and_the_next_frame_is_whole():
    cfg, device, panel, bus = on_fake_bus()
    display = LumaDisplay(device, cfg)
    display.show(frame_with(0))
    display.set_contrast(300)  # clamped to 255
    display.set_visible(False)
    assert display.flush()
    assert panel.contrast == 255 and not panel.on
    bus.bytes = 0
    display.set_visible(True)
    display.show(frame_with(1))
    assert display.flush()
    assert panel.on and panel.visible().tobytes() == frame_with(1).tobytes()
    assert bus.bytes == (2 + 1) + full_frame_bytes()  # display on, then a full frame
    display.close()


def frame_with(n):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((10, 10), f"frame {n}", fill=255)
    return image


@pytest.mark.slow
def test_the_timer_and_the_alarm_carry_on_while_the_display_fails(tmp_path):
    """A loose display wire on the board: the countdown still ends with the alarm on the buzzer."""
    from firmware_host.config import resolve
    from firmware_host.simulator import Simulator

    panel = FakePanel("ssd1306")
    bus = FakeSMBus(panel)
    resolved = resolve("sim", None, environ={})
    display_cfg = replace(resolved.profile.display, driver="ssd1306", interface="i2c", port=1, address=0x3C)
    resolved = replace(resolved, profile=replace(resolved.profile, display=display_cfg))
    with mock.patch("smbus2.SMBus", lambda port: bus):
        sim = Simulator(resolved, tmp_path)
    try:
        bus.fail = lambda: OSError(121, "Remote I/O error")
        sim.send(TextEntry("0:05", sim.clock.now))
        sim.send(Press(Button.START, sim.clock.now))
        sim.wait_until(sim.clock.now + 6)
        assert [p for _, p in sim.sounds].count("alarm") == 1
        assert "Zeit!" in sim.screen_text()
        bus.fail = lambda: None  # the wire is back: the last frame reaches the glass
        display = sim.appliance.hardware.display
        assert display.flush()
        assert panel.visible().tobytes() == sim.image.convert("1").tobytes()
    finally:
        sim.close()
