"""The seams between the shell and the hardware. Drivers implement these; the shell and tests talk only
to them. Every `close()` is idempotent and leaves the part off (LEDs dark, buzzer silent).
`HardwareError` is defined in `drivers.errors` (drivers import nothing from `hw`) and re-exported here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from drivers.errors import HardwareError
from firmware_host.core.events import Event
from firmware_host.core.sounds import Note

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["Bar", "Display", "Emit", "HardwareError", "Inputs", "Sounder"]

Emit = Callable[[Event], None]
"""Where input drivers put events; called from driver threads, so it must be thread-safe (queue.put)."""


class Bar(Protocol):
    def set_level(self, level: float) -> None:
        """Show `level` in [0, 1]: 1 all lit, 0 none; the draining segment dimmed (clamped outside)."""

    def close(self) -> None: ...


class Sounder(Protocol):
    def play(self, notes: Sequence[Note], duty: float = 0.5) -> None:
        """Start playing `notes` ((Hz | None, seconds), …) in the background, replacing what plays now, at
        PWM `duty` (the loudness of a piezo, 0.5 loudest; `core.sounds.duty`)."""

    def stop(self) -> None:
        """Silence now and cancel the rest of the notes."""

    def close(self) -> None: ...


class Display(Protocol):
    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels that `show` expects."""

    def show(self, image: Image.Image) -> None:
        """Put a frame of exactly `size` on the panel (any PIL mode)."""

    def clear(self) -> None: ...

    def set_contrast(self, level: int) -> None:
        """The panel's contrast (brightness), 0–255."""

    def set_visible(self, visible: bool) -> None:
        """Switch the panel on or off (off: nothing lit, what it shows is kept)."""

    def close(self) -> None: ...


class Inputs(Protocol):
    """Buttons and encoder: they call `emit` with Press / LongPress / Turn events until closed."""

    def close(self) -> None: ...
