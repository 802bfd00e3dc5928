"""The virtual box at /box: the simulator's OLED, LED bar, buttons, encoder and buzzer in a browser tab.

Only `wordtable sim --page` serves it (it needs the simulator's `LiveBox`; the Pi's service never passes
one, so there /box does not exist). The page polls `GET /box/state` (frame number, LED bar, the sound
playing, the profile's buttons, the language) and loads `GET /box/frame.png` when the frame number moved;
it plays the sound's notes through Web Audio. `POST /box/pin` drives a button's mock pin down or up (the
buttons driver decides Press or LongPress, as on the board), `POST /box/turn` turns the encoder on its mock
pins, `POST /box/type` sends a typed line like the terminal's Enter. Writes must come from the page's own
origin. Assets are package data next to this module (no CDN, no build step).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

from aiohttp import web

from firmware_host.page.server import HEADERS
from firmware_host.sim_box import LiveBox
from firmware_host.web import file_routes, same_origin

ASSETS = resources.files("firmware_host.page") / "box_assets"
MAX_LINE = 200


def routes(box: LiveBox, typed: Callable[[str, float], Any]) -> Callable[[web.Application], None]:
    """The function that adds /box to the page's application; `typed(line, at)` makes a typed line's event."""

    def add(application: web.Application) -> None:
        handlers = _Handlers(box, typed)
        file_routes(application, ASSETS, HEADERS, at="/box", index="box.html")
        application.router.add_get("/box/state", handlers.state)
        application.router.add_get("/box/frame.png", handlers.frame)
        application.router.add_post("/box/pin", handlers.pin)
        application.router.add_post("/box/turn", handlers.turn)
        application.router.add_post("/box/type", handlers.type_line)

    return add


def state_of(box: LiveBox) -> dict[str, Any]:
    """What the page shows, as JSON: what is true now."""
    seq, _ = box.frame()
    sound = box.sound_now()
    appliance = box.appliance
    lang = appliance.shell.state.settings.lang if appliance is not None else "de"
    return {
        "frame": seq,
        "bar": [round(v, 3) for v in box.bar()],
        "sound": None if sound is None else {
            "seq": sound.seq, "notes": [[hz, s] for hz, s in sound.notes], "age": box.clock() - sound.started,
        },
        "buttons": list(box.buttons()),
        "encoder": box.resolved.profile.encoder.enabled,
        "hold_ms": box.resolved.profile.buttons.hold_ms,
        "lang": lang,
    }


def frame_png(box: LiveBox) -> bytes:
    _, image = box.frame()
    out = io.BytesIO()
    image.convert("1").save(out, format="PNG")
    return out.getvalue()


class _Handlers:
    def __init__(self, box: LiveBox, typed: Callable[[str, float], Any]) -> None:
        self.box = box
        self.typed = typed

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(state_of(self.box), headers=HEADERS)

    async def frame(self, request: web.Request) -> web.Response:
        return web.Response(body=frame_png(self.box), content_type="image/png", headers=HEADERS)

    async def pin(self, request: web.Request) -> web.Response:
        body = await _body(request)
        button, down = body.get("button"), body.get("down")
        if not isinstance(down, bool) or not isinstance(button, str) or not self.box.drive(button, down):
            raise web.HTTPBadRequest(text="pin needs {button: one of the profile's, down: true|false}")
        return web.Response(status=204)

    async def turn(self, request: web.Request) -> web.Response:
        steps = (await _body(request)).get("steps")
        if not isinstance(steps, int) or isinstance(steps, bool) or not -10 <= steps <= 10 or steps == 0:
            raise web.HTTPBadRequest(text="turn needs {steps: -10…10, not 0}")
        self.box.turn(steps)
        return web.Response(status=204)

    async def type_line(self, request: web.Request) -> web.Response:
        line = (await _body(request)).get("line")
        if not isinstance(line, str) or len(line) > MAX_LINE:
            raise web.HTTPBadRequest(text=f"type needs {{line: text of at most {MAX_LINE} characters}}")
        self.box.put(lambda at: self.typed(line, at))
        return web.Response(status=204)


async def _body(request: web.Request) -> dict[str, Any]:
    if not same_origin(request):
        raise web.HTTPForbidden(text="only the box's own page may press its buttons")
    try:
        body = json.loads(await request.text())
    except ValueError:
        raise web.HTTPBadRequest(text="not JSON") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="not a JSON object")
    return body
