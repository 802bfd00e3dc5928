from dataclasses import replace

import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw

from drivers.display import DisplayError, LumaDisplay, open_device
from hw.profile import load_profile


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


def test_bus_failure_while_showing_names_the_panel():
    display = LumaDisplay(Unplugged(), load_profile("default").display)
    with pytest.raises(DisplayError, match="I2C bus 1 at address 0x3C"):
        display.show(Image.new("1", (128, 64)))
