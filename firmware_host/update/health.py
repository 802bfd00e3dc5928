"""The health check a release runs on itself before the box switches to it (`wordtable health`): start
the appliance on mock pins with the box's config and a *copy* of its state directory, the journal opened
and replayed, the first frame drawn on luma's dummy panel, and stop. The real pins and the real journal are
the running service's and stay untouched. One line on standard output says what was checked."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from firmware_host import __version__
from firmware_host.config import resolve

log = logging.getLogger("wordtable.health")

HEALTHY = "healthy:"  # how the line that `wordtable update` looks for begins


@dataclass(frozen=True, slots=True)
class Health:
    ok: bool
    text: str


def check(state_dir: Path, config: Path | None) -> Health:
    """Start and stop the appliance on `state_dir` (a copy: it is written). Raises what the start raises."""
    from luma.core.device import dummy  # type: ignore[import-untyped]

    from firmware_host.appliance import open_appliance

    resolved = resolve("sim", config)
    spec = resolved.profile.display
    device = dummy(width=spec.width, height=spec.height, rotate=spec.rotate, mode="1")
    appliance = open_appliance(resolved, state_dir, display_device=device, power_off=lambda: None)
    try:
        if appliance.journal is None:
            return Health(False, f"wordtable {__version__}: the journal in {state_dir} could not be opened")
        if device.image.getbbox() is None:
            return Health(False, f"wordtable {__version__}: no first frame (the panel stayed dark)")
        return Health(True, f"{HEALTHY} wordtable {__version__}, journal opened and replayed, first frame drawn")
    finally:
        appliance.close()
