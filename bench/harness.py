"""What the benchmarks share: the real appliance on the sim profile running in its own thread, and the
p50/p99/max line they print."""

from __future__ import annotations

import statistics
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_host.appliance import Appliance, open_appliance
from firmware_host.config import Resolved, resolve
from firmware_host.shell import Outputs


def start_appliance(
    state_dir: Path, hook: Callable[[Outputs], Outputs], pin_factory: Any = None, resolved: Resolved | None = None
) -> tuple[Appliance, threading.Thread]:
    """Open the appliance inside the loop's thread (the journal belongs to the thread that opens it);
    `pin_factory`: another gpiozero factory than the sim profile's mock one; `resolved`: another
    configuration than the sim profile's."""
    resolved = resolved or resolve("sim", None, environ={})
    holder: list[Appliance] = []
    ready = threading.Event()

    def main() -> None:
        appliance = open_appliance(resolved, state_dir, outputs_hook=hook, power_off=lambda: None,
                                   pin_factory=pin_factory)
        holder.append(appliance)
        ready.set()
        try:
            appliance.shell.run()
        finally:
            appliance.close()

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    ready.wait(30)
    return holder[0], thread


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def stats(values: list[float]) -> str:
    """"p50 p99 max (n=…)" in ms, aligned for the benchmarks' tables."""
    if not values:
        return "   (no samples)"
    return (f"{statistics.median(values):8.3f} {percentile(values, 99):8.3f} {max(values):8.3f}"
            f"   (n={len(values)})")
