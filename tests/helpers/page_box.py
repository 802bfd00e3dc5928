"""A pure app for the page server's tests (`Box`), and the one way they serve it (`serve`)."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

from firmware_host.core import app
from firmware_host.core.page_view import page_views
from firmware_host.core.settings import Settings
from firmware_host.page.server import PageServer


class Box:
    """A pure app the server talks to: events put are stepped at once, and the views published."""

    def __init__(self) -> None:
        self.state, _ = app.initial(Settings())
        self.events: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.server: PageServer | None = None

    def put(self, event: object) -> None:
        self.events.put(event)
        self.state, _ = app.step(self.state, event)  # type: ignore[arg-type]
        if self.server is not None:
            self.server.publish(page_views(self.state))

    def drained(self) -> list[object]:
        out = []
        while not self.events.empty():
            out.append(self.events.get())
        return out


def serve(box: Any, state_dir: Path) -> PageServer:
    """A page server on 127.0.0.1 (a free port, the clock at 1.0) for `box` (anything with `put`, `state` and
    `server`), started, with the box's views published: the box publishes its next ones itself."""
    server = PageServer(box.put, lambda: 1.0, bind="127.0.0.1", port=0, state_dir=state_dir)
    box.server = server
    server.start()
    server.publish(page_views(box.state))
    return server
