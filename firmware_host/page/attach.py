"""The table page beside a running appliance: served when the config says so (`config.page_enabled`), fed
with the views of the state the shell hands its observers after every step (`Shell.observe`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.appliance import Appliance
from firmware_host.config import Resolved, page_enabled
from firmware_host.core import app
from firmware_host.core.events import Notice
from firmware_host.core.page_view import page_views
from firmware_host.page.server import PageServer
from firmware_host.startup_failure import page_failure

if TYPE_CHECKING:
    from firmware_host.sim_box import LiveBox

log = logging.getLogger("wordtable.page")


def serve_page(appliance: Appliance, resolved: Resolved, state_dir: Path, *, asked: bool = False,
               clock: Callable[[], float] = time.monotonic, box: LiveBox | None = None,
               failed: Callable[[str], None] = lambda text: None) -> PageServer | None:
    """Start the page for `appliance` (before its shell runs) and return it; None when it is off or it
    cannot be served (a taken port: the OLED, the log and `failed` get why and what to do, in the box's
    language — `startup_failure.page_failure` — and the box plays on without it). With the simulator's
    `box`, the page also serves the virtual box at /box (and the way out of a taken port is `--port`)."""
    if not page_enabled(resolved, asked):
        return None
    config = resolved.config.page
    extra = None
    if box is not None:
        from firmware_host.page.box import routes
        from firmware_host.sim_box import typed_event

        extra = routes(box, lambda line, at: typed_event(line, resolved, at))
    server = PageServer(appliance.shell.put, clock, bind=config.bind, port=config.port, state_dir=state_dir,
                        extra_routes=extra)
    try:
        server.start()
    except OSError as exc:
        text = page_failure(exc, config.bind, config.port, appliance.shell.state.settings.lang, sim=box is not None)
        log.error("%s (%s:%d: %s)", text, config.bind, config.port, exc.strerror)
        appliance.shell.put(Notice(text, clock()))
        failed(text)
        return None
    shell = appliance.shell

    def publish(state: app.AppState) -> None:
        server.publish(page_views(state))

    shell.observe(publish)
    publish(shell.state)
    return server
