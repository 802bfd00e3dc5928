"""The service with its table page, as a child process the browser tests drive: the sim profile's mock
pins, the real clock, the page on 127.0.0.1:PORT. Lines on stdin press the box's buttons on their mock pins
(the real button driver), or ask: "press NAME", "hold NAME", "code" (prints "code X"), "screen" (prints
"screen TEXT"), "entry KEY" (prints "entry N", the main menu entry's index now),
"quit". Prints "ready URL" once the page listens.

    python -m tests.helpers.page_service STATE_DIR PORT
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from firmware_host.appliance import open_appliance
from firmware_host.config import PageConfig, resolve
from firmware_host.core import app
from firmware_host.core.screens import describe
from firmware_host.page.attach import serve_page
from firmware_host.sim_terminal import appliance_buttons, press


def main() -> None:
    state_dir, port = Path(sys.argv[1]), int(sys.argv[2])
    resolved = resolve("sim", None, environ={})
    resolved = replace(resolved, config=replace(resolved.config, page=PageConfig(True, port, "127.0.0.1")))
    appliance = open_appliance(resolved, state_dir, power_off=lambda: None)
    server = serve_page(appliance, resolved, state_dir)
    assert server is not None
    buttons = appliance_buttons(resolved)
    hold_s = resolved.profile.buttons.hold_ms / 1000 + 0.15

    def commands() -> None:
        for line in sys.stdin:
            word, _, rest = line.strip().partition(" ")
            if word == "press":
                press(appliance, buttons[rest], 0.05)
                time.sleep(0.05)
            elif word == "hold":
                press(appliance, buttons[rest], hold_s)
            elif word == "code":
                print(f"code {server.code}", flush=True)
                continue
            elif word == "entry":  # the index of a main menu entry (its key) in the menu as it is now
                print(f"entry {app.main_keys(appliance.shell.state).index(rest)}", flush=True)
                continue
            elif word == "way":  # the buttons from the open main menu to the entry (its key) in its group
                way = app.events_to_open(appliance.shell.state, rest, 0.0) or []
                print("way " + " ".join(event.button.value for event in way), flush=True)
                continue
            elif word == "screen":
                print(f"screen {describe(app.screen(appliance.shell.state))}", flush=True)
                continue
            elif word == "quit":
                appliance.shell.stop()
                return
            print("done", flush=True)
        appliance.shell.stop()

    threading.Thread(target=commands, daemon=True).start()
    print(f"ready {server.address}", flush=True)
    try:
        appliance.shell.run()
    finally:
        server.close()
        appliance.close()


if __name__ == "__main__":
    main()
