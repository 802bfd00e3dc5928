"""The appliance on mock hardware with a virtual clock: what `wordtable sim --script` and the
end-to-end tests drive. Outputs are read back from the real drivers' mock pins and dummy display."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_host.appliance import Appliance, open_appliance
from firmware_host.config import PageConfig, Resolved
from firmware_host.core import app
from firmware_host.core.events import Event
from firmware_host.core.screens import Screen, describe
from firmware_host.core.sounds import PATTERNS, Note
from firmware_host.script import ScriptHooks
from firmware_host.shell import Outputs, VirtualClock, advance, advance_once
from firmware_host.textscreen import frame
from hw.schema import load_toml

SIM_BIND = "127.0.0.1"  # the simulator's table page: this machine only, unless the config says otherwise


def sim_page(resolved: Resolved, *, port: int | None = None) -> Resolved:
    """`resolved` with the table page as the simulator serves it (`wordtable sim --page`, and what
    `wordtable check-config` shows for a mock board): on `SIM_BIND` unless the user config file names a
    `[page] bind`; on `port` (`--port`) when given, else the config's."""
    page = resolved.config.page
    bind = page.bind if _names_bind(resolved.config.source) else SIM_BIND
    page = PageConfig(page.enabled, page.port if port is None else port, bind)
    return replace(resolved, config=replace(resolved.config, page=page))


def _names_bind(source: str | None) -> bool:
    if source is None:
        return False
    page = load_toml(Path(source), "config").get("page")  # `resolve` read it already and found it valid
    return isinstance(page, dict) and "bind" in page


class Simulator:
    """One appliance on a virtual clock. `restart()` is a power cut: close, then resume from the journal."""

    def __init__(self, resolved: Resolved, state_dir: Path, *, frames_out: Callable[[str], None] | None = None,
                 start: float = 0.0) -> None:
        self.resolved = resolved
        self.state_dir = state_dir
        self.clock = VirtualClock(start)
        self.frames_out = frames_out
        self.sounds: list[tuple[float, str]] = []
        self.frames = 0
        self.powered_off = False
        self.image: Any = None  # the last frame sent to the display
        self._unprinted = False
        self.appliance: Appliance = self._open()
        self._flush()

    def _open(self) -> Appliance:
        return open_appliance(self.resolved, self.state_dir, clock=self.clock, outputs_hook=self._observe,
                              power_off=self._power_off)

    def _observe(self, outputs: Outputs) -> Outputs:
        def on_frame(screen: Screen, image: Any) -> None:
            self.frames += 1
            self.image = image
            self._unprinted = True

        def on_sound(pattern: str, notes: tuple[Note, ...]) -> None:
            self.sounds.append((self.clock.now, pattern))

        return replace(outputs, on_frame=on_frame, on_sound=on_sound)

    def _power_off(self) -> None:
        self.powered_off = True

    # --- driving it ---------------------------------------------------------------------------------

    @property
    def state(self) -> app.AppState:
        return self.appliance.shell.state

    def send(self, event: Event) -> None:
        self.appliance.shell.handle(event)
        self._flush()

    def take_inputs(self, done: Callable[[Event], bool], timeout: float = 10.0) -> list[Event]:
        """Handle what the drivers' threads put on the shell's queue (buttons on the mock pins, a
        keyboard, a reader), in order, until an event for which `done` holds was handled; returns them.
        Raises TimeoutError when none came within `timeout` seconds (real time)."""
        inbox = self.appliance.shell.inbox
        handled: list[Event] = []
        end = time.monotonic() + timeout
        while True:
            try:
                event = inbox.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"no such input within {timeout} s; handled: {handled}") from None
            if event is None:
                continue
            self.send(event)
            handled.append(event)
            if done(event):
                return handled

    def wait_until(self, until: float) -> None:
        """Move the virtual clock to `until`: every wake-up and page turn on the way, each frame printed."""
        shell = self.appliance.shell
        while advance_once(shell, self.clock, until):
            self._flush()
        advance(shell, self.clock, until)

    def restart(self) -> None:
        self.appliance.close()
        self.appliance = self._open()
        self._flush()

    def _flush(self) -> None:
        """Print the frame once the step that drew it is complete (LED bar included)."""
        if self._unprinted and self.frames_out is not None:
            self.frames_out(f"{self.frame_text()}\n  » {self.screen_text()}")
        self._unprinted = False

    def close(self) -> None:
        self.appliance.close()

    # --- reading it back ----------------------------------------------------------------------------

    def screen_text(self) -> str:
        return describe(app.screen(self.state))

    def bar_states(self) -> list[float]:
        """The LED bar as the mock pins hold it: one value in [0, 1] per segment."""
        factory = self.appliance.hardware.pin_factory
        return [float(factory.pin(p).state) for p in self.resolved.profile.led_bar.pins]

    def frame_text(self) -> str:
        """The display, LED bar and buzzer as text; the last line names the sound played at this moment."""
        sounding = [pattern for at, pattern in self.sounds if at == self.clock.now]
        label = f"t = {self.clock.now:.3f} s" + (f"   ♪ {', '.join(sounding)}" if sounding else "")
        # The buzzer driver plays in real time; on the virtual clock the sound is the one started now.
        tone = next((hz for hz, _ in PATTERNS[sounding[-1]] if hz), None) if sounding else None
        return frame(self.image, self.bar_states(), tone, label)

    def hooks(self) -> ScriptHooks:
        return ScriptHooks(
            now=lambda: self.clock.now,
            send=self.send,
            wait=self.wait_until,
            screen_text=self.screen_text,
            state=lambda: self.state,
            frame_text=self.frame_text,
            restart=self.restart,
        )
