"""Pixel-exact on the wire: every documented script played through the simulator with the real luma device
(the changed-pages SSD1306 / SH1106 of `drivers.oled_pages`, opened by `open_device` on luma's own I²C
interface) over a fake smbus; after every frame, the panel RAM rebuilt from the bytes sent must show
exactly the rendered image."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from firmware_host.config import resolve
from firmware_host.script import parse_script, run_script
from firmware_host.shell import Outputs
from firmware_host.simulator import Simulator
from tests.helpers.fake_panel import FakePanel, FakeSMBus

pytestmark = pytest.mark.slow

SCRIPTS = sorted((Path(__file__).resolve().parent.parent / "docs" / "scripts").glob("*.script"))


class PanelChecked(Simulator):
    """The simulator, comparing the fake panel with every frame the shell draws."""

    def __init__(self, *args: Any, panel: FakePanel, **kwargs: Any) -> None:
        self.panel = panel
        self.checked = 0
        self.mismatches: list[int] = []
        super().__init__(*args, **kwargs)

    def _observe(self, outputs: Outputs) -> Outputs:
        observed = super()._observe(outputs)
        display: Any = outputs.display

        def on_frame(screen: Any, image: Any) -> None:
            observed.on_frame(screen, image)
            assert display.flush(), "the frame did not reach the panel"
            if self.panel.visible().tobytes() != image.convert("1").tobytes():
                self.mismatches.append(self.checked)
            self.checked += 1

        return replace(observed, on_frame=on_frame)


@pytest.mark.parametrize("driver, kind", [("ssd1306", "ssd1306"), ("sh1106", "sh1106")])
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_every_frame_of_every_script_is_on_the_glass(script, driver, kind, tmp_path):
    panel = FakePanel(kind)
    bus = FakeSMBus(panel)
    resolved = resolve("sim", None, environ={})
    display = replace(resolved.profile.display, driver=driver, interface="i2c", port=1, address=0x3C)
    resolved = replace(resolved, profile=replace(resolved.profile, display=display))
    with mock.patch("smbus2.SMBus", lambda port: bus):  # restarts open the panel again on the same bus
        sim = PanelChecked(resolved, tmp_path, panel=panel)
        try:
            run_script(parse_script(script.read_text(encoding="utf-8")), sim.hooks(), lambda line: None)
        finally:
            sim.close()
    assert sim.checked > 10
    assert sim.mismatches == []
    assert panel.errors == []
    full = 6 + 1024 if kind == "ssd1306" else 8 * (3 + 128)  # command and data bytes of one full frame
    assert panel.commands + panel.data_bytes < full * sim.checked  # less than a full frame each
