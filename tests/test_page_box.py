"""The simulator's virtual box at /box: served only with the simulator's LiveBox, its state and frame, and
its buttons, encoder and typing line reaching the shell through the mock pins (without a browser here;
tests/test_page_box_browser.py drives it in Chromium)."""

from __future__ import annotations

import asyncio
import io
import queue
from collections.abc import Iterator
from dataclasses import replace

import aiohttp
import pytest
from PIL import Image, ImageChops

from firmware_host.appliance import open_appliance
from firmware_host.config import PageConfig, resolve
from firmware_host.core.events import Button, LongPress, Press, TextEntry, Turn
from firmware_host.page.attach import serve_page
from firmware_host.page.server import PageServer
from firmware_host.sim_box import LiveBox


class Served:
    def __init__(self, server: PageServer, box: LiveBox) -> None:
        self.server, self.box = server, box
        self.url = f"http://127.0.0.1:{server.port}"

    def inputs(self, kinds: tuple[type, ...]) -> list[object]:
        """What reached the shell's queue (the shell does not run here), of these kinds."""
        assert self.box.settle()
        inbox = self.box.appliance.shell.inbox  # type: ignore[union-attr]
        out = []
        while True:
            try:
                event = inbox.get_nowait()
            except queue.Empty:
                return [e for e in out if isinstance(e, kinds)]
            out.append(event)

    def request(self, method: str, path: str, **kwargs: object) -> tuple[int, bytes, str]:
        async def go() -> tuple[int, bytes, str]:
            async with aiohttp.ClientSession() as session, session.request(method, self.url + path, **kwargs) as r:
                return r.status, await r.read(), r.content_type

        return asyncio.run(go())

    def post(self, path: str, body: object, origin: str | None = "") -> int:
        headers = {} if origin is None else {"Origin": origin or self.url}
        return self.request("POST", path, json=body, headers=headers)[0]


@pytest.fixture(scope="module")
def box_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One appliance (its shell not running: inputs stay on its queue) and its page, for the module."""
    state = tmp_path_factory.mktemp("box")
    resolved = resolve("sim", None, environ={})
    resolved = replace(resolved, config=replace(resolved.config, page=PageConfig(True, 0, "127.0.0.1")))
    box = LiveBox(resolved)
    appliance = open_appliance(resolved, state, outputs_hook=box.hook, power_off=lambda: None)
    box.attach(appliance)
    server = serve_page(appliance, resolved, state, box=box)
    assert server is not None
    yield Served(server, box)
    server.close()
    box.close()
    appliance.close()


@pytest.fixture
def served(box_server: Served) -> Served:
    box_server.inputs(())  # what earlier tests left on the queue
    return box_server


def test_the_box_page_and_its_assets_are_served(served):
    status, body, kind = served.request("GET", "/box")
    assert status == 200 and kind == "text/html" and b"/box/static/box.js" in body
    for name, kind_ in (("box.js", "text/javascript"), ("box.css", "text/css")):
        status, body, kind = served.request("GET", f"/box/static/{name}")
        assert status == 200 and kind == kind_ and body
    assert served.request("GET", "/box/static/..%2Fserver.py")[0] == 404


def test_the_state_tells_the_frame_the_bar_the_buttons_and_the_language(served):
    import json

    status, body, _ = served.request("GET", "/box/state")
    state = json.loads(body)
    assert status == 200 and state["frame"] >= 1 and state["lang"] == "de"
    assert state["bar"] == served.box.bar() and len(state["bar"]) == 10
    assert set(state["buttons"]) >= {"start", "next", "back", "menu", "encoder"} and state["encoder"] is True


def test_the_frame_png_is_the_oled_frame_pixel_for_pixel(served):
    status, body, kind = served.request("GET", "/box/frame.png")
    assert status == 200 and kind == "image/png"
    image = Image.open(io.BytesIO(body))
    _, frame = served.box.frame()
    assert image.size == (128, 64)
    assert ImageChops.difference(image.convert("L"), frame.convert("L")).getbbox() is None


def test_a_pin_down_and_up_is_one_press_through_the_buttons_driver(served):
    assert served.post("/box/pin", {"button": "start", "down": True}) == 204
    assert served.post("/box/pin", {"button": "start", "down": False}) == 204
    assert [(e.button, type(e)) for e in served.inputs((Press, LongPress))] == [(Button.START, Press)]


def test_the_encoder_turns_on_its_mock_pins_and_a_typed_line_is_a_text_entry(served):
    assert served.post("/box/turn", {"steps": 2}) == 204
    assert served.post("/box/turn", {"steps": -1}) == 204
    assert served.post("/box/type", {"line": "Anna"}) == 204
    got = served.inputs((Turn, TextEntry))
    assert [getattr(e, "steps", None) or getattr(e, "text", None) for e in got] == [1, 1, -1, "Anna"]


@pytest.mark.parametrize(("path", "body"), [
    ("/box/pin", {"button": "power", "down": True}), ("/box/pin", {"button": "start"}),
    ("/box/turn", {"steps": 0}), ("/box/turn", {"steps": "2"}), ("/box/type", {"line": 5}),
    ("/box/type", {"line": "x" * 201}), ("/box/pin", ["start"]),
])
def test_bad_requests_are_refused_and_press_nothing(served, path, body):
    assert served.post(path, body) == 400
    assert served.inputs((Press, LongPress, Turn, TextEntry)) == []


def test_writes_from_another_origin_are_refused(served):
    assert served.post("/box/pin", {"button": "start", "down": True}, origin="http://evil.example") == 403
    assert served.post("/box/pin", {"button": "start", "down": True}, origin=None) == 403
    assert served.inputs((Press, LongPress)) == []


def test_the_service_page_has_no_box(tmp_path):
    server = PageServer(lambda event: None, lambda: 1.0, bind="127.0.0.1", port=0, state_dir=tmp_path)
    server.start()
    try:
        served_ = Served(server, None)  # type: ignore[arg-type]
        for path in ("/box", "/box/state", "/box/frame.png", "/box/static/box.js"):
            assert served_.request("GET", path)[0] == 404
        assert served_.request("POST", "/box/pin", json={"button": "start", "down": True})[0] in (404, 405)
    finally:
        server.close()


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_sound_is_what_the_buzzer_plays_now_until_its_notes_end_or_it_is_stopped(sim_config, tmp_path):
    clock = FakeClock()
    box = LiveBox(sim_config, clock=clock)
    appliance = open_appliance(sim_config, tmp_path, outputs_hook=box.hook, power_off=lambda: None)
    try:
        sounder = appliance.shell.outputs.sounder  # the box's wrapper around the buzzer driver
        assert box.sound_now() is None
        sounder.play([(880.0, 0.2), (None, 0.1), (440.0, 0.2)])
        sound = box.sound_now()
        assert sound is not None and sound.first_tone == 880.0 and sound.until == pytest.approx(100.5)
        clock.now = 100.25
        assert box.sound_now() is not None and sound.tone_at(clock.now) is None  # a rest inside the notes
        clock.now = 100.5
        assert box.sound_now() is None  # the notes are over: the marker goes
        clock.now = 200.0
        sounder.play([(880.0, 5.0)])
        sounder.stop()
        assert box.sound_now() is None  # stopped: silent at once
    finally:
        appliance.close()
